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
}
