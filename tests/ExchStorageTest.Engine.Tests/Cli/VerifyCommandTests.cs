using System.Text.Json;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Cli;

/// <summary>Test-DatabaseChecksum's engine side: a clean set passes; a damaged page is named with its file and page.</summary>
public class VerifyCommandTests : IDisposable
{
    private readonly TestFolder _dir = new("verify");

    [Fact]
    public void A_damaged_page_fails_only_its_file_and_is_named()
    {
        var plan = TestPlanner.Plan(_dir.Request(TestType.Performance, 1, databases: 2, copies: 1));
        DatabaseSet.Prepare(plan, EventWriter.Null, _ => { }, CancellationToken.None);
        string request = "{\"protocol\":1,\"command\":\"verify\",\"paths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}";

        var (exit, events) = ProcessProtocolTests.RunEngine(request);
        Assert.Equal(0, exit);
        var clean = events.Single(e => e.GetProperty("type").GetString() == "verify");
        Assert.Equal("Pass", clean.GetProperty("result").GetString());
        Assert.True(clean.GetProperty("pagesChecked").GetInt64() > 100);

        string db1 = plan.Instances[0].DatabaseFile;
        using (var fs = new FileStream(db1, FileMode.Open, FileAccess.Write))
        {
            fs.Position = 5L * TestPlan.PageSize + 1000; // inside page 5's content
            fs.WriteByte(0x5A);
            fs.WriteByte(0xA5);
        }
        (exit, events) = ProcessProtocolTests.RunEngine(request);
        Assert.Equal(0, exit);
        var damaged = events.Single(e => e.GetProperty("type").GetString() == "verify");
        Assert.Equal("Fail", damaged.GetProperty("result").GetString());
        Assert.Equal(1, damaged.GetProperty("badPages").GetInt64());
        var files = damaged.GetProperty("files").EnumerateArray().ToList();
        var bad = files.Single(f => f.GetProperty("result").GetString() == "Fail");
        Assert.Equal(db1, bad.GetProperty("path").GetString());
        Assert.Contains("page 5", bad.GetProperty("message").GetString());
        Assert.All(files.Where(f => f.GetProperty("path").GetString() != db1), f => Assert.Equal("Pass", f.GetProperty("result").GetString()));
    }

    [Fact]
    public void A_missing_path_is_refused()
    {
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"verify\",\"paths\":[" + JsonSerializer.Serialize(_dir.Combine("none")) + "]}");
        Assert.Equal(2, exit); // a refusal, as every refusal of every command
        Assert.Equal("PathNotFound", events.Last().GetProperty("code").GetString());
    }

    [Theory] // a file that is not ours is not a corrupt database
    [InlineData("text")]
    [InlineData("zeros")]
    [InlineData("random")]
    [InlineData("empty")]
    public void A_file_that_is_not_ours_is_refused_as_foreign_not_failed(string content)
    {
        string path = _dir.Combine("Mailbox Database 01.edb");
        byte[] bytes = content switch
        {
            "text" => System.Text.Encoding.UTF8.GetBytes("Not a database at all.\n"),
            "zeros" => new byte[3 * TestPlan.PageSize],
            "random" => RandomBytes(3 * TestPlan.PageSize),
            _ => Array.Empty<byte>(),
        };
        File.WriteAllBytes(path, bytes);
        var before = File.GetLastWriteTimeUtc(path);
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"verify\",\"paths\":[" + JsonSerializer.Serialize(path) + "]}");
        Assert.Equal(2, exit); // refused before a page was checked: no verify event, no Fail
        Assert.DoesNotContain(events, e => e.GetProperty("type").GetString() == "verify");
        var error = events.Last();
        Assert.Equal("ForeignFile", error.GetProperty("code").GetString());
        Assert.Contains(path, error.GetProperty("message").GetString());
        Assert.Equal(bytes, File.ReadAllBytes(path));
        Assert.Equal(before, File.GetLastWriteTimeUtc(path));
    }

    [Fact]
    public void A_folder_holding_another_programs_logs_is_refused_and_names_the_log()
    {
        string logs = Directory.CreateDirectory(_dir.Combine("Logs")).FullName;
        string log = Path.Combine(logs, "E0000000001.log");
        File.WriteAllBytes(log, RandomBytes(1 << 20)); // Exchange's own log generation: same name pattern, not ours
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"verify\",\"paths\":[" + JsonSerializer.Serialize(logs) + "]}");
        Assert.Equal(2, exit);
        Assert.Equal("ForeignFile", events.Last().GetProperty("code").GetString());
        Assert.Contains(log, events.Last().GetProperty("message").GetString());
    }

    [Fact]
    public void A_database_of_ours_with_a_destroyed_header_still_fails_as_damaged()
    {
        var plan = TestPlanner.Plan(_dir.Request(TestType.Performance, 1, databases: 1, copies: 1));
        DatabaseSet.Prepare(plan, EventWriter.Null, _ => { }, CancellationToken.None);
        string db = plan.Instances[0].DatabaseFile;
        using (var fs = new FileStream(db, FileMode.Open, FileAccess.Write)) fs.Write(new byte[TestPlan.PageSize]); // page 0 zeroed: no magic, no marker
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"verify\",\"paths\":[" + JsonSerializer.Serialize(db) + "]}");
        Assert.Equal(0, exit);
        var verify = events.Single(e => e.GetProperty("type").GetString() == "verify");
        Assert.Equal("Fail", verify.GetProperty("result").GetString());
        Assert.Contains("page 0 is not a valid ExchStorageTest database header", verify.GetProperty("files")[0].GetProperty("message").GetString());
    }

    private static byte[] RandomBytes(int length)
    {
        var bytes = new byte[length];
        new Random(33).NextBytes(bytes);
        return bytes;
    }

    public void Dispose() => _dir.Dispose();
}
