using System.Collections.Concurrent;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Extends the run's database files ahead of their growth, as ESE does (<see cref="GrowthRoom"/>): the
/// first extension before the load that grows them (a run at the profile's rate grows far less than one
/// extension, so no extension write falls in its measured window), every later one on a thread
/// of its own so that no worker waits for it: the file's blocks reserved and its new length
/// (fallocate; on Windows the end of file, clusters and valid data length, <see cref="DirectIo.Reserve"/>), the new
/// pages written as zeros through a handle of its own that is not write-through, then one flush, and only
/// then is the room handed to the worker. On ext4 that is one journal commit per extension instead of one
/// per new page, and the new pages' writes are plain overwrites.
/// </summary>
/// <remarks>
/// These writes belong to no stream of the results: they are not the database's transactional I/O; the
/// device-level evidence sees them as it sees any other write. A file that cannot be extended (a full
/// volume, an I/O error) stops growing with a warning; the run goes on.
/// </remarks>
internal sealed class DatabaseExtender : IDisposable
{
    private const int ZeroBytes = 1 << 20;

    private sealed class Target(string name, string path)
    {
        public string Name { get; } = name;
        public string Path { get; } = path;
        public GrowthRoom Room { get; set; } = null!;
        public IoFile? File { get; set; }
    }

    private readonly bool _allowBuffered;
    private readonly Action<string> _warn;
    private readonly List<Target> _targets = new();
    private readonly ConcurrentQueue<Target> _asked = new();
    private readonly SemaphoreSlim _signal = new(0);
    // A flag and a wake-up, not a cancellation token: the run's end throws nothing on this thread (under Wine a
    // faulted exception dispatch can kill a thread or leave a process that says nothing).
    private volatile bool _stopping;
    private Thread? _thread;
    private AlignedBuffer? _zeros;

    public DatabaseExtender(bool allowBuffered, Action<string> warn)
    {
        _allowBuffered = allowBuffered;
        _warn = warn;
    }

    /// <summary>The growth room of one database of <paramref name="pageCount"/> pages that may grow by <paramref name="growthLimitPages"/> (no room until <see cref="Start"/>).</summary>
    public GrowthRoom Add(string name, string path, long pageCount, long growthLimitPages)
    {
        var target = new Target(name, path);
        target.Room = new GrowthRoom(pageCount, pageCount + Math.Max(0, growthLimitPages), growthLimitPages > 0 ? _ => Ask(target) : null);
        _targets.Add(target);
        return target.Room;
    }

    /// <summary>
    /// Before a load that grows the databases: each one's first extension, on the caller's thread, then the thread
    /// that makes the later ones. A run that does not grow them (tuning, a capacity search, backup, recovery) never
    /// calls it, and its files keep their length.
    /// </summary>
    public void Start()
    {
        if (_thread is not null) return;
        foreach (var t in _targets) Extend(t); // a room already at its limit (no growth this run) has none to make: Extend returns at once
        _thread = new Thread(Run) { IsBackground = true, Name = "db-extend" };
        _thread.Start();
    }

    private void Ask(Target target)
    {
        _asked.Enqueue(target);
        _signal.Release();
    }

    private void Run()
    {
        while (true)
        {
            _signal.Wait();
            if (_stopping) return;
            if (_asked.TryDequeue(out var target)) Extend(target);
        }
    }

    private void Extend(Target target)
    {
        var room = target.Room;
        long from = room.End, to = room.NextEnd();
        if (to <= from) return;
        try
        {
            var file = target.File ??= IoFileOpener.Open(target.Path, IoFileMode.OpenExisting, writeThrough: false, _allowBuffered);
            _zeros ??= new AlignedBuffer(ZeroBytes, file.Alignment);
            long end = to * PageFormat.PageSize;
            // Never back: a file an earlier run extended further keeps its length.
            DirectIo.Reserve(file, end);
            for (long offset = from * PageFormat.PageSize; offset < end; offset += ZeroBytes)
            {
                if (_stopping) return; // the run's end: the room stays where it was, the part written is cut off with the rest
                DirectIo.Write(file, _zeros.Span.Slice(0, (int)Math.Min(ZeroBytes, end - offset)), offset);
            }
            DirectIo.Flush(file);
            room.Extended(to);
        }
        catch (Exception ex) when (ex is EngineException or IOException or UnauthorizedAccessException)
        {
            room.Failed(ex.Message);
            _warn($"{target.Name}: its database file could not be extended from {from} to {to} pages ({ex.Message}); it grows no further this run.");
        }
    }

    /// <summary>Stops extending (the run's end; idempotent): no extension is in progress once it returns, unless one is stuck on its device.</summary>
    public void Dispose()
    {
        if (_stopping) return;
        _stopping = true;
        _signal.Release();
        // An extension stuck on a frozen device must not hold the run's end: its thread is a background one.
        if (_thread is not null && !_thread.Join(TimeSpan.FromSeconds(10))) return;
        foreach (var t in _targets) t.File?.Dispose();
        _zeros?.Dispose();
    }
}
