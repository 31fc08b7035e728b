using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;

namespace ExchStorageTest.Engine.Tests.Io;

public class BackendReadWriteTests
{
    public static TheoryData<string, int> BackendsAndDepths()
    {
        var data = new TheoryData<string, int>();
        foreach (string backend in new[] { IoBackendFactory.IoUring, IoBackendFactory.PreadThreads, IoBackendFactory.Sync })
        {
            if (backend == IoBackendFactory.IoUring && Prerequisites.NoIoUring is not null) continue;
            foreach (int depth in new[] { 1, 8, 32 }) data.Add(backend, depth);
        }
        return data;
    }

    public static TheoryData<string> Backends()
    {
        var data = new TheoryData<string>();
        foreach (string backend in new[] { IoBackendFactory.IoUring, IoBackendFactory.PreadThreads, IoBackendFactory.Sync })
        {
            if (backend == IoBackendFactory.IoUring && Prerequisites.NoIoUring is not null) continue;
            data.Add(backend);
        }
        return data;
    }

    [LinuxTheory]
    [MemberData(nameof(BackendsAndDepths))]
    public void ReadsBackWhatItWroteWithDirectIo(string backendName, int depth)
    {
        using var dir = new TestFolder("io");
        const int block = 32 * 1024; // an Exchange database page
        int count = depth * 4 + 3;   // several rounds of full queues plus a ragged tail
        using IoFile file = IoFileOpener.Open(dir.Combine("db.edb"), IoFileMode.CreateNew, writeThrough: true, allowBuffered: false);
        Assert.True(file.Direct);
        using var written = new AlignedBuffer(count * block, file.Alignment);
        using var read = new AlignedBuffer(count * block, file.Alignment);
        for (int i = 0; i < count; i++) BackendDriver.Fill(written.Slice(i * block, block), i, depth);

        using (IIoBackend backend = IoBackendFactory.Create(depth, backendName))
        {
            Assert.Equal(backendName, backend.Name);
            Assert.Equal(depth, backend.Depth);
            int[] w = BackendDriver.RunAll(backend, file, IoOperation.Write, written, count, block);
            Assert.All(w, r => Assert.Equal(block, r));
            int[] r = BackendDriver.RunAll(backend, file, IoOperation.Read, read, count, block);
            Assert.All(r, x => Assert.Equal(block, x));
        }
        Assert.Equal(count * (long)block, file.Length);
        for (int i = 0; i < count; i++)
        {
            Assert.True(written.Slice(i * block, block).SequenceEqual(read.Slice(i * block, block)), $"block {i} differs");
        }
    }

    [LinuxTheory]
    [MemberData(nameof(Backends))]
    public void BackendRefusesMoreThanDepthAndHandsBackUserData(string backendName)
    {
        using var dir = new TestFolder("io");
        using IoFile file = IoFileOpener.Open(dir.Combine("f"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        using var buf = new AlignedBuffer(4 * 4096, file.Alignment);
        using IIoBackend backend = IoBackendFactory.Create(4, backendName);
        for (int i = 0; i < 4; i++)
            Assert.True(backend.TryQueue(new IoRequest(file.RawHandle, IoOperation.Write, i * 4096L, 4096, buf.Address + i * 4096, 1000UL + (ulong)i)));
        Assert.False(backend.TryQueue(new IoRequest(file.RawHandle, IoOperation.Write, 0, 4096, buf.Address, 99)));
        Assert.Equal(4, backend.Submit());
        Span<IoCompletion> done = stackalloc IoCompletion[8];
        int n = 0;
        while (n < 4) n += backend.Reap(done[n..], 4 - n, 5000);
        var seen = new HashSet<ulong>();
        for (int i = 0; i < n; i++)
        {
            Assert.Equal(4096, done[i].Result);
            seen.Add(done[i].UserData);
        }
        Assert.Equal(new HashSet<ulong> { 1000, 1001, 1002, 1003 }, seen);
        // Reaped slots are free again.
        Assert.True(backend.TryQueue(new IoRequest(file.RawHandle, IoOperation.Read, 0, 4096, buf.Address, 5)));
        Assert.Equal(1, backend.Submit());
        Assert.Equal(1, backend.Reap(done, 1, 5000));
        Assert.Equal(5UL, done[0].UserData);
    }

    [LinuxTheory]
    [MemberData(nameof(Backends))]
    public void UnalignedRequestIsRefusedByTheKernelWithEinval(string backendName)
    {
        using var dir = new TestFolder("io");
        using IoFile file = IoFileOpener.Open(dir.Combine("f"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        Assert.True(file.Direct);
        using var buf = new AlignedBuffer(4 * 4096, file.Alignment);
        using IIoBackend backend = IoBackendFactory.Create(4, backendName);
        // Give the file content first: a read wholly past EOF returns 0 before any alignment check.
        int[] prefill = BackendDriver.RunAll(backend, file, IoOperation.Write, buf, 4, 4096);
        Assert.All(prefill, r => Assert.Equal(4096, r));
        // Offset 100 is not a multiple of any logical block size; the kernel's O_DIRECT check refuses it.
        Assert.True(backend.TryQueue(new IoRequest(file.RawHandle, IoOperation.Write, 100, 4096, buf.Address, 1)));
        Assert.True(backend.TryQueue(new IoRequest(file.RawHandle, IoOperation.Read, 100, 4096, buf.Address + 8192, 2)));
        Assert.True(backend.TryQueue(new IoRequest(file.RawHandle, IoOperation.Read, 512 + 100, 512, buf.Address + 4096, 3)));
        backend.Submit();
        Span<IoCompletion> done = stackalloc IoCompletion[4];
        int n = 0;
        while (n < 3) n += backend.Reap(done[n..], 3 - n, 5000);
        for (int i = 0; i < n; i++) Assert.Equal(-LibC.EINVAL, done[i].Result);
    }

    [LinuxTheory]
    [MemberData(nameof(Backends))]
    public void ReadPastEndOfFileReturnsZeroBytes(string backendName)
    {
        using var dir = new TestFolder("io");
        using IoFile file = IoFileOpener.Open(dir.Combine("f"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        using var buf = new AlignedBuffer(4096, file.Alignment);
        using IIoBackend backend = IoBackendFactory.Create(2, backendName);
        Assert.True(backend.TryQueue(new IoRequest(file.RawHandle, IoOperation.Read, 1 << 20, 4096, buf.Address, 7)));
        backend.Submit();
        Span<IoCompletion> done = stackalloc IoCompletion[2];
        Assert.Equal(1, backend.Reap(done, 1, 5000));
        Assert.Equal(0, done[0].Result);
    }

    [LinuxTheory]
    [MemberData(nameof(Backends))]
    public void BlockingReapWithNothingInFlightReturnsAtOnce(string backendName)
    {
        using IIoBackend backend = IoBackendFactory.Create(4, backendName);
        Span<IoCompletion> done = stackalloc IoCompletion[4];
        var sw = System.Diagnostics.Stopwatch.StartNew();
        Assert.Equal(0, backend.Reap(done, 4, 10_000));
        Assert.True(sw.Elapsed < TimeSpan.FromSeconds(5), "Reap waited for I/O that was never submitted.");
    }
}
