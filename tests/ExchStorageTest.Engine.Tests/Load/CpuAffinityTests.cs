using ExchStorageTest.Engine.Load;

namespace ExchStorageTest.Engine.Tests.Load;

public class CpuAffinityTests
{
    [Fact]
    public void A_linux_cpu_mask_lists_every_set_bit()
    {
        // CPUs 0, 3, 9 and 15: bytes 0b0000_1001, 0b1000_0010.
        Assert.Equal(new[] { 0, 3, 9, 15 }, CpuAffinity.CpusInMask(new byte[] { 0x09, 0x82, 0x00 }));
        Assert.Empty(CpuAffinity.CpusInMask(new byte[4]));
    }

    [Fact]
    public void Workers_go_round_robin_over_the_allowed_cpus()
    {
        var allowed = new[] { 2, 5, 7 };
        Assert.Equal(new[] { 2, 5, 7, 2, 5 }, Enumerable.Range(0, 5).Select(i => CpuAffinity.ForWorker(i, allowed)));
        Assert.Equal(-1, CpuAffinity.ForWorker(0, Array.Empty<int>()));
    }

    [Theory]
    [InlineData(0, 0, 0)]
    [InlineData(63, 0, 63)]
    [InlineData(64, 1, 0)]
    [InlineData(99, 1, 35)]
    public void A_global_cpu_index_maps_onto_its_windows_processor_group(int cpu, int group, int number)
    {
        // Two groups of 64 and 36 logical processors (a 100-thread host).
        Assert.True(CpuAffinity.TryWindowsGroupCpu(cpu, new[] { 64, 36 }, out ushort g, out int n));
        Assert.Equal((ushort)group, g);
        Assert.Equal(number, n);
    }

    [Fact]
    public void A_cpu_beyond_the_last_group_is_refused()
    {
        Assert.False(CpuAffinity.TryWindowsGroupCpu(100, new[] { 64, 36 }, out _, out int n));
        Assert.Equal(-1, n);
    }

    [Fact]
    public void Pinning_a_thread_leaves_it_only_its_cpu()
    {
        if (!OperatingSystem.IsLinux()) return; // the Windows call is compiled, not run, here
        var allowed = CpuAffinity.AllowedCpus();
        Assert.NotEmpty(allowed);
        int target = allowed[^1];
        bool pinned = false;
        IReadOnlyList<int> after = Array.Empty<int>();
        // A thread of its own, so the test runner's thread keeps its placement.
        var t = new Thread(() => { pinned = CpuAffinity.TryPinCurrentThread(target); after = CpuAffinity.AllowedCpus(); });
        t.Start();
        t.Join();
        Assert.True(pinned);
        Assert.Equal(new[] { target }, after);
        Assert.False(CpuAffinity.TryPinCurrentThread(-1));
    }
}
