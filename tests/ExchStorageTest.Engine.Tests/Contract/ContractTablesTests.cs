using ExchStorageTest.Engine.Tests.Support;
using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Engine.Tests.Contract;

/// <summary>
/// The contract's tables against the code that derives from them and the documents that describe them: every run setting
/// (<see cref="RunSettingTable"/>) is a field of docs/protocol.md, a parameter of docs/Invoke-StorageTest.md when it has one
/// and a field of docs/results-schema.md when the results record it; every test type (<see cref="TestTypes"/>) has a run and
/// its row in docs/module.md's test-type table says what its traits say. A failure names the entry.
/// </summary>
public class ContractTablesTests
{
    [Fact]
    public void Every_setting_is_a_request_field_that_run_and_plan_take_with_one_entry_each()
    {
        Assert.Equal(RunSettingTable.All.Count, RunSettingTable.All.Select(s => s.Field).Distinct(StringComparer.OrdinalIgnoreCase).Count());
        foreach (var setting in RunSettingTable.All)
        {
            Assert.Contains(setting.Field, RequestFields.All);
            Assert.True(EngineCommands.Find(EngineCommands.Run)!.Takes(setting.Field), $"run does not take {setting.Field}");
            Assert.True(EngineCommands.Find(EngineCommands.Plan)!.Takes(setting.Field), $"plan does not take {setting.Field}");
            if (setting.Rule is { } rule)
            {
                Assert.Equal(setting.Field, rule.Field);
                Assert.Contains(rule, RunRules.Numbers);
                Assert.Same(rule.Code, ErrorCodes.Find(rule.Code.Code));
            }
        }
        Assert.Equal(RequestFields.All.Count, RequestFields.All.Distinct(StringComparer.OrdinalIgnoreCase).Count());
    }

    [Fact]
    public void The_engine_reads_every_setting_as_its_kind_says()
    {
        foreach (var setting in RunSettingTable.All)
        {
            // A setting without a property is read by its kind from EngineRequest.OtherSettings; one with a property must agree.
            if (EngineRequest.PropertyOf(setting) is not { } property) continue;
            Type type = Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType;
            Type expected = EngineRequest.TypeOf(setting.Kind);
            bool agrees = type == expected || (expected == typeof(string) && type.IsEnum);
            Assert.True(agrees, $"EngineRequest.{property.Name} is {type.Name}; the table's {setting.Field} is {setting.Kind} ({expected.Name}).");
        }
    }

    [Fact]
    public void A_setting_without_a_property_is_read_by_its_entry()
    {
        var entry = new RunSettingEntry("scratchSetting", SettingKind.Count, "ScratchSetting", engineDefault: 7L, recorded: RunSettingTable.InSettings("scratchSetting"));
        var request = new EngineRequest();
        Assert.Equal(7d, request.Number(entry));
        request.OtherSettings = new() { ["ScratchSetting"] = System.Text.Json.JsonDocument.Parse("12").RootElement };
        Assert.Equal(12d, request.Number(entry));
    }

    [Fact]
    public void Every_setting_is_in_the_docs()
    {
        string protocol = Docs("protocol.md"), cmdlet = Docs("Invoke-StorageTest.md"), results = Docs("results-schema.md");
        var missing = new List<string>();
        foreach (var setting in RunSettingTable.All)
        {
            if (!protocol.Contains($"| `{setting.Field}` |", StringComparison.Ordinal)) missing.Add($"{setting.Field}: no row in docs/protocol.md's request table");
            if (setting.Parameter is string parameter && !setting.FromRun && !Regex.IsMatch(cmdlet, $"^### -{parameter}$", RegexOptions.Multiline))
                missing.Add($"{setting.Field}: no '### -{parameter}' in docs/Invoke-StorageTest.md");
            if (setting.Recorded is string recorded && !results.Contains($"`{recorded.Split('.').Last()}`", StringComparison.Ordinal))
                missing.Add($"{setting.Field}: recorded as {recorded}, which docs/results-schema.md does not name");
        }
        Assert.True(missing.Count == 0, string.Join("\n", missing));
    }

    [Fact]
    public void Every_test_type_has_its_traits_and_one_run()
    {
        Assert.Equal(Enum.GetValues<TestType>(), TestTypes.All.Select(t => t.Type));
        Assert.Equal(Enum.GetValues<TestType>().OrderBy(t => t), TestRunner.Runs.Keys.OrderBy(t => t));
        Assert.Equal("Performance, Stress or Throughput", TestTypes.TransactionalNames);
        // A JetstressConfig.xml's Type: Jetstress's own four (ExchangeDsc's ValidateSet), whatever else the table holds.
        Assert.Equal(new[] { "Performance", "Stress", "DatabaseBackup", "SoftRecovery" }, JetstressConfig.TestTypes);
    }

    [Fact]
    public void The_test_type_table_of_the_docs_states_every_type_s_traits()
    {
        string module = Docs("module.md");
        string protocol = Docs("protocol.md");
        var missing = new List<string>();
        foreach (var t in TestTypes.All)
        {
            string duration = t.DefaultDurationSeconds % 3600 == 0 ? $"{t.DefaultDurationSeconds / 3600:0} h" : $"{t.DefaultDurationSeconds / 60:0} min";
            string row = $"| {t.Type} | {(t.Transactional ? "yes" : "no")} | {duration} | {t.ThresholdsPreset} | {t.JetstressName ?? "none"} | {t.EsrpTitle} |";
            if (!module.Contains(row, StringComparison.Ordinal)) missing.Add($"{t.Type}: docs/module.md's test-type table has no row {row}");
            if (!Regex.IsMatch(protocol, $@"^\| `testType` \|.*`{t.Type}`", RegexOptions.Multiline)) missing.Add($"{t.Type}: docs/protocol.md's testType row does not name it");
        }
        Assert.True(missing.Count == 0, string.Join("\n", missing));
    }

    private static string Docs(string name) => File.ReadAllText(RepoFiles.Path(Path.Combine("docs", name))).ReplaceLineEndings("\n");
}
