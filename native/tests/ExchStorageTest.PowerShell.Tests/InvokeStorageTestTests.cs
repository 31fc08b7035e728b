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
        var before = HelperProcesses();
        Assert.NotEmpty(before);
        ps.Stop();
        Assert.Throws<PipelineStoppedException>(() => ps.EndInvoke(async));

        // No helper left behind, and the partial result is on disk, judged.
        Assert.Empty(HelperProcesses().Intersect(before));
        string file = Assert.Single(Directory.GetFiles(results, "*.json"));
        string json = File.ReadAllText(file);
        Assert.Contains("\"completion\": \"Stopped\"", json.Replace("\":\"", "\": \""));
    }

    /// <summary>Helpers started from this repository's bin/ (other checkouts on the machine run their own).</summary>
    private static List<int> HelperProcesses() =>
        Process.GetProcessesByName("exchstoragetest-engine").Where(StartedFromThisRepository).Select(p => p.Id).ToList();

    private static bool StartedFromThisRepository(Process process)
    {
        try
        {
            string? file = process.MainModule?.FileName;
            return file != null && file.StartsWith(Path.Combine(PowerShellSession.RepoRoot, "bin"), StringComparison.Ordinal);
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return false; // exited meanwhile, or not ours to inspect
        }
    }
}
