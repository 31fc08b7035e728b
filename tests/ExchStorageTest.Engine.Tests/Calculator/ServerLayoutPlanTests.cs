using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Calculator;

/// <summary>
/// A profile whose servers hold different databases (the calculator's Servers.csv): each host's plan tests its own
/// server's folders, and a host that is none of the servers is refused before anything is written.
/// </summary>
public class ServerLayoutPlanTests : IDisposable
{
    private readonly TestFolder _dir = new("layout");

    private EngineRequest Request(params (string Name, string Folder)[] servers)
    {
        var request = _dir.Request(TestType.Performance, 10, databases: 2);
        request.Profile.Servers = servers.Select(s => new ServerLayout { Name = s.Name, DatabasePaths = new[] { _dir.Sub(s.Folder) } }).ToArray();
        return request;
    }

    [Fact]
    public void This_host_tests_its_own_servers_databases()
    {
        var plan = TestPlanner.Plan(Request(("other-server", "Other"), (Environment.MachineName.ToUpperInvariant() + ".example.org", "Mine")));

        Assert.All(plan.Instances, i => Assert.StartsWith(Path.Combine(_dir.Path, "Mine"), i.DatabaseFolder));
        Assert.Equal(_dir.Combine("Mine"), Assert.Single(plan.Profile.Servers).DatabasePaths[0]);
        Assert.Equal(_dir.Combine("Mine"), plan.Profile.DatabasePaths[0]);
    }

    [Fact]
    public void A_host_that_is_none_of_the_servers_is_refused_naming_them_and_writes_nothing()
    {
        var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(Request(("srv-nn-01", "One"), ("srv-nn-02", "Two"))));

        Assert.Equal(ErrorCodes.ServerLayoutNotFound.Code, ex.Code);
        Assert.True(ex.IsRefusal);
        Assert.Contains("srv-nn-01, srv-nn-02", ex.Message);
        Assert.Contains(Environment.MachineName, ex.Message);
        Assert.Empty(Directory.GetFiles(_dir.Path, "*", SearchOption.AllDirectories));
    }

    [Fact]
    public void Two_servers_of_one_name_break_the_profile_rules()
    {
        var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(Request(("srv-nn-01", "One"), ("SRV-NN-01", "Two"))));
        Assert.Equal(ErrorCodes.ServerLayoutInvalid.Code, ex.Code);
    }

    public void Dispose() => _dir.Dispose();
}
