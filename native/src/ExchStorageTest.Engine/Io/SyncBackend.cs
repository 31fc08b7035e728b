using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Io.Linux;

namespace ExchStorageTest.Engine.Io;

/// <summary>
/// The QD1 fast path and the last-resort fallback: each submitted request is executed inline with
/// pread/pwrite on the worker's own thread. No queue hand-off, so QD1 latency is the syscall's.
/// </summary>
public sealed unsafe class SyncBackend : IIoBackend
{
    private readonly IoRequest[] _queued;
    private readonly IoCompletion[] _done;
    private int _queuedCount;
    private int _doneCount;

    public SyncBackend(int depth)
    {
        if (depth < 1) throw new ArgumentOutOfRangeException(nameof(depth));
        _queued = new IoRequest[depth];
        _done = new IoCompletion[depth];
    }

    public string Name => "sync";
    public bool CompletesOnSubmit => true;
    public int Depth => _queued.Length;

    public bool TryQueue(in IoRequest request)
    {
        if (_queuedCount + _doneCount >= _queued.Length) return false;
        _queued[_queuedCount++] = request;
        return true;
    }

    public int Submit()
    {
        int n = _queuedCount;
        for (int i = 0; i < n; i++)
        {
            ref readonly IoRequest r = ref _queued[i];
            _done[_doneCount++] = new IoCompletion(r.UserData, Execute(r));
        }
        _queuedCount = 0;
        return n;
    }

    public int Reap(Span<IoCompletion> completions, int minComplete, int timeoutMs = 1000)
    {
        int n = Math.Min(_doneCount, completions.Length);
        _done.AsSpan(0, n).CopyTo(completions);
        if (n < _doneCount) _done.AsSpan(n, _doneCount - n).CopyTo(_done);
        _doneCount -= n;
        return n;
    }

    /// <summary>One synchronous I/O; bytes transferred or -errno (short transfers are retried).</summary>
    internal static int Execute(in IoRequest r)
    {
        int fd = (int)r.FileHandle;
        int total = 0;
        while (total < r.Length)
        {
            void* p = (byte*)r.Buffer + total;
            nuint count = (nuint)(r.Length - total);
            nint n = r.Operation == IoOperation.Read
                ? LibC.PRead(fd, p, count, r.Offset + total)
                : LibC.PWrite(fd, p, count, r.Offset + total);
            if (n < 0)
            {
                int errno = Marshal.GetLastPInvokeError();
                if (errno == LibC.EINTR) continue;
                return -errno;
            }
            if (n == 0) break; // end of file: report the short count
            total += (int)n;
        }
        return total;
    }

    public void Dispose() { }
}
