using System.Text.Json;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Cli.Commands;
using ExchStorageTest.Engine.Cli.Requests;

namespace ExchStorageTest.Engine.Tests.Cli;

/// <summary>
/// The one request gate: every command's request passes the same checks, so the holes a mutation probe found in verify
/// (no protocol, protocol -1, a key given twice, a refusal exiting 1) cannot come back in any command.
/// </summary>
public class RequestGateTests : IDisposable
{
    private readonly TestFolder _dir = new("gate");

    [Fact]
    public void Every_command_of_the_contract_has_one_implementation_and_every_implementation_a_shape()
    {
        Assert.Equal(EngineCommands.All.Select(c => c.Name).OrderBy(n => n), CommandDispatcher.All.Select(c => c.Name).OrderBy(n => n));
        Assert.Equal(CommandDispatcher.All.Count, CommandDispatcher.All.Select(c => c.Name).Distinct().Count());
    }

    public static TheoryData<string, string> VerifyHoles => new()
    {
        { "{\"protocol\":-1,\"command\":\"verify\",\"paths\":[\"/\"]}", "ProtocolMismatch" },
        { "{\"command\":\"verify\",\"paths\":[\"/\"]}", "ProtocolMismatch" },
        { "{\"protocol\":1,\"protocol\":2,\"command\":\"verify\",\"paths\":[\"/\"]}", "DuplicateField" },
        { "{\"protocol\":1,\"command\":\"verify\",\"paths\":[\"/\"],\"Paths\":[\"/tmp\"]}", "DuplicateField" },
        { "{\"protocol\":1,\"command\":\"verify\"}", "PathsMissing" },
        { "{\"protocol\":1,\"command\":\"verify\",\"paths\":[\"/\"],\"profile\":{}}", "UnknownField" },
        { "{\"protocol\":1,\"command\":\"verify\",\"paths\":[\"relative/db\"]}", "PathNotAbsolute" },
    };

    [Theory]
    [MemberData(nameof(VerifyHoles))]
    public void Verify_goes_through_the_gate_like_every_command(string request, string code)
    {
        var (exit, events) = ProcessProtocolTests.RunEngine(request);
        Assert.Equal(2, exit);
        var error = events.Last();
        Assert.Equal("error", error.GetProperty("type").GetString());
        Assert.Equal(code, error.GetProperty("code").GetString());
        Assert.DoesNotContain(events, e => e.GetProperty("type").GetString() == "verify");
    }

    [Fact]
    public void A_verify_that_finds_no_database_is_a_refusal_that_exits_2()
    {
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"verify\",\"paths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}");
        Assert.Equal(2, exit);
        Assert.Equal("DatabaseMissing", events.Last().GetProperty("code").GetString());
    }

    [Fact]
    public void A_field_given_twice_is_refused_at_any_depth_naming_it()
    {
        var ex = Assert.Throws<EngineException>(() => RequestGate.Read(
            "{\"protocol\":1,\"command\":\"plan\",\"profile\":{\"mailboxCount\":1,\"mailboxCount\":2}}", "the test"));
        Assert.Equal("DuplicateField", ex.Code);
        Assert.True(ex.IsRefusal);
        Assert.Contains("'profile.mailboxCount'", ex.Message);
    }

    [Theory]
    [InlineData("{\"protocol\":1,\"command\":\"plan\",\"profile\":{\"mailboxCount\":\"many\"}}", "MailboxCountOutOfRange", "MailboxCount 'many'")]
    [InlineData("{\"protocol\":1,\"command\":\"plan\",\"profile\":{\"mailboxCount\":1.5}}", "MailboxCountOutOfRange", "MailboxCount '1.5'")]
    [InlineData("{\"protocol\":1,\"command\":\"plan\",\"profile\":{},\"targetRateIops\":\"NaN\"}", "TargetRateOutOfRange", "TargetRateIops 'NaN'")]
    [InlineData("{\"protocol\":1,\"command\":\"plan\",\"profile\":{},\"thresholds\":{\"averageLatency\":5}}", "UnknownField", "'averageLatency'")]
    [InlineData("{\"protocol\":1,\"command\":\"plan\",\"profile\":{},\"testType\":\"Fast\"}", "RequestMalformed", "'Fast'")]
    [InlineData("{\"protocol\":1,\"command\":\"plan\",\"profile\":null}", "ProfileMissing", "profile")]
    [InlineData("{\"protocol\":1,\"command\":\"plan\",\"profile\":{\"databasePaths\":[null]}}", "RequestMalformed", "profile.databasePaths[0]")]
    [InlineData("{\"protocol\":1,\"command\":\"report\",\"formats\":[\"Html\"]}", "PathsMissing", "'paths' or 'runs'")]
    [InlineData("{\"protocol\":1,\"command\":\"plna\"}", "UnknownCommand", "did you mean 'plan'")]
    public void A_value_of_the_wrong_kind_is_refused_naming_the_field_and_the_value(string request, string code, string named)
    {
        var ex = Assert.Throws<EngineException>(() => RequestGate.Read(request, "the test"));
        Assert.Equal(code, ex.Code);
        Assert.True(ex.IsRefusal);
        Assert.Contains(named, ex.Message);
    }

    [Fact]
    public void A_valid_request_comes_through_with_the_command_as_the_contract_spells_it()
    {
        var request = RequestGate.Read("{\"Protocol\":1,\"COMMAND\":\"Plan\",\"profile\":{\"mailboxCount\":5},\"durationSeconds\":60}", "the test");
        Assert.Equal(EngineCommands.Plan, request.Command);
        Assert.Equal(5, request.Profile.MailboxCount);
        Assert.Equal(60, request.DurationSeconds);
        Assert.Null(request.SampleIntervalSeconds); // picked from the duration by the plan
    }

    public void Dispose() => _dir.Dispose();
}
