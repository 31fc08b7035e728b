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
}
