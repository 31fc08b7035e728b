using System.Collections.Concurrent;
using System.Management.Automation;
using System.Management.Automation.Runspaces;
using System.Reflection;
using System.Security.Cryptography;
using System.Text.Json;
using System.Text.RegularExpressions;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// Invoke-StorageTest -ComputerName end to end, with local runspaces standing in for the remote hosts (WinRM cannot
/// run here): the module registers them under computer names, and the whole orchestration runs as it does over
/// remoting: host checks, module copy, clock skew, plans, one confirmation, one start instant, the hosts' own
/// Invoke-StorageTest in parallel, results copied back, the aggregate. Only the opening of a WinRM or SSH connection
/// is not exercised, except where it fails.
/// </summary>
public class MultiHostRunTests : IClassFixture<SessionFixture>
{
    private const string FullyQualified = ",ExchStorageTest.Commands.InvokeStorageTestCommand";
    private const string Run = "$p = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 2 -Path $args[0]; " +
        "$p | Invoke-StorageTest -ComputerName $args[1] -StartAtUtc $args[2] -OutputPath $args[3] -Duration 00:00:15 -Warmup 0 -ThreadCount 2 -SampleIntervalSeconds 5 -Force -Verbose";
    private readonly PowerShellSession _ps;

    public MultiHostRunTests(SessionFixture fixture) => _ps = fixture.Session;

    [Fact]
    public void A_host_that_fails_is_HostFailed_while_the_others_result_is_kept()
    {
        using var dir = new ScratchFolder("mh");
        using var hostA = new PowerShellSession();
        using var hostB = new PowerShellSession();
        string folderB = dir.Sub("exst-b");
        dir.Sub("exst-a");
        string collected = dir.Combine("collected");
        using var standIns = new StandIns(("exst-a", hostA.Runspace), ("exst-b", hostB.Runspace));

        using var ps = System.Management.Automation.PowerShell.Create();
        ps.Runspace = _ps.Runspace;
        // exst-b's storage goes away after its check passed: its own Invoke-StorageTest then fails while exst-a runs.
        ps.Streams.Verbose.DataAdded += (_, e) =>
        {
            if (ps.Streams.Verbose[e.Index].Message.StartsWith("exst-b: ") && Directory.Exists(folderB)) Directory.Delete(folderB, recursive: true);
        };
        var agreed = DateTime.UtcNow.AddSeconds(40);
        ps.AddScript(Run).AddArgument(dir.Combine("{host}")).AddArgument(new[] { "exst-a", "nohost.invalid", "exst-b" }).AddArgument(agreed).AddArgument(collected);
        var run = PowerShellSession.Collect(ps, () => Within(ps, TimeSpan.FromMinutes(5)));
        Assert.Null(run.Exception);

        // Two hosts failed, each a non-terminating HostFailed naming the host: one could not be reached, one failed its run.
        Assert.Equal(2, run.Errors.Count);
        Assert.All(run.Errors, e => Assert.Equal("ExchStorageTest.HostFailed" + FullyQualified, e.FullyQualifiedErrorId));
        Assert.All(run.Errors, e => Assert.Equal(ErrorCategory.ResourceUnavailable, e.CategoryInfo.Category));
        var unreachable = Assert.Single(run.Errors, e => (string)e.TargetObject == "nohost.invalid");
        Assert.Contains("no remoting session could be opened", unreachable.Exception.Message);
        var failedRun = Assert.Single(run.Errors, e => (string)e.TargetObject == "exst-b");
        Assert.Contains(folderB, failedRun.Exception.Message);

        // exst-a's result is kept: one TestResult, then the aggregate.
        Assert.Equal(2, run.Output.Count);
        var result = run.Output[0];
        var aggregate = run.Output[1];
        Assert.Equal("ExchStorageTest.TestResult", result.TypeNames[0]);
        Assert.Equal("ExchStorageTest.AggregateResult", aggregate.TypeNames[0]);
        Assert.Equal("exst-a", result.Properties["ComputerName"].Value);
        Assert.Equal("Complete", result.Properties["Completion"].Value);
        AssertCollected(result, collected, "exst-a");
        AssertStartedAt(result, agreed);

        Assert.Equal("Fail", aggregate.Properties["Result"].Value);
        Assert.Equal(3, aggregate.Properties["HostCount"].Value);
        Assert.Equal(new[] { "nohost.invalid", "exst-b" }, (string[])aggregate.Properties["FailedHosts"].Value);
        Assert.Single((Array)aggregate.Properties["Hosts"].Value);
        Assert.Equal(result.Properties["AchievedIops"].Value, aggregate.Properties["AchievedIops"].Value);
        Assert.Equal(agreed, (DateTime)aggregate.Properties["StartAtUtc"].Value, TimeSpan.FromMilliseconds(1));
        Assert.Equal(new[] { result.Properties["ResultsPath"].Value }, (string[])aggregate.Properties["ResultsPath"].Value);

        // run.json records every host and its outcome.
        using var record = JsonDocument.Parse(File.ReadAllText(Path.Combine(collected, "run.json")));
        var hosts = record.RootElement.GetProperty("hosts").EnumerateArray().ToDictionary(h => h.GetProperty("computerName").GetString()!);
        Assert.False(hosts["exst-a"].GetProperty("failed").GetBoolean());
        Assert.True(hosts["exst-b"].GetProperty("failed").GetBoolean());
        Assert.True(hosts["nohost.invalid"].GetProperty("failed").GetBoolean());
        Assert.Equal(JsonValueKind.Number, hosts["exst-b"].GetProperty("clockSkewMs").ValueKind);

        // One progress bar per host under the run's bar, with the host's live phases.
        Assert.Contains(run.Progress, p => p.ActivityId == 1 && p.Activity.StartsWith("Multi-host storage test") && p.StatusDescription.StartsWith("Preparing; all hosts start at"));
        Assert.Contains(run.Progress, p => p.ParentActivityId == 1 && p.Activity == "exst-a" && p.CurrentOperation == "Measuring");
        Assert.Contains(run.Progress, p => p.ParentActivityId == 1 && p.Activity == "exst-a" && p.CurrentOperation == "WaitingForStart");
    }

