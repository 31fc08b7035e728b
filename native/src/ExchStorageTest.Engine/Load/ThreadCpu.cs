using System.Globalization;
using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Io.Windows;

namespace ExchStorageTest.Engine.Load;

/// <summary>
/// How much CPU one thread got, and how long it waited for one (the host-limited evidence). Linux reads the
/// scheduler's own accounting, /proc/self/task/&lt;tid&gt;/schedstat: nanoseconds on a CPU, nanoseconds runnable but
/// waiting on a run queue, and how many times it was put on a CPU. Windows has no run-queue wait per thread:
/// GetThreadTimes gives the time on a CPU (kernel + user) only. Read from another thread (the sampler) by the id the
/// thread recorded for itself (<see cref="ThreadCpu.CurrentId"/>).
/// </summary>
public readonly record struct ThreadCpuTimes(double OnCpuSeconds, double? WaitingSeconds, long? TimesScheduled)
{
    /// <summary>The times between an earlier reading and this one.</summary>
    public ThreadCpuTimes Since(in ThreadCpuTimes earlier) => new(
        OnCpuSeconds - earlier.OnCpuSeconds,
        WaitingSeconds is double w && earlier.WaitingSeconds is double w0 ? w - w0 : null,
        TimesScheduled is long n && earlier.TimesScheduled is long n0 ? n - n0 : null);

    /// <summary>Parses a schedstat line: "on-cpu-ns run-queue-wait-ns timeslices" (Documentation/scheduler/sched-stats.rst).</summary>
    public static ThreadCpuTimes? ParseSchedstat(string text)
    {
        var f = text.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        if (f.Length < 3) return null;
        if (!long.TryParse(f[0], NumberStyles.None, CultureInfo.InvariantCulture, out long onCpu)
            || !long.TryParse(f[1], NumberStyles.None, CultureInfo.InvariantCulture, out long waiting)
            || !long.TryParse(f[2], NumberStyles.None, CultureInfo.InvariantCulture, out long slices)) return null;
        return new ThreadCpuTimes(onCpu / 1e9, waiting / 1e9, slices);
    }
}

/// <summary>Reads <see cref="ThreadCpuTimes"/> of the engine's own threads.</summary>
public static unsafe class ThreadCpu
{
    /// <summary>The calling thread's OS id (Linux tid, Windows thread id); 0 where neither.</summary>
    public static long CurrentId()
    {
        if (OperatingSystem.IsLinux())
        {
            // gettid(2): syscall 186 on x86-64, 178 on arm64 (glibc's wrapper is missing before 2.30).
            long number = RuntimeInformation.ProcessArchitecture switch { Architecture.X64 => 186, Architecture.Arm64 => 178, _ => -1 };
            return number < 0 ? 0 : Math.Max(0, LibC.Syscall(number, 0, 0, 0, 0, 0, 0));
        }
        return OperatingSystem.IsWindows() ? Kernel32.GetCurrentThreadId() : 0;
    }

    /// <summary>The thread's times so far; null when the thread is gone or the OS does not say.</summary>
    public static ThreadCpuTimes? Read(long threadId)
    {
        if (threadId <= 0) return null;
        if (OperatingSystem.IsLinux())
        {
            try { return ThreadCpuTimes.ParseSchedstat(File.ReadAllText($"/proc/self/task/{threadId.ToString(CultureInfo.InvariantCulture)}/schedstat")); }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException) { return null; }
        }
        if (OperatingSystem.IsWindows())
        {
            nint handle = Kernel32.OpenThread(Kernel32.THREAD_QUERY_LIMITED_INFORMATION, false, (uint)threadId);
            if (handle == 0) return null;
            try
            {
                long creation, exit, kernel, user;
                return Kernel32.GetThreadTimes(handle, &creation, &exit, &kernel, &user) ? new ThreadCpuTimes((kernel + user) / 1e7, null, null) : null;
            }
            finally { Kernel32.CloseHandle(handle); }
        }
        return null;
    }
}
