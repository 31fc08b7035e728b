using ExchStorageTest.MultiHost;

namespace ExchStorageTest.Tests.MultiHost;

/// <summary>The AggregateResult of a multi-host run: the engine's merge or no figure at all, and every failed host's reason.</summary>
public sealed class AggregateTests
{
    private static TestResult Host(string name, string verdict = Verdicts.Pass, string completion = Completions.Complete) =>
        new() { ComputerName = name, Result = verdict, Completion = completion, AchievedIops = 10.5, ResultsPath = "/collected/" + name + "/r.json" };

    private static HostLine Failed(string address, string reason) => new(address, failureReason: reason);

    [Fact]
    public void Figures_come_from_the_engine_s_merge_of_every_host_and_the_plain_sum_stays_beside_them()
    {
        var results = new[] { Host("a"), Host("b") };
        var report = new TestReport { Aggregate = new ReportAggregate { Hosts = 2, TargetIops = 20, AchievedIops = 21.25, MeasuringStartSkewSeconds = 0.004 } };
        AggregateResult aggregate = Aggregate.Build("run", null, null, new[] { new HostLine("a"), new HostLine("b") }, results, report, "/collected");
        Assert.Equal(Verdicts.Pass, aggregate.Result);
        Assert.Equal(21.25, aggregate.AchievedIops);
        Assert.Equal(Aggregate.FromReport, aggregate.AchievedIopsSource);
        Assert.Equal(21.0, aggregate.AchievedIopsPerHostSum);
        Assert.Equal(0.004, aggregate.MeasuringStartSkewSeconds);
        Assert.Equal(new[] { "/collected/a/r.json", "/collected/b/r.json" }, aggregate.ResultsPath);
    }

    [Fact]
    public void A_merge_of_fewer_hosts_gives_no_figure_and_a_failed_or_stopped_host_fails_the_run()
    {
        var results = new[] { Host("a"), Host("b", completion: Completions.Stopped) };
        var report = new TestReport { Aggregate = new ReportAggregate { Hosts = 1, TargetIops = 10, AchievedIops = 10.5 } };
        AggregateResult aggregate = Aggregate.Build("run", null, null, new[] { new HostLine("a"), new HostLine("b"), Failed("c", "unreachable") }, results, report, "/collected");
        Assert.Equal(Verdicts.Fail, aggregate.Result);
        Assert.Null(aggregate.AchievedIops);
        Assert.Null(aggregate.AchievedIopsSource);
        Assert.Equal(1, aggregate.PassedHostCount);
        Assert.Equal(3, aggregate.HostCount);
        Assert.Equal("unreachable", Assert.Single(aggregate.Failures).Reason);
    }

    [Fact]
    public void A_run_one_host_of_which_was_stopped_is_Stopped_not_failed()
    {
        var results = new[] { Host("a"), Host("b", verdict: Verdicts.Stopped, completion: Completions.Stopped) };
        AggregateResult aggregate = Aggregate.Build("run", null, null, new[] { new HostLine("a"), new HostLine("b") }, results, null, "/collected");
        Assert.Equal(Verdicts.Stopped, aggregate.Result);
        Assert.Equal(1, aggregate.PassedHostCount);
    }
}
