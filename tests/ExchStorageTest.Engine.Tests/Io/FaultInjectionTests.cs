using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;

namespace ExchStorageTest.Engine.Tests.Io;

/// <summary>Real device errors reach the caller as -errno completions through every backend.</summary>
public class FaultInjectionTests
{
    public static TheoryData<string> Backends() => BackendReadWriteTests.Backends();

    [RootTheory]
    [MemberData(nameof(Backends))]
    public void FullFileSystemCompletesWritesWithEnospc(string backendName)
    {
        using var dir = new TestFolder("io");
        using var fs = new LoopFileSystem(dir, sizeMiB: 8);
        using IoFile file = IoFileOpener.Open(fs.Combine("fill.edb"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        Assert.True(file.Direct);
        const int block = 64 * 1024;
        int count = (16 << 20) / block; // twice the file system: it must fill up
        using var buf = new AlignedBuffer(count * block, file.Alignment);
        using IIoBackend backend = IoBackendFactory.Create(8, backendName);
        int[] results = BackendDriver.RunAll(backend, file, IoOperation.Write, buf, count, block);
        int enospc = 0;
        foreach (int r in results)
        {
            Assert.True(r == block || r < 0 || r < block, $"unexpected result {r}");
            if (r < 0)
            {
                Assert.Equal(-LibC.ENOSPC, r);
                Assert.True(IoErrors.IsOutOfSpace(-r));
                enospc++;
            }
        }
        Assert.True(enospc > 0, "No write failed with ENOSPC on a full 8 MiB file system.");
    }

    [NbdkitTheory]
    [MemberData(nameof(Backends))]
    public void DeviceErrorsCompleteWithEio(string backendName)
    {
        using var dir = new TestFolder("io");
        // nbdkit's error filter fails every request with EIO; nbdfuse exposes the NBD export as a file.
        using var nbd = new NbdFuseDisk(dir, "--filter=error", "memory", "16M", "error-rate=100%", "error=EIO");
        using IoFile file = IoFileOpener.Open(nbd.FilePath, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
        using var buf = new AlignedBuffer(8 * 4096, file.Alignment);
        using IIoBackend backend = IoBackendFactory.Create(4, backendName);
        int[] reads = BackendDriver.RunAll(backend, file, IoOperation.Read, buf, 4, 4096);
        Assert.All(reads, r => Assert.Equal(-LibC.EIO, r));
        int[] writes = BackendDriver.RunAll(backend, file, IoOperation.Write, buf, 4, 4096, baseOffset: 1 << 20);
        Assert.All(writes, r => Assert.Equal(-LibC.EIO, r));
    }

    [NbdkitTheory]
    [InlineData("io_uring")]
    [InlineData("pread-threads")]
    public void BlockingReapGivesUpAtTheTimeoutAndTheIoStillCompletes(string backendName)
    {
        if (backendName == "io_uring" && Prerequisites.NoIoUring is not null) return;
        using var dir = new TestFolder("io");
        // Every read takes 2 s (nbdkit's delay filter): a 200 ms reap must come back empty-handed.
        using var nbd = new NbdFuseDisk(dir, "--filter=delay", "memory", "16M", "rdelay=2");
        using IoFile file = IoFileOpener.Open(nbd.FilePath, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
        using var buf = new AlignedBuffer(4096, file.Alignment);
        using IIoBackend backend = IoBackendFactory.Create(2, backendName);
        Assert.True(backend.TryQueue(new IoRequest(file.RawHandle, IoOperation.Read, 0, 4096, buf.Address, 9)));
        Assert.Equal(1, backend.Submit());
        Span<IoCompletion> done = stackalloc IoCompletion[2];
        var sw = Stopwatch.StartNew();
        Assert.Equal(0, backend.Reap(done, 1, 200));
        Assert.True(sw.Elapsed < TimeSpan.FromMilliseconds(1500), $"Reap(timeout 200 ms) took {sw.ElapsedMilliseconds} ms.");
        Assert.Equal(1, backend.Reap(done, 1, 10_000));
        Assert.Equal(9UL, done[0].UserData);
        Assert.Equal(4096, done[0].Result);
    }
}
