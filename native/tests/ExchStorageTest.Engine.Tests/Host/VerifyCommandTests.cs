using System.Text.Json;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Host;

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

        var (exit, events) = HostProcessTests.RunHost(request);
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
        (exit, events) = HostProcessTests.RunHost(request);
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
        var (exit, events) = HostProcessTests.RunHost("{\"protocol\":1,\"command\":\"verify\",\"paths\":[" + JsonSerializer.Serialize(_dir.Combine("none")) + "]}");
        Assert.Equal(2, exit); // a refusal, as every refusal of every command
        Assert.Equal("PathNotFound", events.Last().GetProperty("code").GetString());
    }

    public void Dispose() => _dir.Dispose();
}
