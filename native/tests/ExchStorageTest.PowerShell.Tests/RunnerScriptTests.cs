using System.Collections;
using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text.Json;
using Xunit.Abstractions;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// The runner script Register-StorageTestTask writes, run for real: a real storage test through the module, its
/// exit code checked against the verdict in the results file. The scheduler starts it with pwsh -File (not
/// installed here); `&amp; runner` runs the same script in this engine, and its `exit` sets $LASTEXITCODE.
/// </summary>
public class RunnerScriptTests : IClassFixture<SessionFixture>
{
    private readonly PowerShellSession _ps;
    private readonly ITestOutputHelper _log;

    public RunnerScriptTests(SessionFixture fixture, ITestOutputHelper log)
    {
        _ps = fixture.Session;
        _log = log;
    }

    private sealed record RegisteredTask(string Runner, string Profile, string Output);

    private RegisteredTask RegisterTask(ScratchFolder dir, TimeSpan duration)
    {
        using var systemctl = new FakeSystemctl(dir.Combine("bin"));
        string profile = dir.Combine("lab.profile.json");
        Assert.Null(_ps.Run("New-MailboxProfile -Name lab -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -ThreadCount 1 -Path $args[0] -SaveTo $args[1]", dir.Sub("db"), profile).Error);
        string output = dir.Combine("Results");
        var task = _ps.Command("Register-StorageTestTask", new Hashtable
        {
            ["Name"] = "Lab",
            ["ProfilePath"] = profile,
            ["OutputPath"] = output,
            ["Duration"] = duration,
            ["Daily"] = true,
            ["At"] = DateTime.Today.AddHours(1),
            ["ScriptFolder"] = dir.Combine("tasks"),
            ["UnitPath"] = dir.Combine("units"),
            ["PowerShellPath"] = systemctl.Pwsh!,
            ["Force"] = true,
        });
        Assert.Null(task.Error);
        return new RegisteredTask((string)task.Single().Properties["RunnerScript"].Value, profile, output);
    }

    private const string RunAndReportExitCode = "& $args[0]; $LASTEXITCODE";

    private static (int Exit, string Log) Outcome(IList<System.Management.Automation.PSObject> output, string folder)
    {
        int exit = (int)output[^1].BaseObject;
        string log = File.ReadAllText(Assert.Single(Directory.GetFiles(folder, "Lab-*.log")));
        Assert.Contains($"Exit code {exit}.", log);
        return (exit, log);
    }

    /// <summary>The results documents under <paramref name="folder"/> (recognised by their schema, not their name).</summary>
    private static List<JsonElement> ResultsDocuments(string folder) =>
        Directory.Exists(folder)
            ? Directory.GetFiles(folder, "*.json", SearchOption.AllDirectories)
                .Select(f => File.ReadAllText(f)).Where(t => t.Contains("exchstoragetest/results"))
                .Select(t => JsonDocument.Parse(t).RootElement.Clone()).ToList()
            : new List<JsonElement>();

    [Fact]
    public void A_finished_run_exits_0_on_pass_and_1_on_fail_as_its_results_file_says()
    {
        using var dir = new ScratchFolder("run");
        var task = RegisterTask(dir, TimeSpan.FromSeconds(15));

        var run = _ps.Run(RunAndReportExitCode, task.Runner);

        Assert.Null(run.Exception);
        var (exit, log) = Outcome(run.Output, task.Output);
        var results = Assert.Single(ResultsDocuments(task.Output));
        bool passed = results.GetProperty("verdict").GetProperty("result").GetString() == "Pass" && results.GetProperty("completion").GetString() == "Complete";
        _log.WriteLine($"The runner's storage test on this disk: {(passed ? "Pass" : "Fail")}, exit code {exit}");
        Assert.Equal(passed ? 0 : 1, exit);
        Assert.Contains($"Result {results.GetProperty("testId").GetString()}: {results.GetProperty("verdict").GetProperty("result").GetString()} (Complete)", log);
        foreach (var reason in results.GetProperty("verdict").GetProperty("reasons").EnumerateArray())
            Assert.Contains(reason.GetProperty("message").GetString()!, log);
        // What went to the log also went to standard output (the journal).
        Assert.Contains(run.Output, o => o.BaseObject is string s && s.EndsWith($"Exit code {exit}.", StringComparison.Ordinal));
    }

