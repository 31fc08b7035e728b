using ExchStorageTest.Engine.Io.Windows;

namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// Whether a thread still exists for the operating system, asked from another thread. <see cref="Thread.IsAlive"/> is not
/// enough: under Wine 8 a .NET 8 exception dispatch that faults kills the thread natively, and the runtime still calls
/// it alive (seen: the main thread a zombie, the heartbeat thread beating on). Windows: a SYNCHRONIZE handle to the
/// thread, signalled when it ends. Linux: its /proc/self/task entry, gone (or a zombie) when it ends. Elsewhere the
/// runtime's word.
/// </summary>
public sealed class OsThreadWatch : IDisposable
{
    private readonly Thread _thread;
    private readonly nint _windowsHandle;
    private readonly string? _linuxStat;

    private OsThreadWatch(Thread thread, nint windowsHandle, string? linuxStat)
    {
        _thread = thread;
        _windowsHandle = windowsHandle;
        _linuxStat = linuxStat;
    }

    /// <summary>Watches the calling thread.</summary>
    public static OsThreadWatch ForCurrentThread()
    {
        if (OperatingSystem.IsWindows())
            return new OsThreadWatch(Thread.CurrentThread, Kernel32.OpenThread(Kernel32.SYNCHRONIZE, false, Kernel32.GetCurrentThreadId()), null);
        if (OperatingSystem.IsLinux() && new FileInfo("/proc/thread-self").LinkTarget is { } self)
            // "<pid>/task/<tid>"
            return new OsThreadWatch(Thread.CurrentThread, 0, Path.Combine("/proc", self, "stat"));
        return new OsThreadWatch(Thread.CurrentThread, 0, null);
    }

    /// <summary>False once the thread has ended, by the runtime's account or the operating system's.</summary>
    public bool IsAlive
    {
        get
        {
            if (!_thread.IsAlive) return false;
            if (_windowsHandle != 0) return Kernel32.WaitForSingleObject(_windowsHandle, 0) != Kernel32.WAIT_OBJECT_0;
            if (_linuxStat is not null) return LinuxThreadRuns(_linuxStat);
            return true;
        }
    }

    /// <summary>A /proc task's stat: "tid (comm) state ..."; a task that ended has no entry, or state Z or X.</summary>
    internal static bool LinuxThreadRuns(string statPath)
    {
        string stat;
        try
        {
            stat = File.ReadAllText(statPath);
        }
        catch (IOException)
        {
            return false;
        }
        int close = stat.LastIndexOf(')');
        if (close < 0 || close + 2 >= stat.Length) return true;
        char state = stat[close + 2];
        return state is not ('Z' or 'X');
    }

    public void Dispose()
    {
        if (_windowsHandle != 0) Kernel32.CloseHandle(_windowsHandle);
    }
}
