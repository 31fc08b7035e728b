using System.Collections;
using System.Management.Automation;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Tests.Runs;

/// <summary>The run settings, declared once (<see cref="RunSetting"/>): from the parameters bound to the request the engine gets.</summary>
public sealed class RunSettingsTests
{
    private static readonly MailboxProfile Profile = new() { Name = "p", MailboxCount = 20, IopsPerMailbox = 0.5, MailboxSizeMB = 10, DatabasePaths = new[] { "/db" } };

    private static JsonObject Request(IDictionary bound) =>
        RunSettings.FromParameters(bound, path => "/resolved/" + path).ToRequest(EngineCommands.Run, Profile, testId: "t1");

    [Fact]
    public void Only_the_settings_given_reach_the_request_each_by_its_field_and_kind()
    {
        var bound = new Hashtable
        {
            ["TestType"] = "Stress", ["Duration"] = TimeSpan.FromMinutes(2), ["Warmup"] = TimeSpan.FromSeconds(30), ["ThreadCount"] = 4,
            ["OutputPath"] = "out", ["ContinueOnError"] = new SwitchParameter(true), ["NoCpuAffinity"] = new SwitchParameter(true),
            ["SampleIntervalSeconds"] = 2.0, ["Thresholds"] = new Hashtable { ["averageDatabaseReadLatencyMs"] = "15" },
            ["AllowBufferedIo"] = new SwitchParameter(false), ["StressDuration"] = TimeSpan.FromHours(1), ["ComputerName"] = new[] { "a" },
        };
        JsonObject request = Request(bound);

        Assert.Equal("Stress", request.GetString(RequestFields.TestType));
        Assert.Equal(120.0, request.GetNumber(RequestFields.DurationSeconds));
        Assert.Equal(30.0, request.GetNumber(RequestFields.WarmupSeconds));
        Assert.Equal(4.0, request.GetNumber(RequestFields.ThreadCount));
        Assert.Equal("/resolved/out", request.GetString(RequestFields.OutputPath));
        Assert.Equal("true", request.GetString(RequestFields.ContinueOnError));
        // -NoCpuAffinity turns the engine's default off.
        Assert.Equal("false", request.GetString(RequestFields.PinWorkerThreads));
        Assert.Equal(2.0, request.GetNumber(RequestFields.SampleIntervalSeconds));
        Assert.Equal(15.0, request.GetObject(RequestFields.Thresholds)!.GetNumber("averageDatabaseReadLatencyMs"));
        // An absent switch, a parameter that is no run setting: not in the request; every field a run takes.
        Assert.False(request.Contains(RequestFields.AllowBufferedIo));
        var shape = EngineCommands.Find(EngineCommands.Run)!;
        Assert.All(request, member => Assert.True(shape.Takes(member.Key), member.Key));
    }

    [Fact]
    public void Nothing_given_is_the_engine_s_defaults_and_an_empty_path_is_not_given()
    {
        JsonObject request = Request(new Hashtable { ["OutputPath"] = " ", ["RestoreFromPath"] = "" });
        Assert.Equal(new[] { RequestFields.Protocol, RequestFields.Command, RequestFields.TestId, RequestFields.Profile, RequestFields.TestType }, request.Select(m => m.Key));
        Assert.Equal(RunDefaults.TestType.ToString(), request.GetString(RequestFields.TestType));
    }

    [Fact]
    public void Every_declared_setting_is_a_parameter_of_Invoke_StorageTest_and_a_field_the_engine_takes()
    {
        var parameters = typeof(Commands.InvokeStorageTestCommand).GetProperties().Select(p => p.Name).ToHashSet();
        var shape = EngineCommands.Find(EngineCommands.Run)!;
        // The fault script's host is the run's to name (a start file, a multi-host run's first host), not a parameter.
        foreach (RunSetting setting in RunSetting.All.Where(s => !s.FromRun))
        {
            Assert.Contains(setting.Parameter, parameters);
            Assert.True(shape.Takes(setting.Field), setting.Field);
        }
        Assert.Equal(new[] { RunSetting.FaultScriptHost }, RunSetting.All.Where(s => s.FromRun));
        Assert.True(shape.Takes(RunSetting.FaultScriptHost.Field));
        Assert.Equal(RunSetting.All.Count, RunSetting.All.Select(s => s.Field).Distinct().Count());
    }

    [Fact]
    public void With_changes_one_setting_and_carries_every_other()
    {
        RunSettings given = RunSettings.FromParameters(new Hashtable { ["TestType"] = "EsrpSuite", ["ThreadCount"] = 3, ["OutputPath"] = "suite" }, p => "/" + p);
        RunSettings test = given.With(RunSetting.TestType, "Performance").With(RunSetting.OutputPath, null);
        Assert.Equal("Performance", test.TestType);
        Assert.Null(test.OutputPath);
        Assert.Equal(3, test[RunSetting.ThreadCount]);
        Assert.Equal("EsrpSuite", given.TestType);
        Assert.Equal("/suite", given.OutputPath);
    }

    [Fact]
    public void Ids_sort_by_their_instant_and_differ()
    {
        var at = new DateTime(2026, 11, 25, 0, 10, 5, DateTimeKind.Utc);
        string a = RunIds.New(at), b = RunIds.New(at);
        Assert.Matches("^20261125-001005-[0-9a-f]{8}$", a);
        Assert.NotEqual(a, b);
    }
}
