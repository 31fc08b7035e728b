namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// How the commands read the helper's protocol where the real helper cannot be made to misbehave on demand:
/// a stand-in helper (a shell script named by EXCHSTORAGETEST_ENGINE) prints the events under test.
/// </summary>
public class HelperProtocolTests : IClassFixture<SessionFixture>, IDisposable
{
    private const string Hello = "{\"type\":\"hello\",\"protocol\":1,\"engineVersion\":\"9.9.9\"}";
    private const string Profile = "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $args[1]";
    private readonly PowerShellSession _ps;
    private readonly ScratchFolder _dir = new("proto");

    public HelperProtocolTests(SessionFixture fixture) => _ps = fixture.Session;

    /// <summary>A stand-in helper that answers a plan request with a plan and any other request with <paramref name="runLines"/>.</summary>
    private string FakeHelper(string[] runLines, int runExit, string stderr = "")
    {
        string path = _dir.Combine($"engine-{Guid.NewGuid():N}.sh");
        string plan = "{\"type\":\"plan\",\"targetIops\":1,\"files\":[]}";
        File.WriteAllText(path, "#!/bin/sh\nread request\ncase \"$request\" in *'\"command\":\"plan\"'*) printf '%s\\n' '" + Hello + "' '" + plan + "'; exit 0;; esac\n" +
            string.Concat(runLines.Select(l => "printf '%s\\n' '" + l + "'\n")) +
            (stderr.Length > 0 ? $"echo '{stderr}' >&2\n" : "") + $"exit {runExit}\n");
        MakeExecutable(path);
        return path;
    }

    private Invocation RunWith(string helper) =>
        _ps.Run("$env:EXCHSTORAGETEST_ENGINE = $args[0]; try { " + Profile + " | Invoke-StorageTest -Force } catch { ,$_ } finally { $env:EXCHSTORAGETEST_ENGINE = $null }", helper, _dir.Path);

    [UnixFact]
    public void An_error_the_helper_went_on_after_is_non_terminating_and_the_result_still_comes()
    {
        string helper = FakeHelper(new[]
        {
            Hello,
            "{\"type\":\"error\",\"code\":\"ResultsWriteFailed\",\"category\":\"WriteError\",\"message\":\"Could not write the results file x: disk full\",\"target\":\"x\"}",
            "{\"type\":\"result\",\"testId\":\"t1\",\"testType\":\"Performance\",\"result\":\"Fail\",\"completion\":\"Complete\",\"reasons\":[],\"targetIops\":1,\"achievedIops\":2}",
        }, 0);
        var run = RunWith(helper);
        var error = Assert.Single(run.Errors);
        Assert.StartsWith("ExchStorageTest.ResultsWriteFailed,", error.FullyQualifiedErrorId);
        Assert.Equal(System.Management.Automation.ErrorCategory.WriteError, error.CategoryInfo.Category);
        Assert.Equal("t1", run.Single().Properties["TestId"].Value);
    }

    [UnixFact]
    public void The_error_that_ends_the_helper_is_terminating_with_its_code_and_category()
    {
        string helper = FakeHelper(new[] { Hello, "{\"type\":\"error\",\"code\":\"InsufficientSpace\",\"category\":\"ResourceUnavailable\",\"message\":\"needs 5 GB, 1 GB free\",\"target\":\"/x\"}" }, 2);
        var error = Assert.IsType<System.Management.Automation.ErrorRecord>(Assert.Single(RunWith(helper).Output).BaseObject);
        Assert.StartsWith("ExchStorageTest.InsufficientSpace,", error.FullyQualifiedErrorId);
        Assert.Equal(System.Management.Automation.ErrorCategory.ResourceUnavailable, error.CategoryInfo.Category);
        Assert.Equal("needs 5 GB, 1 GB free", error.Exception.Message);
    }

    [UnixFact]
    public void A_helper_that_fails_without_an_error_event_is_EngineFailed_with_its_stderr()
    {
        string helper = FakeHelper(new[] { Hello }, 1, "Unhandled exception: boom");
        var error = Assert.IsType<System.Management.Automation.ErrorRecord>(Assert.Single(RunWith(helper).Output).BaseObject);
        Assert.StartsWith("ExchStorageTest.EngineFailed,", error.FullyQualifiedErrorId);
        Assert.Contains("exited with code 1", error.Exception.Message);
        Assert.Contains("boom", error.Exception.Message);
    }

    [UnixFact]
    public void A_helper_of_another_protocol_is_refused_naming_both_versions()
    {
        string path = _dir.Combine("engine-v2.sh");
        File.WriteAllText(path, "#!/bin/sh\nread request\nprintf '%s\\n' '{\"type\":\"hello\",\"protocol\":2,\"engineVersion\":\"2.0.0\"}'\n");
        MakeExecutable(path);
        var error = Assert.IsType<System.Management.Automation.ErrorRecord>(Assert.Single(RunWith(path).Output).BaseObject);
        Assert.StartsWith("ExchStorageTest.EngineProtocolMismatch,", error.FullyQualifiedErrorId);
        Assert.Contains("protocol 2", error.Exception.Message);
        Assert.Contains("protocol 1", error.Exception.Message);
    }

    [UnixFact]
    public void A_helper_that_never_says_hello_is_refused()
    {
        string path = _dir.Combine("engine-silent.sh");
        File.WriteAllText(path, "#!/bin/sh\nread request\necho 'not json'\nexit 1\n");
        MakeExecutable(path);
        var error = Assert.IsType<System.Management.Automation.ErrorRecord>(Assert.Single(RunWith(path).Output).BaseObject);
        Assert.StartsWith("ExchStorageTest.EngineProtocolMismatch,", error.FullyQualifiedErrorId);
        Assert.Contains("no hello", error.Exception.Message);
    }

    private static void MakeExecutable(string path)
    {
        if (!OperatingSystem.IsWindows()) File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);
    }

    public void Dispose() => _dir.Dispose();
}

/// <summary>A test that uses shell scripts as stand-in programs.</summary>
public sealed class UnixFactAttribute : FactAttribute
{
    public UnixFactAttribute()
    {
        if (OperatingSystem.IsWindows()) Skip = "stand-in helpers are shell scripts";
    }
}
