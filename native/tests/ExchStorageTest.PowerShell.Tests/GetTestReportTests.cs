using System.Management.Automation;
using System.Text.RegularExpressions;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>Get-TestReport on real results files of real runs: objects, files, hosts merged, runs compared, refusals.</summary>
[Collection(FinishedRunsCollection.Name)]
public class GetTestReportTests
{
    private const string Command = "ExchStorageTest.Commands.GetTestReportCommand";
    private readonly FinishedRuns _runs;
    private readonly PowerShellSession _ps;

    public GetTestReportTests(FinishedRuns runs)
    {
        _runs = runs;
        _ps = runs.Session;
    }

    private string FirstResults => FinishedRuns.ResultsPathOf(_runs.First);

    [Fact]
    public void A_finished_run_gives_a_report_object_and_its_html_and_esrp_files()
    {
        using var output = new ScratchFolder("gtr");
        var run = _ps.Run("Get-TestReport -Path $args[0] -Format Html, Esrp -OutputPath $args[1]", FirstResults, output.Path);
        Assert.Null(run.Exception);
        var report = run.Single();
        Assert.Equal("ExchStorageTest.TestReport", report.TypeNames[0]);
        Assert.Equal(new[] { (string)_runs.First.Properties["TestId"].Value }, (string[])report.Properties["TestId"].Value);
        FormatViews.AssertMatch(report);
        Assert.Equal(_runs.First.Properties["Result"].Value, report.Properties["Result"].Value);
        Assert.Equal(new[] { FirstResults }, (string[])report.Properties["ResultsPath"].Value);
        Assert.Equal(1, report.Properties["Runs"].Value);
        Assert.Null(report.Properties["Aggregate"].Value);
        Assert.Null(report.Properties["Comparison"].Value);
        Assert.Contains("Overall Test Result", (string)report.Properties["Text"].Value);
        Assert.Equal(1L, ((PSObject)report.Properties["Raw"].Value).Properties["runs"].Value); // the whole event is kept

        // The files are the helper's renderings, named after the results file, in the folder asked for.
        string stem = Path.GetFileNameWithoutExtension(FirstResults);
        var files = (string[])report.Properties["Files"].Value;
        Assert.Equal(new[] { output.Combine(stem + ".html"), output.Combine(stem + ".esrp.txt") }, files);
        Assert.Equal(new[] { stem + ".esrp.txt", stem + ".html" }, output.Entries());
        Assert.StartsWith("<!DOCTYPE html>", File.ReadAllText(files[0]));
        Assert.Contains("Number of servers tested\t1", File.ReadAllText(files[1]));

        // Numbers come from the results file: the ESRP server row carries the run's achieved IOPS, and one
        // Transactional and one Total counter row per instance (two databases).
        var servers = (object[])((PSObject)report.Properties["Esrp"].Value).Properties["servers"].Value;
        double esrpIops = (double)((PSObject)servers.Single()).Properties["achievedTransactionalIops"].Value;
        Assert.Equal((double)_runs.First.Properties["AchievedIops"].Value, esrpIops, 0.01);
        Assert.Equal(4, ((object[])report.Properties["Instances"].Value).Length);
    }

    [Fact]
    public void Without_Format_it_returns_the_report_and_writes_nothing()
    {
        var before = Snapshot(_runs.Folder);
        var report = _ps.Run("Get-TestReport $args[0]", FirstResults).Single();
        Assert.Empty((string[])report.Properties["Files"].Value);
        Assert.Equal(before, Snapshot(_runs.Folder));
    }

    [Fact]
    public void WhatIf_returns_the_report_and_writes_nothing()
    {
        using var output = new ScratchFolder("gtr");
        var run = _ps.Run("Get-TestReport -Path $args[0] -Format Html, Text -OutputPath $args[1] -WhatIf", FirstResults, output.Path);
        Assert.Null(run.Exception);
        Assert.Empty((string[])run.Single().Properties["Files"].Value);
        Assert.Empty(output.Entries());
    }

