using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Tests.Runs;

/// <summary>The engine's plan in words (what -WhatIf prints): the load, each file, and a capacity search's steps.</summary>
public sealed class PlanTextTests
{
    private static readonly MailboxProfile Profile = new() { Name = "p", MailboxCount = 200, IopsPerMailbox = 0.1, HeadroomPercent = 20, MailboxSizeMB = 10, DatabasePaths = new[] { "/db" } };

    private static JsonObject File(string path, long bytes, string kind) =>
        new JsonObject().Set(EventFields.Plan.File.Path, path).Set(EventFields.Plan.File.SizeBytes, bytes).Set(EventFields.Plan.File.Kind, kind);

    [Fact]
    public void Lists_the_load_and_every_file_with_its_size()
    {
        var plan = new JsonObject().Set(EventFields.Plan.TargetIops, 24.0)
            .Set(EventFields.Plan.Files, new List<object?> { File("/db/1/db.edb", 52428800, "Database"), File("/db/1/E00.log", 1048576, "Log") });
        string text = TestPlanText.Describe(plan, Profile, RunSettings.None.With(RunSetting.Duration, TimeSpan.FromMinutes(5)));
        Assert.StartsWith("Run a Performance storage test with mailbox profile 'p' for 00:05:00: target 24 transactional IOPS, threads: automatic tuning.", text);
        Assert.Contains("Files to create or reuse: 2, 51.0 MiB in all.", text);
        Assert.Contains("  Database       50.0 MiB  /db/1/db.edb", text);
    }

    [Fact]
    public void A_capacity_search_says_how_it_steps_and_that_its_duration_is_the_whole_bound()
    {
        var capacity = new JsonObject().Set(EventFields.Plan.CapacityPlan.StartMailboxes, 200.0).Set(EventFields.Plan.CapacityPlan.BoundSeconds, 1800.0)
            .Set(EventFields.Plan.CapacityPlan.ResolutionPercent, 5.0).Set(EventFields.Plan.CapacityPlan.PaceFactor, 1.15).Set(EventFields.Plan.CapacityPlan.SettleSeconds, 10.0)
            .Set(EventFields.Plan.CapacityPlan.StepSeconds, 132.5).Set(EventFields.Plan.CapacityPlan.WarmupSeconds, 90.0).Set(EventFields.Plan.CapacityPlan.MaximumSteps, 12.0);
        var plan = new JsonObject().Set(EventFields.Plan.TargetIops, 24.0).Set(EventFields.Plan.Capacity, capacity);
        string text = TestPlanText.Describe(plan, Profile, RunSettings.None.With(RunSetting.TestType, nameof(TestType.Capacity)));
        Assert.Contains("for at most 00:30:00, the whole search's time bound (the default)", text);
        Assert.Contains("threads: as many as each step's paced rate needs", text);
        Assert.Contains("Capacity search: from 200 mailboxes at 0.1 IOPS per mailbox (headroom 20%)", text);
        Assert.Contains("at most 12 steps, the whole search within 1800 s", text);
    }
    private static JsonObject Output(string kind, string path) =>
        new JsonObject().Set(EventFields.Plan.Output.Kind, kind).Set(EventFields.Plan.Output.Path, path);

    private static JsonObject Schedule(double lead) => new JsonObject().Set(EventFields.Plan.ScheduleFields.LeadSeconds, lead);

    [Fact]
    public void Lists_the_results_reports_and_locks_the_plan_names()
    {
        var plan = new JsonObject().Set(EventFields.Plan.TestType, "Performance").Set(EventFields.Plan.DurationSeconds, 30.0)
            .Set(EventFields.Plan.Outputs, new List<object?>
            {
                Output("Results", "/db/Results/Performance_<y>_<M>_<d>_<H>_<m>_<s>.json"),
                Output("Html", "/db/Results/Performance_<y>_<M>_<d>_<H>_<m>_<s>.html"),
                Output("Lock", "/db/ExchStorageTest.lock"),
            });
        string text = TestPlanText.Describe(plan, Profile, RunSettings.None);
        Assert.Contains("Results and reports to write (named by the local start time <y>_<M>_<d>_<H>_<m>_<s>; a name already taken gets _2), and the run's lock files (removed when it ends):", text);
        Assert.Contains(Environment.NewLine + "  Results    /db/Results/Performance_<y>_<M>_<d>_<H>_<m>_<s>.json", text);
        Assert.Contains("  Html       /db/Results/Performance_<y>_<M>_<d>_<H>_<m>_<s>.html", text);
        Assert.Contains("  Lock       /db/ExchStorageTest.lock", text);
    }

    [Fact]
    public void Estimates_the_time_from_the_plan_creation_at_the_assumed_rate_lead_duration_and_Stress_checksum_pass()
    {
        // 1 GiB to create (a 1 GiB database that is not there, a log that is), 2 GiB planned in all.
        var files = new List<object?> { File("/db/1/db.edb", 1L << 30, "Database"), File("/db/1/E00.log", 1L << 30, "Log").Set(EventFields.Plan.File.Exists, true) };
        JsonObject Plan(string type) => new JsonObject().Set(EventFields.Plan.TestType, type).Set(EventFields.Plan.DurationSeconds, 30.0)
            .Set(EventFields.Plan.Schedule, Schedule(20)).Set(EventFields.Plan.Files, files);

        // 15 s start + 1024 MiB at 100 MB/s (11 s) + 20 s lead + 30 s.
        Assert.Equal(TimeSpan.FromSeconds(15 + 11 + 20 + 30), RunTimeEstimate.For(Plan("Performance")));
        // Stress adds its checksum pass over every planned byte: 2048 MiB at 100 MB/s (21 s).
        Assert.Equal(TimeSpan.FromSeconds(15 + 11 + 20 + 30 + 21), RunTimeEstimate.For(Plan("Stress")));
        string text = RunTimeEstimate.Describe(Plan("Stress"));
        Assert.StartsWith("Estimated time of the Stress test: about 00:01:37, an estimate from the plan", text);
        Assert.Contains("creating 1 GiB of databases and logs at an assumed 100 MB/s: 11 s", text);
        Assert.Contains("tuning, warm-up and settling, at most: 20 s", text);
        Assert.Contains("the test: 30 s", text);
        Assert.Contains("the checksum pass reading 2 GiB at an assumed 100 MB/s: 21 s", text);
        Assert.Contains("Estimated time of the Performance test: about 00:01:16", TestPlanText.Describe(Plan("Performance"), Profile, RunSettings.None));
    }

    [Fact]
    public void A_capacity_search_is_estimated_at_its_bound_which_holds_its_warm_up()
    {
        var capacity = new JsonObject().Set(EventFields.Plan.CapacityPlan.BoundSeconds, 1800.0);
        var plan = new JsonObject().Set(EventFields.Plan.TestType, "Capacity").Set(EventFields.Plan.DurationSeconds, 1800.0)
            .Set(EventFields.Plan.Schedule, Schedule(90)).Set(EventFields.Plan.Capacity, capacity);
        Assert.Equal(TimeSpan.FromSeconds(15 + 1800), RunTimeEstimate.For(plan));
    }
}
