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
    }
}