    [Fact]
    public void Two_hosts_measure_from_one_instant_and_a_host_without_the_module_gets_a_copy()
    {
        using var dir = new ScratchFolder("mh");
        using var hostC = new PowerShellSession();
        // exst-d has a bare session: the module is neither imported nor installed there.
        using var hostD = RunspaceFactory.CreateRunspace(InitialSessionState.CreateDefault2());
        hostD.Open();
        dir.Sub("exst-c");
        dir.Sub("exst-d");
        string collected = dir.Combine("collected");
        string copy = ExpectedModuleCopy();
        if (Directory.Exists(copy)) Directory.Delete(copy, recursive: true);
        using var standIns = new StandIns(("exst-c", hostC.Runspace), ("exst-d", hostD));
        try
        {
            var agreed = DateTime.UtcNow.AddSeconds(45);
            using var ps = System.Management.Automation.PowerShell.Create();
            ps.Runspace = _ps.Runspace;
            ps.AddScript(Run).AddArgument(dir.Combine("{host}")).AddArgument(new[] { "exst-c", "exst-d" }).AddArgument(agreed).AddArgument(collected);
            var run = PowerShellSession.Collect(ps, () => Within(ps, TimeSpan.FromMinutes(5)));
            Assert.Null(run.Exception);
            Assert.Empty(run.Errors);

            // The module went over to exst-d whole: manifest, commands, formats, and the engine, still executable.
            var copying = Assert.Single(run.Verbose, v => v.Message.StartsWith("Copying ExchStorageTest"));
            Assert.Contains($"'{copy}' on exst-d", copying.Message);
            string engine = OperatingSystem.IsWindows() ? "bin/win-x64/exchstoragetest-engine.exe" : $"bin/{(System.Runtime.InteropServices.RuntimeInformation.OSArchitecture == System.Runtime.InteropServices.Architecture.Arm64 ? "linux-arm64" : "linux-x64")}/exchstoragetest-engine";
            foreach (string file in new[] { "ExchStorageTest.psd1", "src/ExchStorageTest.psm1", "src/ExchStorageTest.Format.ps1xml", "src/ExchStorageTest.Types.ps1xml", "bin/ExchStorageTest.dll", "en-US/ExchStorageTest.dll-Help.xml", "en-US/about_ExchStorageTest.help.txt", engine })
                Assert.Equal(File.ReadAllBytes(Path.Combine(PowerShellSession.RepoRoot, file)), File.ReadAllBytes(Path.Combine(copy, file)));
            if (!OperatingSystem.IsWindows()) Assert.True(File.GetUnixFileMode(Path.Combine(copy, engine)).HasFlag(UnixFileMode.UserExecute));
            Assert.Contains(run.Verbose, v => v.Message.StartsWith("exst-d: ") && v.Message.Contains(copy) && v.Message.Contains("(copied by this run)"));

            Assert.Equal(3, run.Output.Count);
            var results = run.Output.Take(2).ToList();
            var aggregate = run.Output[2];
            Assert.Equal(new[] { "exst-c", "exst-d" }, results.Select(r => (string)r.Properties["ComputerName"].Value));
            foreach (var result in results)
            {
                string host = (string)result.Properties["ComputerName"].Value;
                Assert.Equal("Complete", result.Properties["Completion"].Value);
                AssertCollected(result, collected, host);
                AssertStartedAt(result, agreed);
            }

            Assert.Equal(2, aggregate.Properties["HostCount"].Value);
            Assert.Empty((string[])aggregate.Properties["FailedHosts"].Value);
            Assert.Equal(2, ((Array)aggregate.Properties["Hosts"].Value).Length);
            int passed = results.Count(r => (bool)r.Properties["Passed"].Value);
            Assert.Equal(passed, aggregate.Properties["PassedHostCount"].Value);
            Assert.Equal(passed == 2 ? "Pass" : "Fail", aggregate.Properties["Result"].Value);
            double sum = results.Sum(r => (double)r.Properties["AchievedIops"].Value);
            Assert.Equal(Math.Round(sum, 3), (double)aggregate.Properties["AchievedIopsPerHostSum"].Value, 3);
            // Both stand-ins are this machine, each with its own database folders, measuring at the same time: the
            // engine tells them apart by their databases and merges them, so its figures are the aggregate's.
            Assert.Equal("Report", aggregate.Properties["AchievedIopsSource"].Value);
            // Each host's figure is rounded to 3 decimals; the engine's merge is of the unrounded counts.
            Assert.InRange((double)aggregate.Properties["AchievedIops"].Value, sum - 0.002, sum + 0.002);
            Assert.Equal(results.Sum(r => (double)r.Properties["TargetIops"].Value), (double)aggregate.Properties["TargetIops"].Value, 3);
            // The engine's report over the collected files comes with it, as Get-TestReport returns it.
            var report = PSObject.AsPSObject(aggregate.Properties["Report"].Value);
            Assert.Equal("ExchStorageTest.TestReport", report.TypeNames[0]);
            Assert.Equal(results.Select(r => (string)r.Properties["TestId"].Value).OrderBy(t => t), ((string[])report.Properties["TestId"].Value).OrderBy(t => t));
            Assert.Equal((string[])aggregate.Properties["ResultsPath"].Value, (string[])report.Properties["ResultsPath"].Value);
        }
        finally
        {
            if (Directory.Exists(copy)) Directory.Delete(copy, recursive: true);
        }
    }

