using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Storage;

public class DatabaseSetTests
{
    private static IReadOnlyList<PreparedInstance> Prepare(EngineRequest req) =>
        DatabaseSet.Prepare(TestPlanner.Plan(req), EventWriter.Null, _ => { }, CancellationToken.None);

    [Fact]
    public void Creates_a_verifiable_set_then_reuses_it()
    {
        using var folder = new TestFolder("dbset");
        var req = folder.Request(TestType.Performance, 5);
        var first = Prepare(req);
        Assert.All(first, p => Assert.True(p.Created));
        Assert.NotEqual(first[0].InstanceId, first[1].InstanceId);
        var check = ChecksumVerifier.Verify(first.Select(p => p.Plan.DatabaseFile), first.Select(p => p.Plan.LogFolder), EventWriter.Null, CancellationToken.None);
        Assert.Equal(0, check.BadPages);
        Assert.Equal(0, check.BadLogs);
        Assert.Equal(2 * 639, check.PagesChecked);
        var second = Prepare(req);
        Assert.All(second, p => Assert.False(p.Created));
        Assert.Equal(first[0].InstanceId, second[0].InstanceId);
    }

    [Fact]
    public void Refuses_a_foreign_file_and_leaves_it_untouched()
    {
        using var folder = new TestFolder("foreign");
        var req = folder.Request(TestType.Performance, 5);
        var plan = TestPlanner.Plan(req);
        Directory.CreateDirectory(plan.Instances[0].DatabaseFolder);
        var bytes = new byte[100_000];
        new Random(1).NextBytes(bytes);
        File.WriteAllBytes(plan.Instances[0].DatabaseFile, bytes);
        var ex = Assert.Throws<EngineException>(() => Prepare(req));
        Assert.Equal("ForeignFile", ex.Code);
        Assert.Equal(plan.Instances[0].DatabaseFile, ex.Target);
        Assert.Equal(bytes, File.ReadAllBytes(plan.Instances[0].DatabaseFile));
    }

    [Fact]
    public void Refuses_a_foreign_log_file()
    {
        using var folder = new TestFolder("foreignlog");
        var req = folder.Request(TestType.Performance, 5);
        var plan = TestPlanner.Plan(req);
        Directory.CreateDirectory(plan.Instances[0].LogFolder);
        string log = Path.Combine(plan.Instances[0].LogFolder, TestPlan.LogFileName(1));
        File.WriteAllText(log, "someone else's log");
        var ex = Assert.Throws<EngineException>(() => Prepare(req));
        Assert.Equal("ForeignFile", ex.Code);
        Assert.Equal("someone else's log", File.ReadAllText(log));
    }

    [Fact]
    public void Half_created_database_of_ours_is_recreated()
    {
        using var folder = new TestFolder("half");
        var req = folder.Request(TestType.Performance, 5);
        var first = Prepare(req);
        // Simulate a crash during creation: header back to Creating.
        string path = first[0].Plan.DatabaseFile;
        var page = File.ReadAllBytes(path).AsSpan(0, PageFormat.PageSize).ToArray();
        (DatabaseHeader.TryRead(page)! with { State = DatabaseState.Creating }).Write(page);
        using (var fs = new FileStream(path, FileMode.Open, FileAccess.Write)) fs.Write(page);
        var attach = req;
        attach.DatabaseSource = DatabaseSource.Attach;
        Assert.Equal("DatabaseMismatch", Assert.Throws<EngineException>(() => Prepare(attach)).Code);
        attach.DatabaseSource = DatabaseSource.Create;
        var again = Prepare(attach);
        Assert.True(again[0].Created);
        Assert.False(again[1].Created);
        Assert.NotEqual(first[0].InstanceId, again[0].InstanceId);
    }

    [Fact]
    public void Attach_validates_presence_and_geometry()
    {
        using var folder = new TestFolder("attach");
        var req = folder.Request(TestType.Performance, 5);
        req.DatabaseSource = DatabaseSource.Attach;
        Assert.Equal("DatabaseMissing", Assert.Throws<EngineException>(() => Prepare(req)).Code);
        req.DatabaseSource = DatabaseSource.Create;
        Prepare(req);
        req.DatabaseSource = DatabaseSource.Attach;
        Assert.Equal(2, Prepare(req).Count);
        req.Profile.MailboxCount = 80; // twice the size: geometry no longer matches
        var ex = Assert.Throws<EngineException>(() => Prepare(req));
        Assert.Equal("DatabaseMismatch", ex.Code);
        Assert.Contains("1280 pages", ex.Message);
    }

