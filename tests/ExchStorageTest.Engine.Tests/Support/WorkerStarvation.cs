using System.Globalization;
using System.Runtime.InteropServices;
using System.Text;
using ExchStorageTest.Engine.Load;

namespace ExchStorageTest.Engine.Tests;

/// <summary>
/// A starved host, made on purpose and the same every time (the HostLimited rig): while <see cref="Active"/>,
/// every engine I/O worker thread of this process (named <c>io-worker-N</c>) is moved to SCHED_IDLE and pinned to one
/// CPU, where threads of this test spin at normal priority. The scheduler then gives the workers about 0.3% of that
/// CPU (SCHED_IDLE's weight 3 against 1024 per spinner) and never lets them preempt a spinner on wake-up, so they
/// cannot keep up with any real load however fast the storage is. Only worker threads are touched, so the engine's
/// preparation and sampler run at full speed; use it only in a class of <see cref="MeasurementCollection"/> (no other
/// test's workers run beside it). Linux only.
/// </summary>
internal sealed class WorkerStarvation : IDisposable
{
    private const int SchedOther = 0, SchedIdle = 5;
    private readonly int _cpu;
    private readonly ulong _allMask;
    private readonly List<Thread> _threads = new();
    private readonly HashSet<int> _starved = new();
    private volatile bool _active, _disposed;

    [DllImport("libc", SetLastError = true)]
    private static extern int sched_setaffinity(int pid, nint size, ref ulong mask);

    [DllImport("libc", SetLastError = true)]
    private static extern int sched_setscheduler(int pid, int policy, ref int priority);

    public WorkerStarvation(int spinners = 2)
    {
        var cpus = CpuAffinity.AllowedCpus();
        _cpu = cpus.Count > 0 ? cpus[^1] : 0;
        foreach (int c in cpus) if (c < 64) _allMask |= 1UL << c;
        if (_allMask == 0) _allMask = ulong.MaxValue;
        for (int i = 0; i < spinners; i++) Start(Spin, $"starve-spin-{i}");
        Start(Watch, "starve-watch");
    }

    /// <summary>The CPU the workers are confined to while starved.</summary>
    public int Cpu => _cpu;

    /// <summary>True while the workers are starved; false gives them their CPUs and scheduling back.</summary>
    public bool Active
    {
        get => _active;
        set => _active = value;
    }

    /// <summary>How many worker threads were starved at least once.</summary>
    public int WorkersStarved { get { lock (_starved) return _starved.Count; } }

    private void Start(ThreadStart body, string name)
    {
        var t = new Thread(body) { IsBackground = true, Name = name };
        _threads.Add(t);
        t.Start();
    }

    private void Spin()
    {
        ulong mask = 1UL << _cpu;
        sched_setaffinity((int)ThreadCpu.CurrentId(), sizeof(ulong), ref mask);
        long n = 0;
        while (!_disposed)
        {
            if (!_active) { Thread.Sleep(5); continue; }
            for (int i = 0; i < 100_000; i++) n++;
        }
        GC.KeepAlive(n);
    }

    /// <summary>Applies the state to the workers every few milliseconds: a worker re-pins itself when it starts.</summary>
    private void Watch()
    {
        bool wasActive = false;
        while (!_disposed)
        {
            bool active = _active;
            if (active || wasActive)
            {
                foreach (int tid in Workers())
                {
                    if (active) Starve(tid);
                    else Release(tid);
                }
            }
            wasActive = active;
            Thread.Sleep(active ? 5 : 20);
        }
    }

    private void Starve(int tid)
    {
        ulong mask = 1UL << _cpu;
        int none = 0;
        bool pinned = sched_setaffinity(tid, sizeof(ulong), ref mask) == 0;
        bool idle = sched_setscheduler(tid, SchedIdle, ref none) == 0;
        if (pinned && idle) lock (_starved) _starved.Add(tid);
    }

    private void Release(int tid)
    {
        ulong mask = _allMask;
        int none = 0;
        sched_setscheduler(tid, SchedOther, ref none);
        sched_setaffinity(tid, sizeof(ulong), ref mask);
    }

    private static List<int> Workers()
    {
        var found = new List<int>();
        foreach (var dir in Directory.EnumerateDirectories("/proc/self/task"))
        {
            try
            {
                if (File.ReadAllText(Path.Combine(dir, "comm")).StartsWith("io-worker-", StringComparison.Ordinal))
                    found.Add(int.Parse(Path.GetFileName(dir), CultureInfo.InvariantCulture));
            }
            catch (IOException) { } // the thread ended while we looked
        }
        return found;
    }

    public void Dispose()
    {
        _active = false;
        Thread.Sleep(50); // the watcher releases whatever it starved
        _disposed = true;
        foreach (var t in _threads) t.Join();
    }
}

/// <summary>
/// The engine's event stream as a test reads it: each JSON line is handed to <see cref="OnLine"/> as it is written, so
/// a test can act at a point of the run (a log line) without a timer.
/// </summary>
internal sealed class EventLines : Stream
{
    private readonly StringBuilder _pending = new();
    public required Action<string> OnLine { get; init; }

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        lock (_pending)
        {
            _pending.Append(Encoding.UTF8.GetString(buffer));
            int end;
            while ((end = _pending.ToString().IndexOf('\n')) >= 0)
            {
                string line = _pending.ToString(0, end);
                _pending.Remove(0, end + 1);
                OnLine(line);
            }
        }
    }

    public override bool CanRead => false;
    public override bool CanSeek => false;
    public override bool CanWrite => true;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
    public override void Flush() { }
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
}