    [Fact]
    public void A_TestResult_piped_in_binds_by_its_ResultsPath()
    {
        using var output = new ScratchFolder("gtr");
        var run = _ps.Run("$args[0] | Get-TestReport -Format Text -OutputPath $args[1]", _runs.First, output.Path);
        Assert.Null(run.Exception);
        var report = run.Single();
        Assert.Equal(new[] { FirstResults }, (string[])report.Properties["ResultsPath"].Value);
        string written = Assert.Single((string[])report.Properties["Files"].Value);
        Assert.Equal(report.Properties["Text"].Value, File.ReadAllText(written));
    }

    [Fact]
    public void Two_hosts_of_one_run_merge_into_an_aggregate_with_each_hosts_reports_beside_its_results()
    {
        // Two hosts of one run: the same results, the second saved by another machine (as the engine's own
        // multi-host fixtures do); a profile JSON in the tree is not a results file and is skipped.
        using var dir = new ScratchFolder("gtr");
        string hostA = Path.Combine(dir.Sub("hostA"), "results.json");
        string hostB = Path.Combine(dir.Sub("hostB"), "results.json");
        string json = File.ReadAllText(FirstResults);
        var machine = Regex.Match(json, "\"machineName\": \"([^\"]*)\"");
        Assert.True(machine.Success);
        File.WriteAllText(hostA, json);
        File.WriteAllText(hostB, json.Replace(machine.Value, "\"machineName\": \"" + machine.Groups[1].Value + "-B\""));
        Assert.Null(_ps.Run(FinishedRuns.SmallProfile + " -SaveTo $args[1]", dir.Path, dir.Combine("profile.json")).Exception);

        var run = _ps.Run("Get-TestReport -Path $args[0] -Format Html, Esrp", dir.Path);
        Assert.Null(run.Exception);
        var report = run.Single();
        Assert.Equal(new[] { hostA, hostB }, (string[])report.Properties["ResultsPath"].Value);
        Assert.Equal(1, report.Properties["Runs"].Value);
        Assert.Equal(2, report.Properties["Hosts"].Value);
        var aggregate = PSObject.AsPSObject(report.Properties["Aggregate"].Value);
        Assert.Equal("ExchStorageTest.ReportAggregate", aggregate.TypeNames[0]);
        Assert.Equal(2, aggregate.Properties["Hosts"].Value);
        Assert.Equal(2 * (double)_runs.First.Properties["TargetIops"].Value, (double)aggregate.Properties["TargetIops"].Value, 3);
        Assert.Equal(2 * (double)_runs.First.Properties["AchievedIops"].Value, (double)aggregate.Properties["AchievedIops"].Value, 0.02);
        Assert.Contains("run on 2 host(s)", (string)report.Properties["Text"].Value);

        // Each host's reports beside its own results; the aggregate (text and ESRP) in the folder holding them all.
        var files = (string[])report.Properties["Files"].Value;
        Assert.Contains(dir.Combine("hostA", "results.html"), files);
        Assert.Contains(dir.Combine("hostB", "results.esrp.txt"), files);
        string aggregateEsrp = Assert.Single(files, f => Regex.IsMatch(Path.GetFileName(f), "^Aggregate_.*\\.esrp\\.txt$"));
        Assert.Equal(dir.Path, Path.GetDirectoryName(aggregateEsrp));
        Assert.Contains("Number of servers tested\t2", File.ReadAllText(aggregateEsrp));
        Assert.All(files, f => Assert.True(File.Exists(f), f));
    }

    [Fact]
    public void Two_runs_of_one_host_are_compared_side_by_side()
    {
        var report = _ps.Run("Get-TestReport -Path $args[0]", _runs.ResultsFolder).Single();
        // Results file names are not zero-padded (Performance_2024_6_1_9_5_7_<id>, as Jetstress names them), so
        // the folder's order is not the runs' order; the comparison orders the runs by their start.
        Assert.Equal(new[] { FirstResults, FinishedRuns.ResultsPathOf(_runs.Second) }.Order(), ((string[])report.Properties["ResultsPath"].Value).Order());
        Assert.Equal(2, report.Properties["Runs"].Value);
        Assert.Equal(1, report.Properties["Hosts"].Value);
        Assert.Null(report.Properties["Aggregate"].Value);
        var comparison = (PSObject)report.Properties["Comparison"].Value;
        Assert.Equal(2, ((object[])comparison.Properties["labels"].Value).Length);
        var achieved = (PSObject)((object[])comparison.Properties["rows"].Value).Cast<PSObject>()
            .Single(r => (string)r.Properties["metric"].Value == "Achieved Transactional I/O per Second");
        var values = ((object[])achieved.Properties["values"].Value).Select(Convert.ToDouble).ToArray();
        Assert.Equal((double)_runs.First.Properties["AchievedIops"].Value, values[0], 0.01);
        Assert.Equal((double)_runs.Second.Properties["AchievedIops"].Value, values[1], 0.01);
    }

