using System.Diagnostics;
using System.Management.Automation;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>Invoke-StorageTest end to end: the real helper, real files, the verdict as an object.</summary>
public class InvokeStorageTestTests : IClassFixture<SessionFixture>
{
    private const string SmallProfile = "New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -DatabaseCount 2 -Path $args[0]";
    private readonly PowerShellSession _ps;

    public InvokeStorageTestTests(SessionFixture fixture) => _ps = fixture.Session;

    [Fact]
    public void A_performance_run_returns_a_result_with_its_verdict_and_reports_progress()
    {
        using var dir = new ScratchFolder("ist");
        var run = _ps.Run(SmallProfile + " | Invoke-StorageTest -Duration 00:00:30 -Force -Verbose", dir.Path);
        Assert.Null(run.Exception);
        var result = run.Single();
        Assert.Equal("ExchStorageTest.TestResult", result.TypeNames[0]);
        Assert.Contains((string)result.Properties["Result"].Value, new[] { "Pass", "Fail" });
        Assert.Equal("Complete", result.Properties["Completion"].Value);
        Assert.Equal("Performance", result.Properties["TestType"].Value);
        Assert.Equal(10.0, (double)result.Properties["TargetIops"].Value);
        Assert.True((double)result.Properties["AchievedIops"].Value > 0);
        Assert.True((double)result.Properties["DbReadLatencyAvgMs"].Value > 0);
        string resultsPath = (string)result.Properties["ResultsPath"].Value;
        Assert.True(File.Exists(resultsPath), resultsPath);
        Assert.NotEmpty((string[])result.Properties["ReportPath"].Value);
        // The verdict's reasons agree with the result.
        var reasons = (Array)result.Properties["Reasons"].Value;
        Assert.Equal((string)result.Properties["Result"].Value == "Pass", reasons.Length == 0);

        // Live progress: phases, percent and the measured IOPS and latency in the status.
        Assert.Contains(run.Progress, p => p.CurrentOperation == "Measuring" && p.StatusDescription.Contains("IOPS") && p.PercentComplete > 0 && p.SecondsRemaining >= 0);
        Assert.Contains(run.Progress, p => p.RecordType == ProgressRecordType.Completed);
        Assert.Contains(run.Verbose, v => v.Message.Contains("ExchStorageTest engine"));
    }

    [Fact]
    public void WhatIf_lists_every_file_and_writes_nothing()
    {
        using var dir = new ScratchFolder("ist");
        var run = _ps.Run(SmallProfile + " | Invoke-StorageTest -Duration 00:10:00 -WhatIf", dir.Path);
        Assert.Null(run.Exception);
        Assert.Empty(run.Output);
        Assert.Empty(dir.Entries());
    }

    [Fact]
    public void Stop_mid_run_stops_the_helper_cleanly_and_keeps_the_partial_result()
    {
        using var dir = new ScratchFolder("ist");
        string results = dir.Sub("Results");
        using var ps = System.Management.Automation.PowerShell.Create();
        ps.Runspace = _ps.Runspace;
        ps.AddScript(SmallProfile + " | Invoke-StorageTest -Duration 00:10:00 -ThreadCount 1 -SampleIntervalSeconds 1 -Warmup 0 -OutputPath $args[1] -Force").AddArgument(dir.Path).AddArgument(results);
        var measuring = new ManualResetEventSlim();
        ps.Streams.Progress.DataAdded += (_, e) =>
        {
            if (ps.Streams.Progress[e.Index].CurrentOperation == "Measuring") measuring.Set();
        };
        var async = ps.BeginInvoke();
        Assert.True(measuring.Wait(TimeSpan.FromMinutes(2)), "the run never started measuring");
        var before = HelperProcesses.OfThisProcess();
        Assert.NotEmpty(before);
        ps.Stop();
        Assert.Throws<PipelineStoppedException>(() => ps.EndInvoke(async));

        // No helper left behind, and the partial result is on disk, judged.
        Assert.Empty(HelperProcesses.OfThisProcess().Intersect(before));
        string file = Assert.Single(Directory.GetFiles(results, "*.json"));
        string json = File.ReadAllText(file);
        Assert.Contains("\"completion\": \"Stopped\"", json.Replace("\":\"", "\": \""));
    }

    [Fact]
    public void AsJob_returns_a_job_whose_result_Receive_Job_collects()
    {
        using var dir = new ScratchFolder("ist");
        var run = _ps.Run(SmallProfile + " | Invoke-StorageTest -Duration 00:00:10 -ThreadCount 1 -Warmup 0 -AsJob -Force | ForEach-Object { $j = $_; $null = Wait-Job -Job $j -Timeout 300; [pscustomobject]@{ Job = $j; Output = @(Receive-Job -Job $j -Keep); State = $j.State.ToString() } }", dir.Path);
        Assert.Null(run.Exception);
        var item = run.Single();
        var job = (Job)((PSObject)item.Properties["Job"].Value).BaseObject;
        Assert.Equal("ExchStorageTestJob", job.PSJobTypeName);
        Assert.Equal("Completed", item.Properties["State"].Value);
        var result = Assert.Single((object[])item.Properties["Output"].Value);
        var ps = PSObject.AsPSObject(result);
        Assert.Equal("ExchStorageTest.TestResult", ps.TypeNames[0]);
        Assert.Equal("Complete", ps.Properties["Completion"].Value);
        Assert.Contains(job.Progress, p => p.CurrentOperation == "Measuring");
        _ps.Run("Remove-Job -Job $args[0]", job);
    }

    [Fact]
    public void Stop_Job_stops_the_helper_and_Receive_Job_returns_the_partial_result()
    {
        using var dir = new ScratchFolder("ist");
        var started = _ps.Run(SmallProfile + " | Invoke-StorageTest -Duration 00:10:00 -ThreadCount 1 -SampleIntervalSeconds 1 -Warmup 0 -AsJob -Force", dir.Path);
        var job = (Job)started.Single().BaseObject;
        var deadline = DateTime.UtcNow.AddMinutes(2);
        while (!job.Progress.Any(p => p.CurrentOperation == "Measuring") && DateTime.UtcNow < deadline) Thread.Sleep(200);
        var helpers = HelperProcesses.OfThisProcess();
        Assert.NotEmpty(helpers);

        var stopped = _ps.Run("Stop-Job -Job $args[0]; $args[0].State.ToString(); Receive-Job -Job $args[0]", job);
        Assert.Equal("Stopped", stopped.Output[0].BaseObject);
        var result = Assert.Single(stopped.Output.Skip(1));
        Assert.Equal("Stopped", result.Properties["Completion"].Value);
        Assert.True(File.Exists((string)result.Properties["ResultsPath"].Value));
        Assert.Empty(HelperProcesses.OfThisProcess().Intersect(helpers));
        _ps.Run("Remove-Job -Job $args[0]", job);
    }
}
