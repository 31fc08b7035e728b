using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.Storage;

/// <summary>
/// Database creation with several writes in flight per file and one thread per volume: the same bytes
/// as the one-page stamp, and the guarantees of docs/files.md under a full disk and Ctrl+C.
/// </summary>
public class DatabaseCreationTests : IDisposable
{
    private readonly TestFolder _dir = new("dbcreate");

    private static PlannedInstance Instance(int index, string folder, long bytes) => new()
    {
        Index = index, DatabaseFolder = folder, DatabaseFile = Path.Combine(folder, TestPlan.DatabaseFileName(index)),
        LogFolder = Path.Combine(folder, "Logs"), DatabaseSizeBytes = bytes, LogGenerations = 1,
    };

    private static DatabaseCreation.Job Job(PlannedInstance inst) => new(inst, inst.DatabaseSizeBytes / PageFormat.PageSize, File.Exists(inst.DatabaseFile));

    [RootFact]
    public void Databases_on_two_volumes_are_created_by_one_thread_each_and_hold_exactly_the_stamped_pages()
    {
        using var a = new LoopFileSystem(_dir, sizeMiB: 128, name: "a");
        using var b = new LoopFileSystem(_dir, sizeMiB: 128, name: "b");
        var request = _dir.Request(TestType.Performance, 1, databases: 3, copies: 1); // 20 MB per database
        request.Profile.DatabasePaths = new[] { a.Combine("DB1"), b.Combine("DB2"), a.Combine("DB3") };
        request.OutputPath = _dir.Combine("Results");
        foreach (var p in request.Profile.DatabasePaths) Directory.CreateDirectory(p);
        var plan = TestPlanner.Plan(request);

        // Two volumes: two threads, each taking its volume's databases in plan order.
        var groups = DatabaseCreation.ByVolume(plan.Instances.Select(Job).ToList()).ToList();
        Assert.Equal(new[] { new[] { 0, 2 }, new[] { 1 } }, groups.Select(g => g.ToArray()));

        var prepared = DatabaseSet.Prepare(plan, EventWriter.Null, _ => { }, CancellationToken.None);
        Assert.All(prepared, p => Assert.True(p.Created));
        foreach (var p in prepared)
        {
            using var file = IoFileOpener.Open(p.Plan.DatabaseFile, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
            using var read = new AlignedBuffer(PageWriter.ChunkBytes, file.Alignment);
            var expected = new byte[PageWriter.ChunkBytes];
            var header = DatabaseSet.Inspect(p.Plan.DatabaseFile, allowBuffered: false)!;
            Assert.Equal(DatabaseState.Complete, header.State);
            Assert.Equal(p.InstanceId, header.InstanceId);
            for (long page = 1; page < header.PageCount; page += 32)
            {
                int count = (int)Math.Min(32, header.PageCount - page);
                int bytes = count * PageFormat.PageSize;
                Assert.Equal(bytes, DirectIo.Read(file, read.Slice(0, bytes), page * PageFormat.PageSize));
                for (int i = 0; i < count; i++)
                    PageFormat.Stamp(expected.AsSpan(i * PageFormat.PageSize, PageFormat.PageSize), page + i, new DatabaseContent(header.InstanceId), 1);
                Assert.True(read.Slice(0, bytes).SequenceEqual(expected.AsSpan(0, bytes)), $"{p.Plan.DatabaseFile}: pages {page}..{page + count - 1} differ from the stamp");
            }
        }
    }

    [Fact]
    public void Databases_in_one_volume_are_one_group_in_plan_order()
    {
        var jobs = new[] { 3, 1, 2 }.Select(i => Job(Instance(i, _dir.Sub($"DB{i}"), 64 * PageFormat.PageSize))).ToList();
        Assert.Equal(new[] { new[] { 0, 1, 2 } }, DatabaseCreation.ByVolume(jobs).Select(g => g.ToArray()));
    }

    [RootFact]
    public void A_full_volume_mid_creation_stops_every_volume_and_leaves_only_files_of_ours_that_the_next_run_completes()
    {
        using var small = new LoopFileSystem(_dir, sizeMiB: 32, name: "small");
        using var roomy = new LoopFileSystem(_dir, sizeMiB: 128, name: "roomy");
        var full = Instance(1, Directory.CreateDirectory(small.Combine("DB1")).FullName, 48L << 20); // more than the volume holds
        var fits = Instance(2, Directory.CreateDirectory(roomy.Combine("DB2")).FullName, 96L << 20);

        var ex = Assert.Throws<EngineException>(() => DatabaseCreation.CreateAll(new[] { Job(full), Job(fits) }, false, EventWriter.Null, _ => { }, CancellationToken.None));
        Assert.Equal("WriteFailed", ex.Code);
        Assert.Contains(full.DatabaseFile, ex.Message, StringComparison.Ordinal);
        Assert.Contains("offset", ex.Message, StringComparison.Ordinal);
        Assert.Contains("No space", ex.Message, StringComparison.OrdinalIgnoreCase);

        // The failed file is ours and says Creating; the other volume's is ours too (stopped, or done if it was quicker).
        Assert.Equal(DatabaseState.Creating, DatabaseSet.Inspect(full.DatabaseFile, allowBuffered: false)!.State);
        Assert.NotNull(DatabaseSet.Inspect(fits.DatabaseFile, allowBuffered: false));
        Assert.Empty(Directory.GetFiles(small.Mount, "*.creating", SearchOption.AllDirectories));
        Assert.Empty(Directory.GetFiles(roomy.Mount, "*.creating", SearchOption.AllDirectories));

        // With a size that fits, the same files are taken over (never refused as foreign) and completed.
        var again = Instance(1, full.DatabaseFolder, 16L << 20);
        var headers = DatabaseCreation.CreateAll(new[] { Job(again), Job(fits) }, false, EventWriter.Null, _ => { }, CancellationToken.None);
        Assert.All(headers, h => Assert.Equal(DatabaseState.Complete, h.State));
        var check = ChecksumVerifier.Verify(new[] { again.DatabaseFile, fits.DatabaseFile }, Array.Empty<string>(), EventWriter.Null, CancellationToken.None);
        Assert.Equal(0, check.BadPages);
        Assert.Equal(again.DatabaseSizeBytes / PageFormat.PageSize - 1 + fits.DatabaseSizeBytes / PageFormat.PageSize - 1, check.PagesChecked);
    }

    [Fact]
    public void Ctrl_C_during_creation_stops_cleanly_leaving_a_file_of_ours_marked_Creating()
    {
        var inst = Instance(1, _dir.Sub("DB1"), 64L << 20);
        using var cancel = new CancellationTokenSource();
        var logs = new List<string>();
        // Stopped once its space is reserved, before its pages: the moment Ctrl+C is most likely to land.
        void Log(string m) { lock (logs) logs.Add(m); if (m.Contains("space reserved", StringComparison.Ordinal) || m.Contains("fallocate", StringComparison.Ordinal)) cancel.Cancel(); }

        Assert.ThrowsAny<OperationCanceledException>(() => DatabaseCreation.CreateAll(new[] { Job(inst) }, false, EventWriter.Null, Log, cancel.Token));
        var header = DatabaseSet.Inspect(inst.DatabaseFile, allowBuffered: false)!;
        Assert.Equal(DatabaseState.Creating, header.State);
        Assert.DoesNotContain(logs, m => m.Contains("created database", StringComparison.Ordinal));
        Assert.Empty(Directory.GetFiles(inst.DatabaseFolder, "*.creating"));

        var headers = DatabaseCreation.CreateAll(new[] { Job(inst) }, false, EventWriter.Null, _ => { }, CancellationToken.None);
        Assert.Equal(DatabaseState.Complete, headers[0].State);
        Assert.NotEqual(header.InstanceId, headers[0].InstanceId);
    }

    public void Dispose() => _dir.Dispose();
}