    [Fact]
    public void Copied_database_is_refused_on_attach()
    {
        using var folder = new TestFolder("copy");
        var req = folder.Request(TestType.Performance, 5);
        var set = Prepare(req);
        File.Copy(set[0].Plan.DatabaseFile, set[1].Plan.DatabaseFile, overwrite: true);
        req.DatabaseSource = DatabaseSource.Attach;
        Assert.Equal("DatabaseMismatch", Assert.Throws<EngineException>(() => Prepare(req)).Code);
    }

    [Fact]
    public void Restore_copies_a_backup_set_into_place()
    {
        using var folder = new TestFolder("restore");
        var req = folder.Request(TestType.Performance, 5);
        var set = Prepare(req);
        string backup = folder.Sub("Backup");
        foreach (var p in set) File.Copy(p.Plan.DatabaseFile, Path.Combine(backup, Path.GetFileName(p.Plan.DatabaseFile)));
        var req2 = folder.Request(TestType.Performance, 5);
        req2.Profile.DatabasePaths = new[] { folder.Sub("Db2") };
        req2.DatabaseSource = DatabaseSource.Restore;
        req2.RestoreFromPath = backup;
        var restored = Prepare(req2);
        Assert.Equal(set[0].InstanceId, restored[0].InstanceId);
        var check = ChecksumVerifier.Verify(restored.Select(p => p.Plan.DatabaseFile), Array.Empty<string>(), EventWriter.Null, CancellationToken.None);
        Assert.Equal(0, check.BadPages);
    }

    /// <summary>Rewrites a database of ours as a format 1 database had it: that version in its header, a CRC32C on each page.</summary>
    internal static void MakeFormat1(string path)
    {
        var bytes = File.ReadAllBytes(path);
        var header = DatabaseHeader.TryRead(bytes)!;
        (header with { FormatVersion = 1 }).Write(bytes);
        for (long page = 1; page < header.PageCount; page++)
        {
            var span = bytes.AsSpan((int)(page * PageFormat.PageSize), PageFormat.PageSize);
            System.Buffers.Binary.BinaryPrimitives.WriteUInt32LittleEndian(span, Crc32C.Compute(span.Slice(4)));
        }
        File.WriteAllBytes(path, bytes);
    }

    [Fact]
    public void A_database_of_an_earlier_format_is_re_created_refused_on_attach_and_not_restored()
    {
        using var folder = new TestFolder("format1");
        var req = folder.Request(TestType.Performance, 5);
        var set = Prepare(req);
        string old = set[0].Plan.DatabaseFile;
        MakeFormat1(old);
        var stamp = File.GetLastWriteTimeUtc(old);
        // Its pages still verify, by the checksum they carry.
        Assert.Equal(0, ChecksumVerifier.Verify(new[] { old }, Array.Empty<string>(), EventWriter.Null, CancellationToken.None).BadPages);

        string backup = folder.Sub("Backup");
        File.Copy(old, Path.Combine(backup, Path.GetFileName(old)));
        File.Copy(set[1].Plan.DatabaseFile, Path.Combine(backup, Path.GetFileName(set[1].Plan.DatabaseFile)));
        var restore = folder.Request(TestType.Performance, 5);
        restore.Profile.DatabasePaths = new[] { folder.Sub("Db2") };
        restore.DatabaseSource = DatabaseSource.Restore;
        restore.RestoreFromPath = backup;
        var refused = Assert.Throws<EngineException>(() => Prepare(restore));
        Assert.Equal("DatabaseMismatch", refused.Code);
        Assert.Contains("database format 1", refused.Message);
        Assert.Empty(Directory.GetFiles(folder.Sub("Db2"), "*", SearchOption.AllDirectories)); // refused before copying

        req.DatabaseSource = DatabaseSource.Attach;
        var ex = Assert.Throws<EngineException>(() => Prepare(req));
        Assert.Equal("DatabaseMismatch", ex.Code);
        Assert.Contains($"database format 1, from an earlier version", ex.Message);
        Assert.Contains("Re-create the set (DatabaseSource Create)", ex.Message);
        Assert.Equal(stamp, File.GetLastWriteTimeUtc(old));

        req.DatabaseSource = DatabaseSource.Create;
        var lines = new List<string>();
        var again = DatabaseSet.Prepare(TestPlanner.Plan(req), EventWriter.Null, lines.Add, CancellationToken.None);
        Assert.True(again[0].Created);
        Assert.False(again[1].Created);
        Assert.Contains(lines, l => l.Contains("re-creating database") && l.Contains("database format 1"));
        Assert.Equal(DatabaseHeader.CurrentFormatVersion, again[0].Header.FormatVersion);
    }
}
