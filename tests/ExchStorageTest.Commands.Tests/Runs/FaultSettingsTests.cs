using System.Collections;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;
using ExchStorageTest.Reports;
using ExchStorageTest.Runs;
using ExchStorageTest.Tasks;

namespace ExchStorageTest.Tests.Runs;

/// <summary>
/// The failure-mode settings (docs/failure-mode.md), declared once in <see cref="RunSetting"/>: what the request, the
/// start file and a scheduled task's runner carry, where the fault script runs, and Get-TestReport's re-judge request.
/// </summary>
public sealed class FaultSettingsTests : IDisposable
{
    private static readonly MailboxProfile Profile = new() { Name = "p", MailboxCount = 20, IopsPerMailbox = 0.5, MailboxSizeMB = 10, DatabasePaths = new[] { "/db" } };
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "exst-fault-" + Guid.NewGuid().ToString("N")[..8]);

    public FaultSettingsTests() => Directory.CreateDirectory(_folder);

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static RunSettings Given(IDictionary bound) => RunSettings.FromParameters(bound, path => "/resolved/" + path);

    private static Hashtable Window() => new()
    {
        ["Duration"] = TimeSpan.FromMinutes(3), ["FaultAt"] = TimeSpan.FromMinutes(1), ["FaultLength"] = TimeSpan.FromSeconds(45),
        ["StallLimit"] = TimeSpan.FromSeconds(5), ["FaultScript"] = "failover.ps1",
    };

    [Fact]
    public void The_window_reaches_the_request_in_seconds_and_the_script_as_an_absolute_path_and_no_host_is_named_for_a_local_run()
    {
        var bound = Window();
        // Not a parameter of Invoke-StorageTest: only the run names the script's host.
        bound["FaultScriptComputerName"] = "ELSEWHERE";
        JsonObject request = Given(bound).ToRequest(EngineCommands.Run, Profile, testId: "t1");

        Assert.Equal(60.0, request.GetNumber(RequestFields.FaultAtSeconds));
        Assert.Equal(45.0, request.GetNumber(RequestFields.FaultLengthSeconds));
        Assert.Equal(5.0, request.GetNumber(RequestFields.StallLimitSeconds));
        Assert.Equal("/resolved/failover.ps1", request.GetString(RequestFields.FaultScript));
        Assert.False(request.Contains(RequestFields.FaultScriptHost));
        var shape = EngineCommands.Find(EngineCommands.Run)!;
        Assert.All(request, member => Assert.True(shape.Takes(member.Key), member.Key));
    }

    [Fact]
    public void WhatIf_states_the_window_the_stall_limit_and_where_the_script_runs()
    {
        string local = TestPlanText.Describe(null, Profile, Given(Window()));
        Assert.Contains("Failure-mode window: 00:01:00 into the measured window, lasting at most 00:00:45, recovery included", local);
        Assert.Contains("stall limit 00:00:05", local);
        Assert.Contains("The fault script '/resolved/failover.ps1' starts at the window's start on this computer", local);

        string named = TestPlanText.Describe(null, Profile, Given(Window()).With(RunSetting.FaultScriptHost, "MBX01"));
        Assert.Contains("on the host 'MBX01' only", named);

        string defaults = FaultText.Describe(Given(new Hashtable { ["FaultAt"] = TimeSpan.FromMinutes(1) }))!;
        Assert.Contains("lasting at most 00:01:00 (the default)", defaults);
        Assert.Contains("stall limit 00:00:20 (the default)", defaults);
        Assert.Contains("No fault script", defaults);
        Assert.Null(FaultText.Describe(RunSettings.None));
    }

    [Fact]
    public void A_start_file_names_the_script_s_host_this_computer_by_default_and_an_older_file_its_creator()
    {
        var at = new DateTime(2026, 11, 25, 0, 10, 0, DateTimeKind.Utc);
        string named = Path.Combine(_folder, "named.json");
        Assert.True(RunStartFile.TryCreate(named, "r1", at, 2, faultScriptHost: "MBX02"));
        Assert.Equal("MBX02", RunStartFile.TryRead(named, out _)!.FaultScriptHost);

        string byDefault = Path.Combine(_folder, "default.json");
        Assert.True(RunStartFile.TryCreate(byDefault, "r2", at, null));
        Assert.Equal(Environment.MachineName, RunStartFile.TryRead(byDefault, out _)!.FaultScriptHost);
        Assert.Equal(Environment.MachineName, JsonReader.Parse(File.ReadAllText(byDefault)) is JsonObject o ? o.GetString(RequestFields.FaultScriptHost) : null);

        string older = Path.Combine(_folder, "older.json");
        File.WriteAllText(older, "{\"schema\": \"exchstoragetest/run\", \"schemaVersion\": 1, \"runId\": \"r3\", \"startAtUtc\": \"2026-11-25T00:10:00Z\", \"createdBy\": \"MBX03\"}");
        Assert.Equal("MBX03", RunStartFile.TryRead(older, out _)!.FaultScriptHost);
    }

    [Fact]
    public void A_start_file_host_s_plan_checks_the_script_only_where_it_will_run()
    {
        RunSettings settings = Given(Window());
        string startFile = Path.Combine(_folder, RunStartFile.FileName);
        // This host will create the file, naming itself.
        Assert.Equal(Environment.MachineName, StartFileRun.ForPlan(settings, startFile, timeout: null).FaultScriptHost);
        // Waiting for another's file: the script is left to the run's own plan, once the file names its host.
        RunSettings waiting = StartFileRun.ForPlan(settings, startFile, TimeSpan.FromMinutes(5));
        Assert.Null(waiting.FaultScript);
        Assert.Equal(60.0, waiting.ToRequest(EngineCommands.Plan, Profile).GetNumber(RequestFields.FaultAtSeconds));
        // The file exists: its host.
        Assert.True(RunStartFile.TryCreate(startFile, "r1", new DateTime(2026, 11, 25, 0, 10, 0, DateTimeKind.Utc), 2, faultScriptHost: "MBX07"));
        Assert.Equal("MBX07", StartFileRun.ForPlan(settings, startFile, TimeSpan.FromMinutes(5)).FaultScriptHost);
        Assert.Null(StartFileRun.ForPlan(RunSettings.None, startFile, null).FaultScriptHost);
    }

    [Fact]
    public void A_scheduled_task_s_runner_passes_the_window_on_and_a_bad_one_is_refused_before_anything_is_written()
    {
        string script = Path.Combine(_folder, "failover.ps1");
        File.WriteAllText(script, "exit 0");
        RunSettings settings = RunSettings.FromParameters(new Hashtable
        {
            ["Duration"] = TimeSpan.FromMinutes(3), ["FaultAt"] = TimeSpan.FromMinutes(1), ["StallLimit"] = TimeSpan.FromSeconds(5), ["FaultScript"] = script,
        }, p => p);
        UnplannedSettings.Check(settings);
        string runner = RunnerScript.Text("Lab", "/m/ExchStorageTest.psd1", "/p.json", "/out", settings);
        Assert.Contains("$parameters.Duration = [timespan]::Parse('00:03:00', [System.Globalization.CultureInfo]::InvariantCulture)", runner);
        Assert.Contains("$parameters.FaultAt = [timespan]::Parse('00:01:00', [System.Globalization.CultureInfo]::InvariantCulture)", runner);
        Assert.Contains("$parameters.StallLimit = [timespan]::Parse('00:00:05', [System.Globalization.CultureInfo]::InvariantCulture)", runner);
        Assert.Contains($"$parameters.FaultScript = '{script}'", runner);
        Assert.DoesNotContain("FaultLength", runner);

        var tooLate = Assert.Throws<StorageTestException>(() => UnplannedSettings.Check(settings.With(RunSetting.FaultAt, TimeSpan.FromMinutes(2.5))));
        Assert.Equal("ExchStorageTest." + ErrorCodes.FaultWindowInvalid.Code, tooLate.ErrorRecord.FullyQualifiedErrorId);
        var zero = Assert.Throws<StorageTestException>(() => UnplannedSettings.Check(settings.With(RunSetting.FaultAt, TimeSpan.Zero)));
        Assert.Equal("ExchStorageTest." + ErrorCodes.FaultAtOutOfRange.Code, zero.ErrorRecord.FullyQualifiedErrorId);
        Assert.Contains("'00:00:00'", zero.Message);
        var missing = Assert.Throws<StorageTestException>(() => UnplannedSettings.Check(settings.With(RunSetting.FaultScript, Path.Combine(_folder, "none.ps1"))));
        Assert.Equal("ExchStorageTest." + ErrorCodes.FaultScriptNotFound.Code, missing.ErrorRecord.FullyQualifiedErrorId);
    }

    [Fact]
    public void A_rejudgement_is_the_report_request_with_only_the_fields_given()
    {
        var rejudgement = new Rejudgement
        {
            FaultAt = TimeSpan.FromSeconds(60), StallLimit = TimeSpan.FromSeconds(4),
            Thresholds = new JsonObject().Set(ThresholdFields.AverageDatabaseReadLatencyMs, 15.0), From = TimeSpan.FromSeconds(10), To = TimeSpan.FromSeconds(170),
        };
        rejudgement.Check();
        JsonObject request = rejudgement.Apply(ReportRequest.For(new[] { "/r/results.json" }, new[] { "Html" }, null));
        Assert.Equal("true", request.GetString(RequestFields.Rejudge));
        Assert.Equal(60.0, request.GetNumber(RequestFields.FaultAtSeconds));
        Assert.False(request.Contains(RequestFields.FaultLengthSeconds));
        Assert.Equal(4.0, request.GetNumber(RequestFields.StallLimitSeconds));
        Assert.Equal(15.0, request.GetObject(RequestFields.Thresholds)!.GetNumber(ThresholdFields.AverageDatabaseReadLatencyMs));
        Assert.Equal(10.0, request.GetNumber(RequestFields.WindowFromSeconds));
        Assert.Equal(170.0, request.GetNumber(RequestFields.WindowToSeconds));
        var shape = EngineCommands.Find(EngineCommands.Report)!;
        Assert.All(request, member => Assert.True(shape.Takes(member.Key), member.Key));
        Assert.Contains("the fault window from 00:01:00 into the measured window", rejudgement.Describe());

        var backwards = Assert.Throws<StorageTestException>(() => new Rejudgement { From = TimeSpan.FromSeconds(90), To = TimeSpan.FromSeconds(30) }.Check());
        Assert.Equal("ExchStorageTest." + ErrorCodes.FaultWindowInvalid.Code, backwards.ErrorRecord.FullyQualifiedErrorId);
        var limit = Assert.Throws<StorageTestException>(() => new Rejudgement { StallLimit = TimeSpan.FromMilliseconds(500) }.Check());
        Assert.Equal("ExchStorageTest." + ErrorCodes.StallLimitOutOfRange.Code, limit.ErrorRecord.FullyQualifiedErrorId);
    }
}