    [Fact]
    public void Runs_given_a_label_each_are_compared_under_their_labels_on_one_page()
    {
        using var output = new ScratchFolder("gtr");
        var run = _ps.Run("Get-TestReport -Path $args[0], $args[1] -Label 'before firmware', 'after firmware' -Format Html -OutputPath $args[2]",
            FirstResults, FinishedRuns.ResultsPathOf(_runs.Second), output.Path);
        Assert.Null(run.Exception);
        var comparison = (PSObject)run.Single().Properties["Comparison"].Value;
        Assert.Equal(new object[] { "before firmware", "after firmware" }, (object[])comparison.Properties["labels"].Value);
        string page = Assert.Single(Directory.GetFiles(output.Path, "Comparison_*.html"));
        string html = File.ReadAllText(page);
        var charts = Regex.Matches(html, "<svg class=\"chart\".*?</svg>", RegexOptions.Singleline).Select(m => m.Value).ToList();
        Assert.NotEmpty(charts);
        Assert.All(charts, c => Assert.Contains(">after firmware</text>", c));
        Assert.All(charts, c => Assert.Contains(">before firmware</text>", c));
    }

    [Fact]
    public void The_vendors_metadata_file_fills_the_rows_no_host_can_discover()
    {
        string metadata = Path.Combine(PowerShellSession.RepoRoot, "docs", "esrp-metadata.example.json");
        var report = _ps.Run("Get-TestReport -Path $args[0] -MetadataPath $args[1]", FirstResults, metadata).Single();
        var esrp = (PSObject)report.Properties["Esrp"].Value;
        var items = ((object[])esrp.Properties["deployment"].Value).Cast<PSObject>()
            .SelectMany(t => ((object[])t.Properties["items"].Value).Cast<PSObject>()).ToList();
        var cache = items.Single(i => (string)i.Properties["label"].Value == "Storage cache");
        Assert.Equal("16 GB", cache.Properties["value"].Value);
        Assert.True((bool)cache.Properties["supplied"].Value);
        Assert.DoesNotContain(items, i => (string)i.Properties["value"].Value == "(to be supplied)" && (string)i.Properties["label"].Value == "RAID level");
    }

    [Fact]
    public void A_metadata_row_no_table_has_is_refused_by_name_before_any_file_is_written()
    {
        using var output = new ScratchFolder("gtr");
        using var input = new ScratchFolder("gtr-meta");
        string metadata = input.Combine("esrp.json");
        File.WriteAllText(metadata, "{ \"schema\": \"exchstoragetest/esrp-metadata\", \"values\": { \"RAID Levle\": \"RAID 10\" } }");
        var run = _ps.Run("Get-TestReport -Path $args[0] -MetadataPath $args[1] -Format Html, EsrpHtml -OutputPath $args[2]", FirstResults, metadata, output.Path);
        Assert.Equal("ExchStorageTest.MetadataUnknownLabel," + Command, run.Error?.FullyQualifiedErrorId);
        Assert.Equal("RAID Levle", run.Error!.TargetObject);
        Assert.Contains("did you mean \"RAID level\"?", run.Error.Exception.Message);
        Assert.Empty(output.Entries());
    }