    [Fact]
    public void Stop_mid_run_stops_every_hosts_helper_cleanly_and_each_keeps_its_partial_result()
    {
        using var dir = new ScratchFolder("mh");
        using var hostF = new PowerShellSession();
        using var hostG = new PowerShellSession();
        string resultsF = Path.Combine(dir.Sub("exst-f"), "Results");
        string resultsG = Path.Combine(dir.Sub("exst-g"), "Results");
        using var standIns = new StandIns(("exst-f", hostF.Runspace), ("exst-g", hostG.Runspace));
        using var ps = System.Management.Automation.PowerShell.Create();
        ps.Runspace = _ps.Runspace;
        ps.AddScript(Run.Replace("-Duration 00:00:15", "-Duration 00:10:00"))
            .AddArgument(dir.Combine("{host}")).AddArgument(new[] { "exst-f", "exst-g" }).AddArgument(DateTime.UtcNow.AddSeconds(30)).AddArgument(dir.Combine("collected"));
        var measuring = new ConcurrentDictionary<string, bool>();
        var both = new ManualResetEventSlim();
        ps.Streams.Progress.DataAdded += (_, e) =>
        {
            var record = ps.Streams.Progress[e.Index];
            if (record.ParentActivityId == 1 && record.CurrentOperation == "Measuring" && measuring.TryAdd(record.Activity, true) && measuring.Count == 2) both.Set();
        };
        var pending = ps.BeginInvoke();
        Assert.True(both.Wait(TimeSpan.FromMinutes(3)), "the hosts never both started measuring");
        var helpers = HelperProcesses.OfThisProcess();
        Assert.True(helpers.Count >= 2, $"{helpers.Count} helpers running");
        ps.Stop();
        Assert.Throws<PipelineStoppedException>(() => ps.EndInvoke(pending));

        // No host's helper outlives the command, and each host judged and saved what it measured.
        Assert.Empty(HelperProcesses.OfThisProcess().Intersect(helpers));
        foreach (string results in new[] { resultsF, resultsG })
        {
            string file = Assert.Single(Directory.GetFiles(results, "*.json"));
            using var document = JsonDocument.Parse(File.ReadAllText(file));
            Assert.Equal("Stopped", document.RootElement.GetProperty("completion").GetString());
        }
    }

