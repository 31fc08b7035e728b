using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Engine.Tests.Capacity;

/// <summary>
/// A stopped capacity search keeps every finished step (in its results file), and the same request again continues it
/// from those steps on the same database set (docs/capacity.md, "Stop and resume"). A plain folder on this machine's disk.
/// </summary>
public class CapacityStopResumeTests
{
    [Fact]
    public void A_stop_keeps_the_finished_steps_and_the_same_request_again_continues_from_them()
    {
        using var folder = new TestFolder("capstop");
        var request = CapacityRigTests.Request(folder.Sub("db"), folder.Sub("results"), start: 20, boundSeconds: 40);
        using var cancel = new CancellationTokenSource();
        // Stopped as the third step starts: two steps are finished, the third has no verdict.
        var stopped = TestRunner.Run(TestPlanner.Plan(request), new EventWriter(new Runs.TestTypeRunTests.NotifyingStream(cancel.Cancel, "\"phase\":\"Step 3: ", 1)), cancel.Token);
        Assert.Equal("Stopped", stopped.Completion);
        Assert.Equal("Stopped", stopped.Capacity!.StopReason);
        Assert.Equal(new[] { 1, 2 }, stopped.Capacity.Steps.Select(s => s.Step));
        Assert.Equal(20, stopped.Capacity.Steps[0].Mailboxes);
        // The file keeps them, with the answer they give.
        var saved = ResultsFile.Load(stopped.SavedPath!);
        Assert.Equal(stopped.Capacity.Steps.Select(s => (s.Mailboxes, s.Passed, s.AchievedIops)), saved.Capacity!.Steps.Select(s => (s.Mailboxes, s.Passed, s.AchievedIops)));
        Assert.Equal(stopped.Capacity.Answer.Mailboxes, saved.Capacity.Answer.Mailboxes);
        // A stop before any step failed is what cut the answer: at least its largest pass, not the storage's limit.
        Assert.Equal(stopped.Capacity.Steps.All(s => s.Passed), saved.Capacity.Answer.LowerBoundReason == CapacityStopReasons.Stopped);

        var resumed = TestRunner.Run(TestPlanner.Plan(request), EventWriter.Null, CancellationToken.None);
        Assert.Equal("Complete", resumed.Completion);
        Assert.Equal(stopped.SavedPath, resumed.Capacity!.ResumedFrom);
        var steps = resumed.Capacity.Steps;
        Assert.True(steps.Count > 2, $"{steps.Count} steps");
        Assert.Equal(stopped.Capacity.Steps.Select(s => (s.Step, s.Mailboxes, s.Passed)), steps.Take(2).Select(s => (s.Step, s.Mailboxes, s.Passed)));
        // The sequence goes on from the kept steps: the third is what the pure search chooses after them.
        var after = CapacitySequence.Next(20, steps.Take(2).Select(s => new StepOutcome(s.Mailboxes, s.Passed)).ToList());
        Assert.Equal(after, steps[2].Mailboxes);
        Assert.Equal(3, steps[2].Step);
        Assert.Contains(resumed.TestLog, l => l.Message.StartsWith("Resuming the capacity search of ", StringComparison.Ordinal));

        // A finished search is not continued: the same request once more starts afresh.
        var fresh = TestRunner.Run(TestPlanner.Plan(request), EventWriter.Null, CancellationToken.None);
        Assert.Null(fresh.Capacity!.ResumedFrom);
        Assert.Equal(20, fresh.Capacity.Steps[0].Mailboxes);
        FiguresAreTheReportedSteps(fresh);
    }

    /// <summary>
    /// A finished search's measured figures are one step's window with that step's own target (docs/capacity.md, "Reading
    /// the answer"): the answer's step, else the first failing step; its host counters and series are that window's.
    /// </summary>
    private static void FiguresAreTheReportedSteps(TestResults r)
    {
        var c = r.Capacity!;
        var step = Assert.IsType<CapacityStep>(c.Reported());
        Assert.Same(CapacitySearch.ReportedStep(c.Steps, c.Answer), step);
        Assert.Equal(step.TargetIops, r.Sizing.TargetTransactionalIops);
        Assert.Equal(step.AchievedIops, r.Sizing.AchievedTransactionalIops);
        Assert.Equal(step.MeasureStartUtc, r.Timeline.CollectionStartUtc);
        Assert.NotEmpty(r.TimeSeries);
        Assert.All(r.TimeSeries, p => Assert.InRange(p.TimeUtc, step.MeasureStartUtc, r.Timeline.CollectionEndUtc!.Value.AddSeconds(5)));
        if (OperatingSystem.IsLinux()) Assert.Contains(r.HostCounters, h => h.Name == "% Processor Time" && h.Samples >= 2);
        // A search that never failed is a lower bound named by its end.
        if (c.Steps.All(s => s.Passed)) Assert.Equal(c.StopReason, c.Answer.LowerBoundReason);
        else Assert.NotEqual(CapacityStopReasons.TimeBoundReached, c.Answer.LowerBoundReason);
    }
}
