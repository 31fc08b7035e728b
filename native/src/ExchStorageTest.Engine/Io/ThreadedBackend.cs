namespace ExchStorageTest.Engine.Io;

/// <summary>
/// The Linux fallback where io_uring is refused (old kernels, io_uring_disabled, container seccomp):
/// a private pool of helper threads, each running blocking pread/pwrite, so up to
/// <see cref="Depth"/> I/Os are really in flight at the device.
/// </summary>
/// <remarks>
/// Unlike io_uring or IOCP this adds a hand-off in both directions: the worker hands the request to a
/// engine (a lock and a wake-up), and the engine hands the completion back (another lock and a
/// wake-up). That costs CPU per I/O and adds the wake-up latency (microseconds) to every measured
/// latency, which is why the results name the backend. fio's windowsaio completion thread showed the
/// same cost (peers.md §2.2). Nothing allocates per I/O: requests and completions live in fixed
/// rings sized to the depth.
/// </remarks>
public sealed class ThreadedBackend : IIoBackend
{
    /// <summary>More helper threads than this buy nothing on one worker; depth beyond it queues.</summary>
    public const int MaxThreads = 64;

    private readonly int _depth;
    private readonly IoRequest[] _staged;   // worker-only: queued, not yet submitted
    private int _stagedCount;
    private int _outstanding;               // worker-only: submitted, not yet reaped

    private readonly object _requestLock = new();
    private readonly IoRequest[] _requests; // ring of submitted requests waiting for an engine
    private int _requestHead, _requestCount;
    private bool _stopping;

    private readonly object _doneLock = new();
    private readonly IoCompletion[] _done;  // ring of finished I/Os waiting for Reap
    private int _doneHead, _doneCount;

    private readonly Thread[] _threads;

    public ThreadedBackend(int depth, int threads = 0)
    {
        if (depth < 1) throw new ArgumentOutOfRangeException(nameof(depth));
        _depth = depth;
        _staged = new IoRequest[depth];
        _requests = new IoRequest[depth];
        _done = new IoCompletion[depth];
        int count = threads > 0 ? threads : Math.Min(depth, MaxThreads);
        _threads = new Thread[count];
        for (int i = 0; i < count; i++)
        {
            _threads[i] = new Thread(HelperLoop) { IsBackground = true, Name = "io-helper" };
            _threads[i].Start();
        }
    }

    public string Name => "pread-threads";
    public int Depth => _depth;
    public int ThreadCount => _threads.Length;

    public bool TryQueue(in IoRequest request)
    {
        if (_stagedCount + _outstanding >= _depth) return false;
        _staged[_stagedCount++] = request;
        return true;
    }

    public int Submit()
    {
        int n = _stagedCount;
        if (n == 0) return 0;
        lock (_requestLock)
        {
            for (int i = 0; i < n; i++)
            {
                _requests[(_requestHead + _requestCount) % _requests.Length] = _staged[i];
                _requestCount++;
            }
            if (n == 1) Monitor.Pulse(_requestLock);
            else Monitor.PulseAll(_requestLock);
        }
        _stagedCount = 0;
        _outstanding += n;
        return n;
    }

    public int Reap(Span<IoCompletion> completions, int minComplete, int timeoutMs = 1000)
    {
        if (completions.IsEmpty) return 0;
        int want = Math.Min(minComplete, Math.Min(completions.Length, _outstanding));
        if (want > 0 && timeoutMs != 0) SpinForCompletions(want);
        int n;
        lock (_doneLock)
        {
            if (_doneCount < want && timeoutMs != 0)
            {
                long start = Environment.TickCount64;
                while (_doneCount < want)
                {
                    int wait = Timeout.Infinite;
                    if (timeoutMs > 0)
                    {
                        wait = timeoutMs - (int)(Environment.TickCount64 - start);
                        if (wait <= 0) break;
                    }
                    Monitor.Wait(_doneLock, wait);
                }
            }
            n = Math.Min(_doneCount, completions.Length);
            for (int i = 0; i < n; i++)
            {
                completions[i] = _done[_doneHead];
                _doneHead = (_doneHead + 1) % _done.Length;
            }
            _doneCount -= n;
        }
        _outstanding -= n;
        return n;
    }

    /// <summary>
    /// Waits a few microseconds before sleeping: a completion that arrives within the spin costs no
    /// wake-up (a sleeping thread's wake-up is tens of microseconds, far more in a VM).
    /// </summary>
    private void SpinForCompletions(int want)
    {
        long until = System.Diagnostics.Stopwatch.GetTimestamp() + SpinTicks;
        while (Volatile.Read(ref _doneCount) < want && System.Diagnostics.Stopwatch.GetTimestamp() < until)
        {
            Thread.SpinWait(20);
        }
    }

    private static readonly long SpinTicks = System.Diagnostics.Stopwatch.Frequency * 50 / 1_000_000; // 50 µs

    private void HelperLoop()
    {
        while (true)
        {
            IoRequest request;
            // Likewise an engine looks for work briefly before it sleeps.
            for (int spin = 0; spin < 50 && Volatile.Read(ref _requestCount) == 0 && !_stopping; spin++) Thread.SpinWait(20);
            lock (_requestLock)
            {
                while (_requestCount == 0)
                {
                    if (_stopping) return;
                    Monitor.Wait(_requestLock);
                }
                request = _requests[_requestHead];
                _requestHead = (_requestHead + 1) % _requests.Length;
                _requestCount--;
            }
            int result = SyncBackend.Execute(request);
            lock (_doneLock)
            {
                _done[(_doneHead + _doneCount) % _done.Length] = new IoCompletion(request.UserData, result);
                _doneCount++;
                Monitor.Pulse(_doneLock);
            }
        }
    }

    /// <summary>Stops the engines after the requests already handed to them have run.</summary>
    public void Dispose()
    {
        lock (_requestLock)
        {
            _stopping = true;
            Monitor.PulseAll(_requestLock);
        }
        foreach (Thread t in _threads) t.Join();
    }
}