    [Fact]
    public void A_failed_verdict_exits_1_and_logs_its_reasons()
    {
        // No disk fails its thresholds on cue, so here a function shadows the cmdlet (functions win over cmdlets)
        // and returns what Invoke-StorageTest returns for a failed run; 0, 2 and 3 come from real runs.
        using var dir = new ScratchFolder("run");
        var task = RegisterTask(dir, TimeSpan.FromSeconds(15));
        using var session = new PowerShellSession();
        Assert.Null(session.Run(@"function global:Invoke-StorageTest {
            [pscustomobject]@{ PSTypeName = 'ExchStorageTest.TestResult'; TestId = 'failed-run'; Result = 'Fail'; Completion = 'Complete'; Passed = $false
                Reasons = @([pscustomobject]@{ Message = 'Average DB read latency 25 ms exceeds 20 ms.' }) }
        }").Error);

        var run = session.Run(RunAndReportExitCode, task.Runner);

        Assert.Null(run.Exception);
        var (exit, log) = Outcome(run.Output, task.Output);
        Assert.Equal(1, exit);
        Assert.Contains("Result failed-run: Fail (Complete)", log);
        Assert.Contains("Average DB read latency 25 ms exceeds 20 ms.", log);
    }

    [Fact]
    public void An_error_before_any_result_exits_2_and_logs_the_ErrorId()
    {
        using var dir = new ScratchFolder("run");
        var task = RegisterTask(dir, TimeSpan.FromSeconds(15));
        File.Delete(task.Profile);

        var run = _ps.Run(RunAndReportExitCode, task.Runner);

        Assert.Null(run.Exception);
        var (exit, log) = Outcome(run.Output, task.Output);
        Assert.Equal(2, exit);
        Assert.Contains("ExchStorageTest.ProfileNotFound", log);
        Assert.Empty(ResultsDocuments(task.Output));
    }

    [LinuxFact]
    public void A_run_stopped_by_SIGTERM_exits_3_with_its_partial_result()
    {
        // systemctl stop (or a shutdown) sends SIGTERM: the helper ends the window, judges and saves what it measured.
        using var dir = new ScratchFolder("run");
        var task = RegisterTask(dir, TimeSpan.FromMinutes(10));
        using var ps = System.Management.Automation.PowerShell.Create();
        ps.Runspace = _ps.Runspace;
        ps.AddScript(RunAndReportExitCode).AddArgument(task.Runner);
        var async = ps.BeginInvoke();

        // The helper writes its first results checkpoint once the databases are prepared: the run is under way.
        var clock = Stopwatch.StartNew();
        while (ResultsDocuments(task.Output).Count == 0 && !async.IsCompleted && clock.Elapsed < TimeSpan.FromMinutes(3)) Thread.Sleep(250);
        Assert.False(async.IsCompleted, "the runner ended before the run was under way");
        int helper = Assert.Single(ChildHelpers());
        Assert.Equal(0, kill(helper, SIGTERM));

        var output = ps.EndInvoke(async);
        var (exit, log) = Outcome(output, task.Output);
        Assert.Equal(3, exit);
        Assert.Equal("Stopped", Assert.Single(ResultsDocuments(task.Output)).GetProperty("completion").GetString());
        Assert.Contains("(Stopped)", log);
    }

    private const int SIGTERM = 15;

    [DllImport("libc", SetLastError = true)]
#pragma warning disable SYSLIB1054 // one signal in one test: the classic DllImport is enough
    private static extern int kill(int pid, int signal);
#pragma warning restore SYSLIB1054

    /// <summary>Helpers this test process started (other worktrees' tests run theirs on the same machine).</summary>
    private static List<int> ChildHelpers() =>
        Process.GetProcessesByName("exchstoragetest-engine").Select(p => p.Id).Where(id => ParentOf(id) == Environment.ProcessId).ToList();

    private static int ParentOf(int pid)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{pid}/stat");
            // pid (comm) state ppid ...: comm may hold spaces, so count from its closing parenthesis.
            return int.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[1], System.Globalization.CultureInfo.InvariantCulture);
        }
        catch (IOException)
        {
            return -1;
        }
    }
}
