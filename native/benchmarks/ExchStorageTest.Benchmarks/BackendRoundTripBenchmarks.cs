using BenchmarkDotNet.Attributes;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;

namespace ExchStorageTest.Benchmarks;

/// <summary>
/// The backend's own overhead: one 4 KiB read of a small page-cached file per round trip
/// (TryQueue, Submit, Reap), so the device is out of the picture. Allocated must be 0 B.
/// </summary>
[MemoryDiagnoser]
public class BackendRoundTripBenchmarks
{
    private const int Ops = 1024;
    private IoFile _file = null!;
    private AlignedBuffer _buffer = null!;
    private IIoBackend _backend = null!;
    private string _path = "";

    [Params("sync", "io_uring", "pread-threads")]
    public string Backend { get; set; } = "sync";

    [GlobalSetup]
    public void Setup()
    {
        _path = Path.Combine("/var/tmp", "est-bench-" + Guid.NewGuid().ToString("N")[..8]);
        File.WriteAllBytes(_path, new byte[1 << 20]);
        // Buffered on purpose: the file stays in the page cache and the numbers are the backend's.
        int fd = LibC.Open(_path, LibC.O_RDWR | LibC.O_CLOEXEC, 0);
        _file = new IoFile(_path, new Microsoft.Win32.SafeHandles.SafeFileHandle(fd, true), direct: false, writeThrough: false, 4096);
        _buffer = new AlignedBuffer(4096);
        _backend = IoBackendFactory.Create(4, Backend);
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _backend.Dispose();
        _buffer.Dispose();
        _file.Dispose();
        File.Delete(_path);
    }

    [Benchmark(OperationsPerInvoke = Ops)]
    public int QueueSubmitReap()
    {
        Span<IoCompletion> done = stackalloc IoCompletion[4];
        IIoBackend b = _backend;
        var request = new IoRequest(_file.RawHandle, IoOperation.Read, 0, 4096, _buffer.Address, 1);
        int bytes = 0;
        for (int i = 0; i < Ops; i++)
        {
            b.TryQueue(request);
            b.Submit();
            int n = b.Reap(done, 1);
            bytes += n > 0 ? done[0].Result : 0;
        }
        return bytes;
    }
}

/// <summary>
/// The QD1 decision in IoBackendFactory: 4 KiB O_DIRECT random reads, one at a time, sync
/// (pread inline) vs io_uring (enter to submit, enter to wait).
/// </summary>
[MemoryDiagnoser]
public class Qd1DirectReadBenchmarks
{
    private const int Ops = 256;
    private const long FileSize = 64L << 20;
    private IoFile _file = null!;
    private AlignedBuffer _buffer = null!;
    private IIoBackend _backend = null!;
    private readonly long[] _offsets = new long[Ops];
    private string _path = "";

    [Params("sync", "io_uring")]
    public string Backend { get; set; } = "sync";

    [GlobalSetup]
    public void Setup()
    {
        _path = Path.Combine("/var/tmp", "est-bench-qd1-" + Guid.NewGuid().ToString("N")[..8]);
        using (var fs = new FileStream(_path, FileMode.CreateNew))
        {
            var chunk = new byte[1 << 20];
            new Random(1).NextBytes(chunk);
            for (long i = 0; i < FileSize; i += chunk.Length) fs.Write(chunk);
        }
        _file = IoFileOpener.Open(_path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
        _buffer = new AlignedBuffer(4096, _file.Alignment);
        _backend = IoBackendFactory.Create(1, Backend);
        var rng = new Random(7);
        for (int i = 0; i < Ops; i++) _offsets[i] = rng.NextInt64(FileSize / 4096) * 4096;
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _backend.Dispose();
        _buffer.Dispose();
        _file.Dispose();
        File.Delete(_path);
    }

    [Benchmark(OperationsPerInvoke = Ops)]
    public int RandomRead4K()
    {
        Span<IoCompletion> done = stackalloc IoCompletion[1];
        IIoBackend b = _backend;
        int bytes = 0;
        for (int i = 0; i < Ops; i++)
        {
            b.TryQueue(new IoRequest(_file.RawHandle, IoOperation.Read, _offsets[i], 4096, _buffer.Address, 1));
            b.Submit();
            b.Reap(done, 1);
            bytes += done[0].Result;
        }
        return bytes;
    }
}
