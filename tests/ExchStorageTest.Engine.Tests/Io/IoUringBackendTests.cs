using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Io;

public class IoUringBackendTests
{
    [Fact]
    public void AbiStructsHaveTheKernelSizesAndOffsets()
    {
        Assert.Equal(64, Marshal.SizeOf<IoUringSqe>());
        Assert.Equal(16, Marshal.SizeOf<IoUringCqe>());
        Assert.Equal(40, Marshal.SizeOf<IoSqRingOffsets>());
        Assert.Equal(40, Marshal.SizeOf<IoCqRingOffsets>());
        Assert.Equal(120, Marshal.SizeOf<IoUringParams>());
        Assert.Equal(40, (int)Marshal.OffsetOf<IoUringParams>(nameof(IoUringParams.SqOff)));
        Assert.Equal(80, (int)Marshal.OffsetOf<IoUringParams>(nameof(IoUringParams.CqOff)));
        Assert.Equal(24, Marshal.SizeOf<IoUringGetEventsArg>());
        Assert.Equal(16, Marshal.SizeOf<KernelTimespec>());
        Assert.Equal(16, Marshal.SizeOf<IoUringProbeHeader>());
        Assert.Equal(8, Marshal.SizeOf<IoUringProbeOp>());
        Assert.Equal(256, Marshal.SizeOf<Statx>());
        Assert.Equal(152, (int)Marshal.OffsetOf<Statx>(nameof(Statx.DioMemAlign)));
    }

    [Theory]
    [InlineData(1u, 1u)]
    [InlineData(2u, 2u)]
    [InlineData(3u, 4u)]
    [InlineData(32u, 32u)]
    [InlineData(33u, 64u)]
    public void RingEntriesRoundUpToAPowerOfTwo(uint depth, uint entries) => Assert.Equal(entries, IoUringBackend.RoundUpPow2(depth));

    [IoUringFact]
    public void NewestSetupTheKernelAcceptsIsUsed()
    {
        using IoUringBackend ring = IoUringBackend.Create(8);
        Assert.Equal("io_uring", ring.Name);
        Assert.True(ring.SqEntries >= 8);
        Assert.True(ring.CqEntries >= ring.SqEntries);
        // This project's kernels are 6.x: SINGLE_ISSUER|DEFER_TASKRUN must have been accepted, READ/WRITE probed.
        if (Environment.OSVersion.Version >= new Version(6, 1))
        {
            Assert.Equal("single-issuer+defer-taskrun", ring.SetupMode);
            Assert.False(ring.UsesVectoredOps);
        }
    }

    /// <summary>Non-blocking reaps until <paramref name="want"/> completions are in (or 10 s pass): how many came.</summary>
    private static int Poll(IoUringBackend ring, Span<IoCompletion> done, int want)
    {
        int n = 0;
        var sw = System.Diagnostics.Stopwatch.StartNew();
        while (n < want && sw.Elapsed < TimeSpan.FromSeconds(10))
        {
            n += ring.Reap(done[n..], 0, 0);
            Thread.Yield();
        }
        return n;
    }

    [IoUringFact]
    public void NonBlockingReapsCollectEveryCompletion()
    {
        // With DEFER_TASKRUN the kernel posts CQEs only when the issuer enters; Reap(min 0) must
        // notice the TASKRUN flag and flush, or a polling worker would spin forever.
        using var dir = new TestFolder("io");
        using IoFile file = IoFileOpener.Open(dir.Combine("f"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        using var buf = new AlignedBuffer(8 * 4096, file.Alignment);
        using IoUringBackend ring = IoUringBackend.Create(8);
        for (int i = 0; i < 8; i++) Assert.True(ring.TryQueue(new IoRequest(file.RawHandle, IoOperation.Write, i * 4096L, 4096, buf.Address + i * 4096, (ulong)i)));
        Assert.Equal(8, ring.Submit());
        Span<IoCompletion> done = stackalloc IoCompletion[8];
        int n = Poll(ring, done, 8);
        Assert.Equal(8, n);
        for (int i = 0; i < n; i++) Assert.Equal(4096, done[i].Result);
    }

    [IoUringFact]
    public void ReapSubmitsWhatIsQueuedBeforeItWaits()
    {
        // The worker leaves the last request of a turn queued for the reap (one io_uring_enter submits
        // and waits): a blocking reap, timed or not, and a non-blocking one must each hand it to the
        // kernel, or the worker would wait for an I/O nobody started.
        using var dir = new TestFolder("io");
        using IoFile file = IoFileOpener.Open(dir.Combine("f"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        using var buf = new AlignedBuffer(4 * 4096, file.Alignment);
        using IoUringBackend ring = IoUringBackend.Create(4);
        Assert.True(((IIoBackend)ring).SubmitsOnReap);
        var bytes = buf.Span;
        for (int i = 0; i < bytes.Length; i++) bytes[i] = (byte)(i * 7 + 3);
        Span<IoCompletion> done = stackalloc IoCompletion[4];

        Assert.True(ring.TryQueue(new IoRequest(file.RawHandle, IoOperation.Write, 0, 4096, buf.Address, 10)));
        Assert.Equal(1, ring.Reap(done, 1, 5000)); // timed wait (EXT_ARG)
        Assert.Equal(10ul, done[0].UserData);
        Assert.Equal(4096, done[0].Result);

        Assert.True(ring.TryQueue(new IoRequest(file.RawHandle, IoOperation.Write, 4096, 4096, buf.Address + 4096, 11)));
        Assert.Equal(1, ring.Reap(done, 1, -1)); // untimed wait
        Assert.Equal(11ul, done[0].UserData);
        Assert.Equal(4096, done[0].Result);

        // Non-blocking: the request goes to the kernel at once; later polls collect it.
        bytes[8192..].Clear();
        Assert.True(ring.TryQueue(new IoRequest(file.RawHandle, IoOperation.Read, 0, 8192, buf.Address + 8192, 12)));
        Assert.Equal(1, Poll(ring, done, 1));
        Assert.Equal(12ul, done[0].UserData);
        Assert.Equal(8192, done[0].Result);
        Assert.True(bytes[..8192].SequenceEqual(bytes[8192..]));
        Assert.Equal(0, ring.Reap(done, 1, 0)); // nothing queued or in flight: returns at once
    }

    [IoUringFact]
    public void RingIsBoundToTheThreadThatFirstSubmits()
    {
        using var dir = new TestFolder("io");
        using IoFile file = IoFileOpener.Open(dir.Combine("f"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        using var buf = new AlignedBuffer(4096, file.Alignment);
        using IoUringBackend ring = IoUringBackend.Create(2);
        if (ring.SetupMode != "single-issuer+defer-taskrun") return; // only SINGLE_ISSUER rings are bound
        // Created on this thread, first used on another: that thread becomes the issuer.
        var t = new Thread(() =>
        {
            ring.TryQueue(new IoRequest(file.RawHandle, IoOperation.Write, 0, 4096, buf.Address, 1));
            ring.Submit();
            Span<IoCompletion> d = stackalloc IoCompletion[1];
            ring.Reap(d, 1, 5000);
        });
        t.Start();
        t.Join();
        Assert.True(ring.TryQueue(new IoRequest(file.RawHandle, IoOperation.Write, 0, 4096, buf.Address, 2)));
        EngineException e = Assert.Throws<EngineException>(() => ring.Submit());
        Assert.Equal("IoBackendFailed", e.Code);
        Assert.Contains("EEXIST", e.Message, StringComparison.Ordinal);
    }
}
