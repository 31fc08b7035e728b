using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Io.Windows;

namespace ExchStorageTest.Engine.Load;

/// <summary>
/// Pins each I/O worker thread to one CPU, round-robin over the CPUs the process may use (DiskSpd's
/// default). A worker that stays on one CPU is not migrated between submit and completion, so the
/// latency measured is the storage's, not the scheduler's: on the 2-vCPU build VM an unpinned
/// pread loop ran at ~12k IOPS against a RAM-backed disk and a pinned one at ~19k, for C, fio and
/// this engine alike. Pinning is best effort: where the OS refuses (a restricted container), the
/// worker runs unpinned and the result says so.
/// </summary>
internal static unsafe class CpuAffinity
{
    private const int LinuxMaskBytes = 1024; // 8192 CPUs, the kernel's largest NR_CPUS

    /// <summary>The CPUs this process may run on, as global indices in ascending order.</summary>
    public static IReadOnlyList<int> AllowedCpus()
    {
        if (OperatingSystem.IsLinux())
        {
            byte* mask = stackalloc byte[LinuxMaskBytes];
            new Span<byte>(mask, LinuxMaskBytes).Clear();
            // glibc's wrapper returns 0 on success (the raw syscall would return the mask size).
            if (LibC.SchedGetAffinity(0, LinuxMaskBytes, mask) == 0) return CpusInMask(new ReadOnlySpan<byte>(mask, LinuxMaskBytes));
        }
        else if (OperatingSystem.IsWindows())
        {
            return Enumerable.Range(0, WindowsGroupSizes().Sum()).ToArray();
        }
        return Enumerable.Range(0, System.Environment.ProcessorCount).ToArray();
    }

    /// <summary>The CPU a worker goes to: worker i takes the i-th allowed CPU, wrapping round.</summary>
    public static int ForWorker(int workerIndex, IReadOnlyList<int> allowed) =>
        allowed.Count == 0 ? -1 : allowed[workerIndex % allowed.Count];

    /// <summary>Pins the calling thread to <paramref name="cpu"/>; false when the OS refused.</summary>
    public static bool TryPinCurrentThread(int cpu)
    {
        if (cpu < 0) return false;
        if (OperatingSystem.IsLinux())
        {
            if (cpu >= LinuxMaskBytes * 8) return false;
            byte* mask = stackalloc byte[LinuxMaskBytes];
            new Span<byte>(mask, LinuxMaskBytes).Clear();
            mask[cpu / 8] = (byte)(1 << (cpu % 8));
            return LibC.SchedSetAffinity(0, LinuxMaskBytes, mask) == 0;
        }
        if (OperatingSystem.IsWindows())
        {
            // Compiled here, never executed: Windows numbers CPUs within processor groups of up to 64.
            if (!TryWindowsGroupCpu(cpu, WindowsGroupSizes(), out ushort group, out int number)) return false;
            GroupAffinity affinity = new() { Mask = (nuint)1 << number, Group = group };
            return Kernel32.SetThreadGroupAffinity(Kernel32.GetCurrentThread(), &affinity, null);
        }
        return false;
    }

    /// <summary>The CPUs set in a Linux cpu_set_t (bit n of byte n/8 = CPU n).</summary>
    internal static int[] CpusInMask(ReadOnlySpan<byte> mask)
    {
        var cpus = new List<int>();
        for (int i = 0; i < mask.Length; i++)
        {
            for (int bit = 0; bit < 8; bit++)
                if ((mask[i] & (1 << bit)) != 0) cpus.Add(i * 8 + bit);
        }
        return cpus.ToArray();
    }

    /// <summary>Maps a global CPU index onto (processor group, number within the group).</summary>
    internal static bool TryWindowsGroupCpu(int cpu, IReadOnlyList<int> groupSizes, out ushort group, out int number)
    {
        int first = 0;
        for (int g = 0; g < groupSizes.Count; g++)
        {
            if (cpu < first + groupSizes[g])
            {
                group = (ushort)g;
                number = cpu - first;
                return true;
            }
            first += groupSizes[g];
        }
        group = 0;
        number = -1;
        return false;
    }

    private static int[] WindowsGroupSizes()
    {
        int groups = Kernel32.GetActiveProcessorGroupCount();
        var sizes = new int[groups];
        for (ushort g = 0; g < groups; g++) sizes[g] = (int)Kernel32.GetActiveProcessorCount(g);
        return sizes;
    }
}