    [Fact]
    public void WhatIf_checks_the_hosts_and_writes_nothing_on_them_or_here()
    {
        using var dir = new ScratchFolder("mh");
        using var hostH = new PowerShellSession();
        using var hostI = RunspaceFactory.CreateRunspace(InitialSessionState.CreateDefault2());
        hostI.Open();
        dir.Sub("exst-h");
        dir.Sub("exst-i");
        string copy = ExpectedModuleCopy();
        if (Directory.Exists(copy)) Directory.Delete(copy, recursive: true);
        using var standIns = new StandIns(("exst-h", hostH.Runspace), ("exst-i", hostI));
        var run = _ps.Run(Run.Replace("-Force -Verbose", "-WhatIf -Verbose"), dir.Combine("{host}"), new[] { "exst-h", "exst-i" }, DateTime.UtcNow.AddMinutes(5), dir.Combine("collected"));
        Assert.Null(run.Exception);
        Assert.Empty(run.Output);
        // exst-h was checked and planned; exst-i would need the module copied, which -WhatIf does not do.
        Assert.Contains(run.Verbose, v => v.Message.StartsWith("exst-h: ") && v.Message.Contains("clock skew"));
        var declined = Assert.Single(run.Errors);
        Assert.Equal("exst-i", declined.TargetObject);
        Assert.Contains("not copied", declined.Exception.Message);
        Assert.False(Directory.Exists(copy));
        Assert.Equal(new[] { "exst-h", "exst-i" }, dir.Entries());
    }

    [Fact]
    public void A_start_instant_too_close_to_start_every_host_is_refused_before_any_host_is_contacted()
    {
        using var dir = new ScratchFolder("mh");
        using var host = new PowerShellSession();
        using var standIns = new StandIns(("exst-e", host.Runspace));
        var run = _ps.Run(Run, dir.Combine("{host}"), new[] { "exst-e" }, DateTime.UtcNow.AddSeconds(5), dir.Combine("collected"));
        Assert.Equal("ExchStorageTest.StartTimeOutOfRange" + FullyQualified, run.Error?.FullyQualifiedErrorId);
        Assert.DoesNotContain(run.Errors, e => e.FullyQualifiedErrorId.StartsWith("ExchStorageTest.HostFailed"));
        Assert.DoesNotContain(run.Verbose, v => v.Message.StartsWith("exst-e"));
        Assert.Empty(dir.Entries());
    }

    [Fact]
    public void A_host_that_cannot_be_reached_over_SSH_is_HostFailed_and_nothing_runs()
    {
        using var dir = new ScratchFolder("mh");
        var run = _ps.Run("$p = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 2 -Path $args[0]; " +
            "$p | Invoke-StorageTest -ComputerName nohost.invalid -UseSSH -OutputPath $args[1] -Force", dir.Combine("db"), dir.Combine("collected"));
        Assert.Null(run.Exception);
        var failed = Assert.Single(run.Errors);
        Assert.Equal("ExchStorageTest.HostFailed" + FullyQualified, failed.FullyQualifiedErrorId);
        Assert.Equal("nohost.invalid", failed.TargetObject);
        Assert.Empty(run.Output);
        Assert.Empty(dir.Entries());
    }

