using System.Diagnostics;
using System.Security.Cryptography;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Creates the databases a run needs, at the speed of their volumes: the databases of different
/// volumes at the same time (one thread per volume), those sharing a volume one after another, and
/// each file written with several large unbuffered writes in flight (<see cref="PageWriter"/>). A
/// server's six databases on six LUNs take one LUN's time, not six.
/// </summary>
/// <remarks>
/// Each file keeps the guarantees of docs/files.md: its header (state Creating) is written and flushed
/// under a <c>.creating</c> name and renamed into place before any page, so a file at one of our names
/// is always recognisably ours; the header says Complete only after every page is durable. A failure
/// on one volume stops the others (their files stay Creating, re-created by the next run), and the
/// first failure is what the caller sees; Ctrl+C stops every volume after its writes in flight.
/// </remarks>
internal static class DatabaseCreation
{
    /// <summary>
    /// One database to create: its plan, its page count, whether a file of ours (incomplete, of another geometry or
    /// another data profile) is already there, and the data its pages hold.
    /// </summary>
    public sealed record Job(PlannedInstance Instance, long Pages, bool Exists, DataProfile DataProfile = default);

    /// <summary>Creates every job; returns each one's completed header, in job order.</summary>
    public static DatabaseHeader[] CreateAll(IReadOnlyList<Job> jobs, bool allowBuffered, EventWriter events, Action<string> log, CancellationToken cancel)
    {
        var headers = new DatabaseHeader[jobs.Count];
        if (jobs.Count == 0) return headers;
        long totalBytes = jobs.Sum(j => j.Pages * PageFormat.PageSize);
        long written = 0;
        Exception? failure = null;
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancel);
        var active = new string?[jobs.Count];
        var threads = new List<Thread>();
        foreach (var volume in ByVolume(jobs))
        {
            var thread = new Thread(() =>
            {
                try
                {
                    foreach (int j in volume)
                    {
                        if (stop.IsCancellationRequested) break;
                        Volatile.Write(ref active[j], jobs[j].Instance.Name);
                        headers[j] = Create(jobs[j], allowBuffered, log, bytes => Interlocked.Add(ref written, bytes), stop.Token);
                        Volatile.Write(ref active[j], null);
                        log($"{jobs[j].Instance.Name}: created database {jobs[j].Instance.DatabaseFile} ({jobs[j].Pages} pages, instance id 0x{headers[j].InstanceId:X16}; {jobs[j].DataProfile.Describe()}).");
                    }
                }
                catch (OperationCanceledException) when (stop.IsCancellationRequested)
                {
                    // Stopped by Ctrl+C or by another volume's failure: that is what the caller reports.
                }
                catch (Exception ex)
                {
                    Interlocked.CompareExchange(ref failure, ex, null);
                    stop.Cancel();
                }
            }) { IsBackground = true, Name = "db-create" };
            threads.Add(thread);
            thread.Start();
        }
        var sw = Stopwatch.StartNew();
        while (threads.Exists(t => t.IsAlive))
        {
            threads.Find(t => t.IsAlive)?.Join(500);
            long done = Interlocked.Read(ref written);
            double rate = done / Math.Max(sw.Elapsed.TotalSeconds, 0.001);
            string names = string.Join(", ", active.Where(a => a is not null));
            events.Progress("Preparing", 100.0 * done / Math.Max(totalBytes, 1), rate > 0 ? (totalBytes - done) / rate : null,
                $"Creating {(names.Length > 0 ? names : "databases")}: {done / 1048576.0:F0} of {totalBytes / 1048576.0:F0} MB ({rate / 1048576.0:F0} MB/s)");
        }
        if (failure is not null)
            throw failure is EngineException ? failure : new EngineException("CreateFailed", ErrorCategories.WriteError, $"Creating the databases failed: {failure.Message}", null, failure);
        cancel.ThrowIfCancellationRequested();
        return headers;
    }

    /// <summary>The jobs grouped by the volume their database lives on, each group in plan order.</summary>
    internal static IReadOnlyList<List<int>> ByVolume(IReadOnlyList<Job> jobs)
    {
        var groups = new Dictionary<string, List<int>>(StringComparer.Ordinal);
        var order = new List<List<int>>();
        for (int j = 0; j < jobs.Count; j++)
        {
            string volume;
            try { volume = VolumeSpace.Of(jobs[j].Instance.DatabaseFolder).VolumeId; }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException) { volume = jobs[j].Instance.DatabaseFolder; }
            if (!groups.TryGetValue(volume, out var group))
            {
                groups.Add(volume, group = new List<int>());
                order.Add(group);
            }
            group.Add(j);
        }
        return order;
    }

    /// <summary>Header first (state Creating), space reserved, every page, then the header again (state Complete), each step durable.</summary>
    private static DatabaseHeader Create(Job job, bool allowBuffered, Action<string> log, Action<long> written, CancellationToken cancel)
    {
        var inst = job.Instance;
        var header = new DatabaseHeader(DatabaseHeader.CurrentFormatVersion, PageFormat.PageSize, job.Pages, NewInstanceId(), DateTime.UtcNow, DatabaseState.Creating, inst.Index, job.DataProfile);
        // The header goes first (state Creating): from then on the file is recognisably ours.
        if (!job.Exists) DatabaseSet.CreateWithHeader(inst.DatabaseFile, PageFormat.PageSize, header.Write, allowBuffered);
        using var file = IoFileOpener.Open(inst.DatabaseFile, IoFileMode.OpenExisting, writeThrough: false, allowBuffered);
        if (job.Exists) WriteHeader(file, header);
        DirectIo.Truncate(file, header.SizeBytes);
        log($"{inst.Name}: {DirectIo.Reserve(file, header.SizeBytes)}.");
        written(PageFormat.PageSize);
        PageWriter.WriteAll(file, header, written, cancel);
        DirectIo.Flush(file);
        var complete = header with { State = DatabaseState.Complete };
        WriteHeader(file, complete);
        return complete;
    }

    /// <summary>Writes <paramref name="header"/> as page 0 and makes it durable.</summary>
    internal static void WriteHeader(IoFile file, DatabaseHeader header)
    {
        using var page = new AlignedBuffer(PageFormat.PageSize, file.Alignment);
        header.Write(page.Span);
        DirectIo.Write(file, page.Span, 0);
        DirectIo.Flush(file);
    }

    private static ulong NewInstanceId()
    {
        Span<byte> b = stackalloc byte[8];
        ulong id;
        do { RandomNumberGenerator.Fill(b); id = BitConverter.ToUInt64(b); } while (id == 0);
        return id;
    }
}