    public static TheoryData<string, string> BadInputs => new()
    {
        // $args: [0] a scratch folder that must stay empty, [1] a folder of fixtures (hostA and hostB each with a
        // results.json), [2] a real results file.
        { "Get-TestReport -Path ([IO.Path]::Combine($args[1], 'no-results.json')) -OutputPath $args[0] -Format Html", "ResultsNotFound" },
        { "Get-TestReport -Path ([IO.Path]::Combine($args[1], 'empty-folder')) -OutputPath $args[0] -Format Html", "ResultsNotFound" },
        { "Get-TestReport -Path ([IO.Path]::Combine($args[1], 'no-such-folder')) -Format Html", "ResultsNotFound" },
        { "[pscustomobject]@{ ResultsPath = $null } | Get-TestReport -OutputPath $args[0] -Format Html", "ResultsNotFound" },
        { "Get-TestReport -Path $args[2] -OutputPath ([IO.Path]::Combine($args[0], 'missing')) -Format Html", "OutputPathNotFound" },
        { "Get-TestReport -Path ([IO.Path]::Combine($args[1], 'other.json')) -OutputPath $args[0] -Format Html", "ResultsMalformed" },
        { "Get-TestReport -Path $args[2] -OutputPath $args[0] -Format Pdf", "ParameterArgumentValidationError" },
        { "Get-TestReport -Path ([IO.Path]::Combine($args[1], 'hostA')), ([IO.Path]::Combine($args[1], 'hostB')) -OutputPath $args[0] -Format Html", "ReportNamesCollide" },
        { "Get-TestReport -Path $args[2] -Label 'one', 'two' -OutputPath $args[0] -Format Html", "LabelCountMismatch" },
        { "Get-TestReport -Path $args[2] -MetadataPath ([IO.Path]::Combine($args[1], 'no-metadata.json')) -OutputPath $args[0] -Format Html", "MetadataNotFound" },
        { "Get-TestReport -Path $args[2] -MetadataPath ([IO.Path]::Combine($args[1], 'other.json')) -OutputPath $args[0] -Format Html", "MetadataMalformed" },
    };

    [Theory]
    [MemberData(nameof(BadInputs))]
    public void Bad_input_is_refused_with_its_ErrorId_and_nothing_is_written(string script, string errorId)
    {
        using var target = new ScratchFolder("gtr");
        using var fixtures = new ScratchFolder("gtr-fix");
        fixtures.Sub("empty-folder");
        File.WriteAllText(fixtures.Combine("empty-folder", "profile.json"), "{ \"schema\": \"exchstoragetest/profile\" }");
        File.WriteAllText(fixtures.Combine("other.json"), "{ \"schema\": \"something/else\" }");
        File.Copy(FirstResults, Path.Combine(fixtures.Sub("hostA"), "results.json"));
        File.Copy(FirstResults, Path.Combine(fixtures.Sub("hostB"), "results.json"));
        var results = Snapshot(_runs.Folder);

        var run = _ps.Run(script + " -Verbose", target.Path, fixtures.Path, FirstResults);
        Assert.Empty(run.Output);
        string expected = errorId.StartsWith("Parameter", StringComparison.Ordinal) ? errorId : "ExchStorageTest." + errorId;
        Assert.Equal(expected + "," + Command, run.Error?.FullyQualifiedErrorId);
        Assert.Empty(target.Entries());
        Assert.Equal(new[] { "empty-folder", Path.Combine("empty-folder", "profile.json"), "hostA", Path.Combine("hostA", "results.json"), "hostB", Path.Combine("hostB", "results.json"), "other.json" }, fixtures.Entries());
        Assert.Equal(results, Snapshot(_runs.Folder));
        if (!errorId.EndsWith("Malformed", StringComparison.Ordinal) && !errorId.StartsWith("Metadata", StringComparison.Ordinal)) // the helper reads the files' contents
            Assert.DoesNotContain(run.Verbose, v => v.Message.StartsWith("ExchStorageTest engine", StringComparison.Ordinal));
    }

    /// <summary>Every entry with its size and time: a report rewritten in place changes it.</summary>
    private static List<string> Snapshot(ScratchFolder folder) =>
        folder.Entries().Select(e => new FileInfo(folder.Combine(e))).Select(f => $"{f.FullName} {(f.Exists ? f.Length : -1)} {f.LastWriteTimeUtc.Ticks}").ToList();
}
