using System.Management.Automation;
using System.Text.Json;
using Xunit.Abstractions;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// The ExchStorageValidation DSC class resource as DSC uses it: `using module` on the manifest, then Get, Test and
/// Set on an instance, with a real short storage test run by Set.
/// </summary>
public class DscResourceTests : IClassFixture<SessionFixture>
{
    private readonly PowerShellSession _ps;
    private readonly ITestOutputHelper _log;

    public DscResourceTests(SessionFixture fixture, ITestOutputHelper log)
    {
        _ps = fixture.Session;
        _log = log;
    }

    /// <summary>`using module` takes a literal path and must open the script.</summary>
    private static string UsingModule => $"using module '{PowerShellSession.ManifestPath.Replace("'", "''")}'\n";

    private string SaveProfile(ScratchFolder dir)
    {
        string file = dir.Combine("gate.profile.json");
        Assert.Null(_ps.Run("New-MailboxProfile -Name gate -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -ThreadCount 1 -Path $args[0] -SaveTo $args[1]", dir.Sub("db"), file).Error);
        return file;
    }

    private static object? Prop(PSObject o, string name) => o.Properties[name].Value is PSObject p ? p.BaseObject : o.Properties[name].Value;

    private static PSObject AsPS(object? o) => PSObject.AsPSObject(o!);

    private static string[] ReasonCodes(object? state) =>
        ((IEnumerable<object>)(Prop(AsPS(state), "Reasons") as object[] ?? Array.Empty<object>())).Select(r => (string)Prop(AsPS(r), "Code")!).ToArray();

    [Fact]
    public void Test_is_false_before_any_run_Set_runs_the_test_and_then_Get_and_Test_report_its_verdict()
    {
        using var dir = new ScratchFolder("dsc");
        string profile = SaveProfile(dir);
        string results = dir.Combine("Results");

        var run = _ps.Run(UsingModule + @"
            $resource = [ExchStorageValidation]::new()
            $resource.Name = 'gate'
            $resource.ProfilePath = $args[0]
            $resource.OutputPath = $args[1]
            $resource.Duration = '00:00:15'
            $before = $resource.Test()
            $stateBefore = $resource.Get()
            $setError = $null
            try {
                $resource.Set()
            }
            catch {
                $setError = $_.Exception.Message
            }
            [pscustomobject]@{ Before = $before; StateBefore = $stateBefore; SetError = $setError; After = $resource.Test(); StateAfter = $resource.Get() }", profile, results);

        Assert.True(run.Error == null, run.Error?.ToString() + " " + run.Error?.ScriptStackTrace);
        var outcome = run.Single();
        Assert.False((bool)Prop(outcome, "Before")!);
        var before = AsPS(Prop(outcome, "StateBefore"));
        Assert.Equal("ExchStorageValidation", before.BaseObject.GetType().Name);
        Assert.Equal("gate", Prop(before, "Name"));
        Assert.Equal("NotRun", Prop(before, "LastResult"));
        Assert.Equal("", Prop(before, "LastRunUtc")); // a [string] class property holds $null as an empty string
        Assert.Equal(new[] { "ExchStorageValidation:ExchStorageValidation:NoResult" }, ReasonCodes(before));

        // Set ran one real test; its results file is the judge of what Get, Test and Set must say.
        var document = Assert.Single(Directory.GetFiles(results, "*.json", SearchOption.AllDirectories)
            .Select(File.ReadAllText).Where(t => t.Contains("exchstoragetest/results")).Select(t => JsonDocument.Parse(t).RootElement.Clone()));
        string verdict = document.GetProperty("verdict").GetProperty("result").GetString()!;
        _log.WriteLine($"Set's storage test on this disk: {verdict}");
        Assert.Equal("Complete", document.GetProperty("completion").GetString());
        var after = AsPS(Prop(outcome, "StateAfter"));
        Assert.Equal(verdict, Prop(after, "LastResult"));
        var endUtc = document.GetProperty("timeline").GetProperty("testEndUtc").GetDateTime().ToUniversalTime();
        var reported = DateTime.Parse((string)Prop(after, "LastRunUtc")!, System.Globalization.CultureInfo.InvariantCulture, System.Globalization.DateTimeStyles.RoundtripKind).ToUniversalTime();
        Assert.True(Math.Abs((reported - endUtc).TotalSeconds) < 1, $"LastRunUtc {reported:o} is not the test's end {endUtc:o}");
        if (verdict == "Pass")
        {
            Assert.Null(Prop(outcome, "SetError"));
            Assert.True((bool)Prop(outcome, "After")!);
            Assert.Empty(ReasonCodes(after));
        }
        else
        {
            // This disk failed the thresholds: Set says so, naming every reason, and the state stays out of line.
            string error = (string)Prop(outcome, "SetError")!;
            Assert.Contains("the storage test failed (Fail, Complete)", error);
            foreach (var reason in document.GetProperty("verdict").GetProperty("reasons").EnumerateArray())
                Assert.Contains(reason.GetProperty("message").GetString()!, error);
            Assert.False((bool)Prop(outcome, "After")!);
            Assert.Equal(new[] { "ExchStorageValidation:ExchStorageValidation:ResultFailed" }, ReasonCodes(after));
        }
    }

    [Fact]
    public void A_missing_profile_is_a_reason_not_an_error()
    {
        using var dir = new ScratchFolder("dsc");

        var run = _ps.Run(UsingModule + @"
            $resource = [ExchStorageValidation]::new()
            $resource.Name = 'gate'
            $resource.ProfilePath = $args[0]
            $VerbosePreference = 'Continue'
            [pscustomobject]@{ InState = $resource.Test(); State = $resource.Get() }", dir.Combine("missing.profile.json"));

        Assert.True(run.Error == null, run.Error?.ToString() + " " + run.Error?.ScriptStackTrace);
        var outcome = run.Single();
        Assert.False((bool)Prop(outcome, "InState")!);
        var state = AsPS(Prop(outcome, "State"));
        Assert.Equal("NotRun", Prop(state, "LastResult"));
        Assert.Equal(new[] { "ExchStorageValidation:ExchStorageValidation:ProfileNotFound" }, ReasonCodes(state));
        // DSC shows the verbose stream: the reason is there too.
        Assert.Contains(run.Verbose, v => v.Message.StartsWith("ProfileNotFound: ", StringComparison.Ordinal) && v.Message.Contains("missing.profile.json"));
        Assert.Empty(dir.Entries());
    }

    [Fact]
    public void The_state_command_is_hidden_from_users_and_visible_to_the_root_module()
    {
        var run = _ps.Run(@"
            [pscustomobject]@{
                Global = @(Get-Command -Name Get-StorageValidationState -ErrorAction SilentlyContinue).Count
                InModule = @(& (Get-Module ExchStorageTest) { Get-Command -Name Get-StorageValidationState }).Count
            }");

        Assert.Equal(0, (int)Prop(run.Single(), "Global")!);
        Assert.Equal(1, (int)Prop(run.Single(), "InModule")!);
    }
}
