using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Prepares the database set of a plan: create (re-using a compatible set of ours), attach, or
/// restore from a backup copy. Rules: a file is overwritten only when its header says we created
/// it; a file without our header is refused (ForeignFile) and never touched; nothing is deleted.
/// </summary>
public static class DatabaseSet
{
    public static IReadOnlyList<PreparedInstance> Prepare(TestPlan plan, EventWriter events, Action<string> log, CancellationToken cancel)
    {
        var source = plan.Request.DatabaseSource;
        bool allowBuffered = plan.Request.AllowBufferedIo;
        if (source == DatabaseSource.Restore)
        {
            log("Restoring databases ...");
            Restore(plan, events, cancel);
            source = DatabaseSource.Attach;
        }
        log(source == DatabaseSource.Attach ? "Attaching databases ..." : "Creating databases ...");
        var profile = plan.DataProfile;
        log($"Database pages: {profile.Describe()}.");
        // What each database needs, decided before anything is written: attach, re-use, or create.
        // The active databases, then their passive copies (docs/load-model.md): a passive copy is created or re-used as a
        // database is, also when the active ones are attached (its pages are the replay's, not measured data).
        var all = plan.AllDatabases().ToList();
        int actives = plan.Instances.Count;
        var headers = new DatabaseHeader[all.Count];
        var jobs = new List<DatabaseCreation.Job>();
        var jobIndex = new List<int>();
        for (int i = 0; i < all.Count; i++)
        {
            var inst = all[i];
            cancel.ThrowIfCancellationRequested();
            Directory.CreateDirectory(inst.DatabaseFolder);
            Directory.CreateDirectory(inst.LogFolder);
            long pages = inst.DatabaseSizeBytes / PageFormat.PageSize;
            if (source == DatabaseSource.Attach && i < actives)
            {
                headers[i] = Attach(inst.DatabaseFile, pages, profile);
                continue;
            }
            var existing = Inspect(inst.DatabaseFile, allowBuffered);
            // A database of ours that a run grew (inserts) is re-used as it is: larger than planned by what it grew. One
            // written with another data profile is re-created, as one of another geometry is: its pages hold other data.
            if (existing is { State: DatabaseState.Complete } h && h.PageSize == PageFormat.PageSize && h.PageCount >= pages && h.FormatVersion == DatabaseHeader.CurrentFormatVersion
                && h.DataProfile == profile && h.OtherLayout is null)
            {
                headers[i] = h;
                log($"{inst.Name}: re-using database {inst.DatabaseFile} (instance id 0x{h.InstanceId:X16}).");
                continue;
            }
            if (existing is { State: DatabaseState.Complete } old && OtherFormat(old) is { } why)
                log($"{inst.Name}: re-creating database {inst.DatabaseFile}: {why}.");
            else if (existing is { State: DatabaseState.Complete } other && other.DataProfile != profile)
                log($"{inst.Name}: re-creating database {inst.DatabaseFile}: its pages hold {other.DataProfile.Describe()}, this run asks for {profile.Describe()}.");
            else if (existing is { State: DatabaseState.Complete } stale && stale.OtherLayout is { } layout)
                log($"{inst.Name}: re-creating database {inst.DatabaseFile}: {layout}.");
            jobs.Add(new DatabaseCreation.Job(inst, pages, existing is not null || File.Exists(inst.DatabaseFile), profile));
            jobIndex.Add(i);
        }
        var created = DatabaseCreation.CreateAll(jobs, allowBuffered, events, log, cancel);
        for (int j = 0; j < jobs.Count; j++) headers[jobIndex[j]] = created[j];
        var prepared = new List<PreparedInstance>();
        for (int i = 0; i < all.Count; i++)
        {
            var inst = all[i];
            var logs = PrepareLogs(inst, headers[i], allowBuffered, out long lastGen);
            prepared.Add(new PreparedInstance { Plan = inst, Header = headers[i], LogFiles = logs, LastLogGeneration = lastGen, Created = jobIndex.Contains(i) });
        }
        var result = new List<PreparedInstance>();
        int next = actives;
        for (int i = 0; i < actives; i++)
        {
            int copies = plan.Instances[i].PassiveCopies.Count;
            result.Add(new PreparedInstance
            {
                Plan = prepared[i].Plan, Header = prepared[i].Header, LogFiles = prepared[i].LogFiles, LastLogGeneration = prepared[i].LastLogGeneration,
                Created = prepared[i].Created, PassiveCopies = prepared.GetRange(next, copies),
            });
            next += copies;
        }
        // Two databases with one instance id are copies of each other: refuse, reads could not tell them apart.
        for (int a = 0; a < result.Count; a++)
            for (int b = a + 1; b < result.Count; b++)
                if (result[a].InstanceId == result[b].InstanceId)
                    throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData,
                        $"'{result[a].Plan.DatabaseFile}' and '{result[b].Plan.DatabaseFile}' carry the same instance id 0x{result[a].InstanceId:X16}: one is a copy of the other. Re-create one of them.", result[b].Plan.DatabaseFile);
        events.Progress("Preparing", 100, 0, "Databases ready");
        return result;
    }

    /// <summary>
    /// The plan's checks of every existing file the run would touch, before anything is written:
    /// a file at one of our names must be ours (ForeignFile); Attach needs a complete database of
    /// the planned geometry (DatabaseMissing, DatabaseMismatch); Restore needs a complete backup copy.
    /// Prepare repeats them as it goes (another process may have changed the files since).
    /// </summary>
    public static void CheckBeforeWriting(TestPlan plan)
    {
        try
        {
            var source = plan.Request.DatabaseSource;
            if (source == DatabaseSource.Restore) RestoreSources(plan);
            foreach (var inst in plan.AllDatabases())
            {
                if (source == DatabaseSource.Attach && plan.Instances.Contains(inst)) Attach(inst.DatabaseFile, inst.DatabaseSizeBytes / PageFormat.PageSize, plan.DataProfile);
                else if (File.Exists(inst.DatabaseFile)) Inspect(inst.DatabaseFile, allowBuffered: true);
                for (int g = 1; g <= inst.LogGenerations; g++)
                {
                    string log = Path.Combine(inst.LogFolder, TestPlan.LogFileName(g));
                    if (File.Exists(log)) ReadLogHeader(log, allowBuffered: true);
                }
            }
        }
        catch (EngineException ex)
        {
            throw ex.AsRefusal();
        }
    }

    /// <summary>Reads the header of an existing file: null when absent; ForeignFile when it is not ours.</summary>
    public static DatabaseHeader? Inspect(string path, bool allowBuffered)
    {
        if (!File.Exists(path)) return null;
        // The length comes from the open file, not the directory entry: a symbolic link to a database
        // of ours has the length of its target, not of the link.
        using var f = IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered);
        using var buffer = new AlignedBuffer(PageFormat.PageSize, f.Alignment);
        int n = f.Length >= PageFormat.PageSize ? DirectIo.Read(f, buffer.Span, 0) : 0;
        if (n < PageFormat.PageSize || !DatabaseHeader.LooksOurs(buffer.Span))
            throw Foreign(path);
        // Ours but torn (crash while writing the header): report as incomplete so it is re-created.
        return DatabaseHeader.TryRead(buffer.Span) ?? new DatabaseHeader(0, 0, 0, 0, default, DatabaseState.Creating, 0);
    }

    /// <summary>Why a database of ours cannot be run as it is because of its format (its pages' checksum); null when it is this version's.</summary>
    private static string? OtherFormat(DatabaseHeader h) => h.FormatVersion == DatabaseHeader.CurrentFormatVersion ? null
        : $"it is of database format {h.FormatVersion}, from {(h.FormatVersion < DatabaseHeader.CurrentFormatVersion ? "an earlier" : "a later")} version of ExchStorageTest, whose page checksum this version does not write (it writes format {DatabaseHeader.CurrentFormatVersion})";

    private static EngineException Foreign(string path) => new("ForeignFile", ErrorCategories.ResourceUnavailable,
        $"'{path}' exists but was not created by ExchStorageTest (no ExchStorageTest header). It is left untouched: move it away or choose another path.", path);

    private static DatabaseHeader Attach(string path, long plannedPages, DataProfile profile)
    {
        if (!File.Exists(path))
            throw new EngineException("DatabaseMissing", ErrorCategories.ObjectNotFound, $"Cannot attach: the database '{path}' does not exist. Create the set first (DatabaseSource Create).", path);
        DatabaseHeader? h;
        try { h = Inspect(path, allowBuffered: true); }
        catch (EngineException e) when (e.Code == "ForeignFile")
        {
            throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData, $"Cannot attach '{path}': it has no ExchStorageTest header (not a database of ours).", path);
        }
        if (h is null || h.State != DatabaseState.Complete)
            throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData, $"Cannot attach '{path}': its creation never completed (the header says Creating). Re-create it.", path);
        if (OtherFormat(h) is { } why)
            throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData, $"Cannot attach '{path}': {why}. Re-create the set (DatabaseSource Create).", path);
        // Runs grow a database by their inserts, so it may hold more pages than planned, never fewer.
        if (h.PageSize != PageFormat.PageSize || h.PageCount < plannedPages)
            throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData,
                $"Cannot attach '{path}': expected at least {plannedPages} pages of {PageFormat.PageSize} bytes; found {h.PageCount} pages of {h.PageSize} bytes.", path);
        // Attaching measures the data already there: a run that asks for other data would report an assumption its pages do not hold.
        if (h.DataProfile != profile)
            throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData,
                $"Cannot attach '{path}': its pages hold {h.DataProfile.Describe()}; this run asks for {profile.Describe()}. Give CompressibilityPercent {h.DataProfile.CompressibilityPercent} and DuplicatePercent {h.DataProfile.DuplicatePercent}, or re-create the set (DatabaseSource Create).", path);
        if (h.OtherLayout is { } layout)
            throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData, $"Cannot attach '{path}': {layout}. Re-create the set (DatabaseSource Create).", path);
        long actual;
        using (var f = IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: true)) actual = f.Length;
        if (actual < h.SizeBytes)
            throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData, $"Cannot attach '{path}': the header says {h.SizeBytes} bytes but the file holds {actual}.", path);
        return h;
    }

    /// <summary>
    /// Records that a run grew the database to <paramref name="pageCount"/> pages (every page below it
    /// written and durable): the header's page count, rewritten in place and flushed.
    /// </summary>
    public static DatabaseHeader RecordGrowth(IoFile file, DatabaseHeader header, long pageCount)
    {
        var grown = header with { PageCount = pageCount };
        DirectIo.Flush(file);
        DatabaseCreation.WriteHeader(file, grown);
        return grown;
    }

    /// <summary>
    /// Creates a new file of ours at <paramref name="path"/>: its header is written and flushed under a
    /// temporary name, then renamed into place, so no file at one of our names is ever without our
    /// header (a full disk or a kill part-way leaves at most the temporary file, removed on failure).
    /// </summary>
    internal static void CreateWithHeader(string path, int bytes, SpanAction writeHeader, bool allowBuffered)
    {
        string tmp = OutputFile.TemporaryName(path, "creating");
        IoFile? file = null;
        try
        {
            file = IoFileOpener.Open(tmp, IoFileMode.CreateNew, writeThrough: false, allowBuffered);
            using (var buffer = new AlignedBuffer(bytes, file.Alignment))
            {
                buffer.Span.Clear();
                writeHeader(buffer.Span);
                DirectIo.Write(file, buffer.Span, 0);
                DirectIo.Flush(file);
            }
            file.Dispose();
            File.Move(tmp, path, overwrite: false);
        }
        catch when (file is not null)
        {
            file.Dispose();
            OutputFile.TryDelete(tmp);
            throw;
        }
    }

    internal delegate void SpanAction(Span<byte> buffer);

    /// <summary>Creates or re-uses the log generation files of one instance (ours only).</summary>
    private static IReadOnlyList<string> PrepareLogs(PlannedInstance inst, DatabaseHeader db, bool allowBuffered, out long lastGeneration)
    {
        var files = new List<string>(inst.LogGenerations);
        lastGeneration = 0;
        for (int g = 1; g <= inst.LogGenerations; g++)
        {
            string path = Path.Combine(inst.LogFolder, TestPlan.LogFileName(g));
            files.Add(path);
            void Header(Span<byte> b) => LogFormat.WriteFileHeader(b, inst.Index, db.InstanceId, 0, DateTime.UtcNow);
            if (!File.Exists(path))
            {
                CreateWithHeader(path, LogFormat.FileSize, Header, allowBuffered);
                continue;
            }
            var (h, length) = ReadLogHeader(path, allowBuffered);
            if (h is { } fh && fh.InstanceId == db.InstanceId && length >= LogFormat.FileSize)
            {
                lastGeneration = Math.Max(lastGeneration, fh.Generation);
                continue;
            }
            // Ours for another database incarnation: re-initialise it.
            using var file = IoFileOpener.Open(path, IoFileMode.OpenExisting, false, allowBuffered);
            using var buffer = new AlignedBuffer(LogFormat.FileSize, file.Alignment);
            buffer.Span.Clear();
            Header(buffer.Span);
            DirectIo.Write(file, buffer.Span, 0);
            DirectIo.Flush(file);
        }
        return files;
    }

    /// <summary>The file header of an existing log file of ours (null when torn) and its length; ForeignFile when it is not ours.</summary>
    private static (LogFormat.FileHeader? Header, long Length) ReadLogHeader(string path, bool allowBuffered)
    {
        using var f = IoFileOpener.Open(path, IoFileMode.OpenExisting, false, allowBuffered);
        if (f.Length < LogFormat.Sector) throw Foreign(path);
        using var buffer = new AlignedBuffer(LogFormat.Sector, f.Alignment);
        DirectIo.Read(f, buffer.Span, 0);
        if (!LogFormat.LooksOurs(buffer.Span)) throw Foreign(path);
        return (LogFormat.TryReadFileHeader(buffer.Span), f.Length);
    }

    /// <summary>Each database's backup copy (complete, ours) and its destination (absent or ours).</summary>
    private static List<(string From, string To, long Bytes)> RestoreSources(TestPlan plan)
    {
        string root = Path.GetFullPath(plan.Request.RestoreFromPath!);
        var pairs = new List<(string, string, long)>();
        foreach (var inst in plan.Instances)
        {
            string name = Path.GetFileName(inst.DatabaseFile);
            string from = Path.Combine(root, $"DB{inst.Index}", name);
            if (!File.Exists(from)) from = Path.Combine(root, name);
            if (!File.Exists(from))
                throw new EngineException("DatabaseMissing", ErrorCategories.ObjectNotFound, $"The backup set under '{root}' has no '{name}' (looked in '{Path.Combine(root, $"DB{inst.Index}")}' and '{root}').", from);
            var h = Inspect(from, true);
            if (h is null || h.State != DatabaseState.Complete)
                throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData, $"The backup copy '{from}' is incomplete.", from);
            // Checked before copying: a restored set of another format or other data would only be refused at attach, after the copy.
            if (OtherFormat(h) is { } why)
                throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData, $"The backup copy '{from}' cannot be restored: {why}. Take the backup again from a set this version created.", from);
            if (h.DataProfile != plan.DataProfile)
                throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData,
                    $"The backup copy '{from}' holds {h.DataProfile.Describe()}; this run asks for {plan.DataProfile.Describe()}. Give CompressibilityPercent {h.DataProfile.CompressibilityPercent} and DuplicatePercent {h.DataProfile.DuplicatePercent}.", from);
            if (h.OtherLayout is { } layout)
                throw new EngineException("DatabaseMismatch", ErrorCategories.InvalidData, $"The backup copy '{from}' cannot be restored: {layout}. Take the backup again from a set this version created.", from);
            if (File.Exists(inst.DatabaseFile)) Inspect(inst.DatabaseFile, true); // throws ForeignFile when not ours
            pairs.Add((from, inst.DatabaseFile, h.SizeBytes));
        }
        return pairs;
    }

    /// <summary>Copies a backup set of ours into place (ours-only overwrite rule applies to the destination).</summary>
    private static void Restore(TestPlan plan, EventWriter events, CancellationToken cancel)
    {
        var pairs = RestoreSources(plan);
        long total = 0, done = 0;
        foreach (var (_, _, size) in pairs) total += size;
        var sw = Stopwatch.StartNew();
        using var buffer = new AlignedBuffer(PageWriter.ChunkBytes);
        foreach (var (from, to, _) in pairs)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(to)!);
            using var src = IoFileOpener.Open(from, IoFileMode.OpenExisting, false, true);
            // Page 0 says Creating until every page is copied, so an interrupted restore is recognised as incomplete.
            DirectIo.Read(src, buffer.Slice(0, PageFormat.PageSize), 0);
            var creating = DatabaseHeader.TryRead(buffer.Slice(0, PageFormat.PageSize))! with { State = DatabaseState.Creating };
            if (!File.Exists(to)) CreateWithHeader(to, PageFormat.PageSize, creating.Write, plan.Request.AllowBufferedIo);
            using var dst = IoFileOpener.Open(to, IoFileMode.OpenExisting, false, plan.Request.AllowBufferedIo);
            long length = src.Length / PageFormat.PageSize * PageFormat.PageSize;
            DirectIo.Truncate(dst, length);
            creating.Write(buffer.Slice(0, PageFormat.PageSize));
            DirectIo.Write(dst, buffer.Slice(0, PageFormat.PageSize), 0);
            DirectIo.Flush(dst);
            for (long off = PageFormat.PageSize; off < length; off += PageWriter.ChunkBytes)
            {
                cancel.ThrowIfCancellationRequested();
                int n = (int)Math.Min(PageWriter.ChunkBytes, length - off);
                n = DirectIo.Read(src, buffer.Slice(0, n), off);
                DirectIo.Write(dst, buffer.Slice(0, n), off);
                done += n;
                events.Progress("Preparing", 100.0 * done / Math.Max(total, 1), null, $"Restoring {Path.GetFileName(to)}: {done / 1048576.0:F0} of {total / 1048576.0:F0} MB ({done / 1048576.0 / Math.Max(sw.Elapsed.TotalSeconds, 0.001):F0} MB/s)");
            }
            DirectIo.Flush(dst);
            DirectIo.Read(src, buffer.Slice(0, PageFormat.PageSize), 0);
            DirectIo.Write(dst, buffer.Slice(0, PageFormat.PageSize), 0);
            DirectIo.Flush(dst);
        }
    }
}