    /// <summary>Runs the command; one that has not finished in <paramref name="limit"/> is stopped and fails the test instead of holding the suite.</summary>
    private static System.Collections.ObjectModel.Collection<PSObject> Within(System.Management.Automation.PowerShell ps, TimeSpan limit)
    {
        var output = new PSDataCollection<PSObject>();
        var pending = ps.BeginInvoke<PSObject, PSObject>(null, output);
        if (!pending.AsyncWaitHandle.WaitOne(limit))
        {
            ps.Stop();
            throw new TimeoutException($"the multi-host run did not finish within {limit}");
        }
        ps.EndInvoke(pending);
        return new System.Collections.ObjectModel.Collection<PSObject>(output.ToList());
    }

    /// <summary>The host's results JSON was copied into &lt;OutputPath&gt;/&lt;host&gt;/, byte for byte, and the result points at the copy.</summary>
    private static void AssertCollected(PSObject result, string collected, string host)
    {
        string local = (string)result.Properties["ResultsPath"].Value;
        string remote = (string)result.Properties["RemoteResultsPath"].Value;
        Assert.Equal(Path.Combine(collected, host), Path.GetDirectoryName(local));
        Assert.NotEqual(remote, local);
        Assert.Equal(File.ReadAllBytes(remote), File.ReadAllBytes(local));
        Assert.True(Math.Abs((double)result.Properties["ClockSkewMs"].Value) < 1000, $"{host}: skew {result.Properties["ClockSkewMs"].Value} ms between runspaces of one process");
    }

    /// <summary>The host got the agreed instant on its own clock (instant + skew) and measured from it.</summary>
    private static void AssertStartedAt(PSObject result, DateTime agreed)
    {
        var hostStart = (DateTime)result.Properties["StartAtUtc"].Value;
        double skewMs = (double)result.Properties["ClockSkewMs"].Value;
        Assert.Equal(agreed.AddMilliseconds(skewMs), hostStart, TimeSpan.FromMilliseconds(1));
        using var results = JsonDocument.Parse(File.ReadAllText((string)result.Properties["ResultsPath"].Value));
        var measuredFrom = results.RootElement.GetProperty("timeline").GetProperty("collectionStartUtc").GetDateTime().ToUniversalTime();
        Assert.True(measuredFrom >= hostStart, $"measuring began at {measuredFrom:o}, before the agreed {hostStart:o}");
        Assert.True(measuredFrom - hostStart < TimeSpan.FromSeconds(5), $"measuring began at {measuredFrom:o}, long after the agreed {hostStart:o}");
    }

    /// <summary>Where the module puts its copy on a host: &lt;temp&gt;/ExchStorageTest-&lt;version&gt;-&lt;first 8 hex of the DLL's SHA-256&gt;.</summary>
    private string ExpectedModuleCopy()
    {
        string version = _ps.Run("(Get-Module ExchStorageTest).Version.ToString()").Single().ToString();
        string hash = Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(Path.Combine(PowerShellSession.RepoRoot, "bin", "ExchStorageTest.dll"))))[..8].ToLowerInvariant();
        return Path.Combine(Path.GetTempPath(), $"ExchStorageTest-{version}-{hash}");
    }

    /// <summary>Registers local runspaces under computer names for the module's HostConnector; removes them when disposed.</summary>
    private sealed class StandIns : IDisposable
    {
        private readonly ConcurrentDictionary<string, Runspace> _registry;
        private readonly string[] _names;

        public StandIns(params (string Name, Runspace Runspace)[] hosts)
        {
            var assembly = AppDomain.CurrentDomain.GetAssemblies().Single(a => a.GetName().Name == "ExchStorageTest");
            var field = assembly.GetType("ExchStorageTest.MultiHost.HostConnector", throwOnError: true)!.GetField("StandIns", BindingFlags.NonPublic | BindingFlags.Static)!;
            _registry = (ConcurrentDictionary<string, Runspace>)field.GetValue(null)!;
            _names = hosts.Select(h => h.Name).ToArray();
            foreach (var (name, runspace) in hosts) Assert.True(_registry.TryAdd(name, runspace), $"{name} is registered already");
        }

        public void Dispose()
        {
            foreach (string name in _names) _registry.TryRemove(name, out _);
        }
    }
}
