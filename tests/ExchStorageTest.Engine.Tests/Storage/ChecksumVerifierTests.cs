using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Storage;

public class ChecksumVerifierTests
{
    private static (string Db, string Logs) MakeSet(TestFolder folder)
    {
        var plan = TestPlanner.Plan(folder.Request(TestType.Performance, 5, databases: 1));
        var set = DatabaseSet.Prepare(plan, EventWriter.Null, _ => { }, CancellationToken.None);
        return (set[0].Plan.DatabaseFile, set[0].Plan.LogFolder);
    }

    [Fact]
    public void Flipped_byte_is_reported_with_file_and_page()
    {
        using var folder = new TestFolder("ckflip");
        var (db, logs) = MakeSet(folder);
        using (var fs = new FileStream(db, FileMode.Open, FileAccess.ReadWrite))
        {
            fs.Position = 17L * PageFormat.PageSize + 5000;
            int b = fs.ReadByte();
            fs.Position--;
            fs.WriteByte((byte)(b ^ 0xFF));
        }
        var r = ChecksumVerifier.Verify(new[] { db }, new[] { logs }, EventWriter.Null, CancellationToken.None);
        Assert.Equal(1, r.BadPages);
        Assert.Contains(r.Problems, p => p.Contains(db) && p.Contains("page 17") && p.Contains("checksum mismatch"));
        Assert.Equal(0, r.BadLogs);
    }

    [Fact]
    public void A_database_of_a_format_this_version_does_not_know_is_named_not_called_damaged_page_by_page()
    {
        using var folder = new TestFolder("ckformat");
        var (db, logs) = MakeSet(folder);
        var bytes = File.ReadAllBytes(db);
        (DatabaseHeader.TryRead(bytes)! with { FormatVersion = 7 }).Write(bytes);
        File.WriteAllBytes(db, bytes);
        var r = ChecksumVerifier.Verify(new[] { db }, new[] { logs }, EventWriter.Null, CancellationToken.None);
        Assert.Equal(1, r.BadPages);
        Assert.Equal(0, r.PagesChecked);
        Assert.Contains(r.Problems, p => p.Contains(db) && p.Contains("database format 7 is not one this version knows"));
    }

    [Fact]
    public void Misplaced_page_is_an_identity_mismatch()
    {
        using var folder = new TestFolder("ckmove");
        var (db, logs) = MakeSet(folder);
        var page = new byte[PageFormat.PageSize];
        using (var fs = new FileStream(db, FileMode.Open, FileAccess.ReadWrite))
        {
            fs.Position = 30L * PageFormat.PageSize;
            fs.ReadExactly(page);
            fs.Position = 31L * PageFormat.PageSize;
            fs.Write(page);
        }
        var r = ChecksumVerifier.Verify(new[] { db }, new[] { logs }, EventWriter.Null, CancellationToken.None);
        Assert.Equal(1, r.BadPages);
        Assert.Contains(r.Problems, p => p.Contains("expected page 31") && p.Contains("found page 30"));
    }

    [Fact]
    public void Foreign_log_file_is_a_bad_log()
    {
        using var folder = new TestFolder("cklog");
        var (db, logs) = MakeSet(folder);
        string log = Directory.GetFiles(logs, "E00*.log")[0];
        using (var fs = new FileStream(log, FileMode.Open, FileAccess.ReadWrite)) { fs.Position = 4; fs.WriteByte(0); }
        var r = ChecksumVerifier.Verify(new[] { db }, new[] { logs }, EventWriter.Null, CancellationToken.None);
        Assert.Equal(1, r.BadLogs);
        Assert.Contains(r.Problems, p => p.Contains(log));
    }

    [Theory]
    [InlineData(LogFormat.Sector + 100, "checksum mismatch in block 1")] // a record of the first block
    [InlineData(2 * LogFormat.Sector + 4, "damaged block header")]       // the second block's magic: reads as the log's end
    [InlineData(2 * LogFormat.Sector + 16, "damaged block header")]      // its generation
    public void A_damaged_log_block_fails_its_file_even_where_the_damage_looks_like_the_end_of_the_log(int damagedAt, string said)
    {
        using var folder = new TestFolder("cklogblock");
        var (db, logs) = MakeSet(folder);
        string log = Directory.GetFiles(logs, "E00*.log")[0];
        // Generation 1 of instance 0x1234: blocks of one, two and one sectors, then zeros.
        const ulong instance = 0x1234;
        var file = new byte[LogFormat.FileSize];
        LogFormat.WriteFileHeader(file, 1, instance, 1, DateTime.UtcNow);
        int at = LogFormat.FileHeaderBytes, sequence = 1;
        foreach (int sectors in new[] { 1, 2, 1 })
        {
            LogFormat.WriteBlock(file.AsSpan(at), sectors * LogFormat.Sector, sequence++, 1, instance, new[] { 7, 8 });
            at += sectors * LogFormat.Sector;
        }
        File.WriteAllBytes(log, file);
        Assert.Equal(0, ChecksumVerifier.Verify(new[] { db }, new[] { logs }, EventWriter.Null, CancellationToken.None).BadLogs);

        file[damagedAt] ^= 0xFF;
        File.WriteAllBytes(log, file);
        var r = ChecksumVerifier.Verify(new[] { db }, new[] { logs }, EventWriter.Null, CancellationToken.None);
        Assert.Equal(1, r.BadLogs);
        Assert.Contains(r.Problems, p => p.Contains(log) && p.Contains(said));
    }

    [Fact] // ours is told from foreign by either half of the evidence, so a damaged file of ours stays a failure
    public void A_file_is_ours_by_its_header_or_its_first_data_page_and_foreign_with_neither()
    {
        using var folder = new TestFolder("ckours");
        var (db, logs) = MakeSet(folder);
        var start = new byte[2 * PageFormat.PageSize];
        using (var fs = File.OpenRead(db)) fs.ReadExactly(start);
        Assert.True(DatabaseHeader.IsOurs(start));
        var noHeader = (byte[])start.Clone();
        Array.Clear(noHeader, 0, PageFormat.PageSize);
        Assert.True(DatabaseHeader.IsOurs(noHeader)); // page 1 is ours
        var noPage1 = (byte[])start.Clone();
        Array.Clear(noPage1, PageFormat.PageSize, PageFormat.PageSize);
        Assert.True(DatabaseHeader.IsOurs(noPage1)); // the header is ours
        Assert.False(DatabaseHeader.IsOurs(new byte[2 * PageFormat.PageSize]));
        Assert.False(DatabaseHeader.IsOurs(new byte[100]));
        ChecksumVerifier.RefuseForeign(new[] { db }, new[] { logs }); // ours: no refusal

        string log = Directory.GetFiles(logs, "E00*.log")[0];
        var logStart = File.ReadAllBytes(log).AsSpan(0, 2 * LogFormat.Sector).ToArray();
        Assert.True(LogFormat.IsOurs(logStart));
        logStart[4] = 0; // the magic (as Foreign_log_file_is_a_bad_log damages it): the marker text still says ours
        Assert.True(LogFormat.IsOurs(logStart));
        Assert.False(LogFormat.IsOurs(new byte[2 * LogFormat.Sector]));

        string foreign = folder.Combine("foreign.edb");
        File.WriteAllBytes(foreign, new byte[2 * PageFormat.PageSize]);
        var ex = Assert.Throws<EngineException>(() => ChecksumVerifier.RefuseForeign(new[] { db, foreign }, new[] { logs }));
        Assert.Equal("ForeignFile", ex.Code);
        Assert.True(ex.IsRefusal);
        Assert.Contains(foreign, ex.Message);
    }
}
