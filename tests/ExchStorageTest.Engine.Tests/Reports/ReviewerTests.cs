using ExchStorageTest.Engine.Tests.Support;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Reports;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>
/// Reports an ESRP reviewer can sign: every label and unit true of the run. Each test
/// reads a results file written by a real run (<see cref="ResultsFixture"/>) and renders it through
/// the public renderers, so it describes what a user gets from that file.
/// </summary>
public class ReviewerTests
{
    private static string Esrp(Engine.Results.TestResults r) => EsrpSummary.From(new[] { r }).RenderText();

    /// <summary>The rows of one HTML fieldset, each as its cell texts.</summary>
    private static List<string[]> HtmlRows(string html, string legend)
    {
        var section = Regex.Match(html, "<legend>" + Regex.Escape(legend) + "</legend>(.*?)</fieldset>", RegexOptions.Singleline);
        Assert.True(section.Success, $"No '{legend}' section.");
        return Rows(section.Groups[1].Value);
    }

    private static List<string[]> Rows(string fragment)
    {
        return Regex.Matches(fragment, "<tr>(.*?)</tr>", RegexOptions.Singleline)
            .Select(m => Regex.Matches(m.Groups[1].Value, "<t[dh][^>]*>(.*?)</t[dh]>", RegexOptions.Singleline)
                .Select(c => System.Net.WebUtility.HtmlDecode(Regex.Replace(c.Groups[1].Value, "<[^>]+>", ""))).ToArray())
            .ToList();
    }

    // 1. The ESRP profile row carries the profile's own headroom.
    [Fact]
    public void Esrp_profile_row_carries_the_profiles_own_headroom()
    {
        string demo = Esrp(ResultsFixture.Load(ResultsFixture.Demo));
        Assert.DoesNotContain("include 20% headroom", demo, StringComparison.Ordinal);
        Assert.Contains("Simulated profile: I/O's per second per mailbox (IOPS, include 0% headroom)\t0.500 IOPS\n", demo, StringComparison.Ordinal);

        string tuned = Esrp(ResultsFixture.Load(ResultsFixture.Tuned));
        Assert.Contains("Simulated profile: I/O's per second per mailbox (IOPS, include 20% headroom)\t0.100 (0.120 tested)\n", tuned, StringComparison.Ordinal);
    }

    // 2a. The description says what ran: sessions in all and per database, not "threads/db".
    [Fact]
    public void Test_description_states_the_sessions_that_ran()
    {
        var old = ResultsFixture.Load(ResultsFixture.Tuned);
        foreach (var rendering in new[] { TextReport.Render(old), HtmlReport.Render(old), XmlReport.Render(old) })
        {
            Assert.DoesNotContain("threads/db", rendering, StringComparison.Ordinal);
            // Written before the results recorded sessions per database: the global count only (Jetstress 2013's meaning).
            Assert.Contains("2 sessions in all, auto-tuned", rendering, StringComparison.Ordinal);
        }

        var recorded = ResultsFixture.Load(ResultsFixture.Tuned, j =>
        {
            foreach (var i in j["instances"]!.AsArray()) i!["sessions"] = 1;
        });
        Assert.Matches(@"\n  Test Description\s+200 mailboxes of 5 MiB at 0\.120 IOPS tested, 2 databases, 2 copies, 2 sessions \(1 per database\), auto-tuned\n",
            TextReport.Render(recorded));

        // One session asked for two databases: each database still runs one, and the report says 2.
        var fewer = ResultsFixture.Load(ResultsFixture.Tuned, j =>
        {
            j["settings"]!["threadCount"] = 1;
            j["settings"]!["autoTuned"] = false;
            foreach (var i in j["instances"]!.AsArray()) i!["sessions"] = 1;
        });
        string text = TextReport.Render(fewer);
        Assert.Matches(@"\n  Thread Count\s+2 \(1 asked\)\n", text);
        Assert.Contains("2 copies, 2 sessions (1 per database)\n", text, StringComparison.Ordinal);
    }

    // 2b. Transient tuning steps are not judged and say so, instead of "0.000 IOPS, Passed: No".
    [Fact]
    public void Transient_tuning_steps_are_labelled_transient()
    {
        var r = ResultsFixture.Load(ResultsFixture.Tuned);
        var rows = HtmlRows(HtmlReport.Render(r), "Tuning Steps");
        // Results from before steps recorded their target: no Target Rate column (it would be empty on every row).
        var transient = Assert.Single(rows, row => row.Contains("Transient"));
        Assert.DoesNotContain("0.000", transient[3]);
        Assert.Equal("not measured (transient)", transient[3]);
        Assert.Equal("not judged (transient)", transient[6]);
        var stable = Assert.Single(rows, row => row.Contains("Stable"));
        Assert.Equal("2044.774", stable[3]);
        Assert.Equal("Yes", stable[6]);

        string text = TextReport.Render(r);
        Assert.Matches(@"\n  [^\n]*Transient\s+not measured \(transient\)[^\n]*not judged \(transient\)", text);
    }

    // The column was always empty. Each step records the target it was judged against.
    [Fact]
    public void Tuning_steps_show_the_target_they_were_judged_against()
    {
        var r = ResultsFixture.Load(ResultsFixture.Tuned);
        foreach (var step in r.TuningLog) step.TargetRateIops = 123.456;
        var rows = HtmlRows(HtmlReport.Render(r), "Tuning Steps");
        Assert.Equal("Target Rate (IOPS)", rows[0][2]);
        Assert.All(rows.Skip(1), row => Assert.Equal("123.456", row[2]));
        Assert.Matches(@"Thread Count\s+Target Rate \(IOPS\)\s+Phase", TextReport.Render(r));
    }

    // 3. Host counters: readable sub-millisecond disk latencies, Jetstress's full list, what each disk counter covers.
    [Fact]
    public void Host_counters_are_readable_complete_and_say_what_they_cover()
    {
        var r = ResultsFixture.Load(ResultsFixture.Demo);
        string text = TextReport.Render(r);
        Assert.DoesNotMatch(@"Avg\. Disk sec/Read\s+0\.000\s", text);
        Assert.Matches(@"\n  \\LogicalDisk\(vda\)\\Avg\. Disk sec/Read \[2\]\s+0\.000110 \(0\.110 ms\)\s+0\.000084 \(0\.084 ms\)\s+0\.000162 \(0\.162 ms\)\n", text);
        // No figure is no number at all (never "n/a" or 0 where a number belongs); the note says why.
        Assert.Matches(@"\n  Free System Page Table Entries \[1\]\n", text);
        Assert.Matches(@"\n  Database Page Fault Stalls/sec\s+0\.800\s+0\.199\s+2\.200\n", text);
        Assert.Contains("[1] None on Linux:", text, StringComparison.Ordinal);
        Assert.Contains("[2] Block device /dev/vda as a whole (it holds /", text, StringComparison.Ordinal);

        var rows = HtmlRows(HtmlReport.Render(r), "Host System Performance");
        Assert.Equal(new[] { "Counter", "Average", "Minimum", "Maximum" }, rows[0]);
        string[] jetstress = { "% Processor Time", "Available MBytes", "Free System Page Table Entries", "Transition Pages RePurposed/sec", "Pool Nonpaged Bytes", "Pool Paged Bytes", "Database Page Fault Stalls/sec" };
        Assert.Equal(jetstress, rows.Skip(1).Take(7).Select(row => Regex.Replace(row[0], @" \[\d+\]$", "")));
        Assert.Contains(rows, row => row[0] == @"\LogicalDisk(vda)\Avg. Disk sec/Write [2]" && row[1] == "0.000131 (0.131 ms)");
    }

    // 4. The storage model is the device's own description, not a PCI vendor id.
    [Fact]
    public void Storage_model_names_the_vendor_behind_a_pci_id()
    {
        string esrp = Esrp(ResultsFixture.Load(ResultsFixture.Demo));
        Assert.DoesNotContain("revision\t0x1af4\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Storage model and OS/firmware revision\tRed Hat, Inc. (PCI vendor 0x1af4), no model string reported\n", esrp, StringComparison.Ordinal);
    }

    // 5. Sizes are binary and say so (GiB, not GB); one file system counts once.
    [Fact]
    public void Sizes_print_the_binary_units_they_are_computed_in()
    {
        var r = ResultsFixture.Load(ResultsFixture.Demo);
        string esrp = Esrp(r);
        Assert.DoesNotMatch(@"\d (GB|MB|KB|TB)\b", esrp);
        Assert.Contains("Database LUN size\t252 GiB (file system size)\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Log LUN size\ton the database volume (same file system)\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Total database size for performance testing\t0.98 GiB\n", esrp, StringComparison.Ordinal);
        // The four folders sit on one 252 GiB file system: it is formatted capacity once, not four times.
        Assert.Contains("Total formatted capacity\t252 GiB\n", esrp, StringComparison.Ordinal);
        Assert.Contains("File system and allocation unit\text4 4 KiB\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Host server type\t2 logical processors, 23.5 GiB RAM available to the test\n", esrp, StringComparison.Ordinal);

        var tuned = ResultsFixture.Load(ResultsFixture.Tuned);
        foreach (var (rendering, mailboxes) in new[] { (TextReport.Render(r), false), (HtmlReport.Render(r), false), (XmlReport.Render(r), false),
            (TextReport.Render(tuned), true), (HtmlReport.Render(tuned), true), (XmlReport.Render(tuned), true) })
        {
            Assert.Matches(@"Maximum Database Cache("" value=""|</td>\n<td[^>]*>|\s+)32\.0 MiB", rendering);
            Assert.DoesNotMatch(@"Database Cache("" value=""|</td>\n<td[^>]*>|\s+)[\d.]+ MB\b", rendering);
            // The generated description (no user text): mailbox size in the unit it is computed in.
            if (mailboxes) Assert.Contains("200 mailboxes of 5 MiB", rendering, StringComparison.Ordinal);
        }
    }

    // The cache read 128/1024 MB in the profile, 128/156.3 MiB in the report, 19.5/156.2 MB in the test log,
    // 25/25 MiB in another run. The reports state the cache that ran (the test log's figures) and, when the databases cut
    // it, the profile's beside it and why.
    [Fact]
    public void The_database_cache_that_ran_is_shown_beside_the_profiles_when_they_differ()
    {
        string Row(ExchStorageTest.Engine.Results.TestResults r, string label) => ReportText.SystemParameters(r).Single(x => x.Label == label).Value;
        var r = ResultsFixture.Load(ResultsFixture.Tuned);
        r.Profile.MinimumDatabaseCacheMB = 128;
        r.Profile.MaximumDatabaseCacheMB = 1024;
        Assert.Equal(2, r.Instances.Count);

        // Each database's cache cut to 80 MiB: the minimum (64 MiB each) still fits, the maximum does not.
        foreach (var i in r.Instances) { i.MaximumDatabaseCacheBytes = 80 * JetFormat.MiB; i.MinimumDatabaseCacheBytes = 64 * JetFormat.MiB; }
        Assert.Equal("128.0 MiB", Row(r, "Minimum Database Cache"));
        Assert.Equal("160.0 MiB used (1024.0 MiB configured; a database's cache holds at most 1/32 of its pages, so that it stays as small beside the database as a server's beside production databases)",
            Row(r, "Maximum Database Cache"));

        // Cut below the minimum: both rows say so, neither claims the profile's minimum ran.
        foreach (var i in r.Instances) i.MinimumDatabaseCacheBytes = i.MaximumDatabaseCacheBytes = (long)(12.5 * JetFormat.MiB);
        Assert.Equal("25.0 MiB used (128.0 MiB configured; a minimum is never above the cache that ran)", Row(r, "Minimum Database Cache"));
        Assert.StartsWith("25.0 MiB used (1024.0 MiB configured; ", Row(r, "Maximum Database Cache"));
        foreach (var rendering in new[] { TextReport.Render(r), HtmlReport.Render(r), XmlReport.Render(r) })
            Assert.Contains("25.0 MiB used (128.0 MiB configured", rendering, StringComparison.Ordinal);

        // Results that do not record what ran: the profile's, as it is.
        foreach (var i in r.Instances) i.MinimumDatabaseCacheBytes = i.MaximumDatabaseCacheBytes = 0;
        Assert.Equal("1024.0 MiB", Row(r, "Maximum Database Cache"));
    }

    // 6. A run that used direct I/O does not also say direct I/O was not probed.
    [Fact]
    public void Findings_agree_with_the_direct_io_the_run_used()
    {
        var r = ResultsFixture.Load(ResultsFixture.Demo);
        Assert.True(r.Environment.DirectIo);
        string html = HtmlReport.Render(r);
        Assert.DoesNotContain("DirectIoNotProbed", html, StringComparison.Ordinal);
        Assert.DoesNotContain("was not probed", html, StringComparison.Ordinal);
        var volumes = Rows(html[html.IndexOf("<legend>Environment</legend>", StringComparison.Ordinal)..]).First(row => row[0] == "Volume");
        Assert.Contains("Direct I/O", volumes);
    }

    // 7. The Log Replication table is printed with one copy too (zeros), as Jetstress does.
    [Fact]
    public void Log_replication_table_is_printed_with_one_copy()
    {
        string text = TextReport.Render(ResultsFixture.Load(ResultsFixture.Demo));
        Assert.Matches(@"\nLog Replication I/O Performance\n[^\n]+\n[^\n]+\n  Instance\.1\s+0\.000\s+0\.000\n  Instance\.2\s+0\.000\s+0\.000\n", text);
    }

    /// <summary>The line charts of an HTML report: title, x tick labels, y tick labels and the whole SVG.</summary>
    private static List<(string Title, string[] X, double[] Y, string Svg)> LineCharts(string html) =>
        Regex.Matches(html, "<svg class=\"chart\"[^>]*aria-label=\"([^\"]*)\">(.*?)</svg>", RegexOptions.Singleline)
            .Where(m => m.Groups[2].Value.Contains("elapsed (", StringComparison.Ordinal))
            .Select(m => (
                System.Net.WebUtility.HtmlDecode(m.Groups[1].Value),
                Regex.Matches(m.Groups[2].Value, "<text [^>]*text-anchor=\"middle\">(\\d+:\\d\\d)</text>").Select(t => t.Groups[1].Value).ToArray(),
                Regex.Matches(m.Groups[2].Value, "<text [^>]*text-anchor=\"end\">([0-9.]+)</text>").Select(t => double.Parse(t.Groups[1].Value, System.Globalization.CultureInfo.InvariantCulture)).ToArray(),
                m.Groups[2].Value))
            .ToList();

    // 8a. Every chart of one run shares one time axis.
    [Fact]
    public void Charts_of_one_run_share_the_time_axis()
    {
        var charts = LineCharts(HtmlReport.Render(ResultsFixture.Load(ResultsFixture.Demo)));
        Assert.Equal(6, charts.Count);
        foreach (var c in charts) Assert.Equal(charts[0].X, c.X);
        // The axis is the measured window: it starts at 0:00 and covers the 30 s collection.
        Assert.Equal("0:00", charts[0].X[0]);
        Assert.Equal("0:30", charts[0].X[^1]);
    }

    // 8b. One spike does not set the latency axis: it is clipped at p99.9 and the spike is marked.
    [Fact]
    public void A_latency_spike_is_clipped_at_p999_and_marked()
    {
        var r = ResultsFixture.Load(ResultsFixture.Demo, j =>
        {
            var spike = j["timeSeries"]!.AsArray().First(p => (int)p!["instance"]! == 1 && (string)p!["stream"]! == "DatabaseRead")!;
            spike["averageLatencyMs"] = 500.0;
        });
        var charts = LineCharts(HtmlReport.Render(r));
        foreach (var title in new[] { "Instance.1: average latency", "All instances: average latency" })
        {
            var chart = Assert.Single(charts, c => c.Title == title);
            Assert.True(chart.Y.Max() < 50, $"{title}: the axis reaches {chart.Y.Max()} ms; one 500 ms sample set it.");
            Assert.Single(Regex.Matches(chart.Svg, "class=\"clipped\""));
            Assert.Contains("clipped at p99.9", chart.Svg, StringComparison.Ordinal);
        }
        var quiet = Assert.Single(charts, c => c.Title == "Instance.2: average latency");
        Assert.DoesNotContain("class=\"clipped\"", quiet.Svg, StringComparison.Ordinal);
    }

    // 9. One derivation of achieved transactional IOPS in every format, whether or not the file stores it.
    [Fact]
    public void Achieved_iops_is_derived_once_for_every_format()
    {
        var r = ResultsFixture.Load(ResultsFixture.Demo, j => j["sizing"]!.AsObject().Remove("achievedTransactionalIops"));
        Assert.Contains("Achieved Transactional I/O per Second  1843.003\n", TextReport.Render(r), StringComparison.Ordinal);
        Assert.Contains("Achieved Transactional I/O per Second\t1843.003\n", Esrp(r), StringComparison.Ordinal);
        Assert.Contains("<td class=\"grid_row_header\">Achieved Transactional I/O per Second</td>\n<td class=\"grid_data text\">1843.003</td>", HtmlReport.Render(r), StringComparison.Ordinal);
        Assert.Contains("name=\"Achieved Transactional I/O per Second\" value=\"1843.003\"", XmlReport.Render(r), StringComparison.Ordinal);
    }

    // 10. The ESRP format is described in the docs: its files and every fixed label it prints.
    [Fact]
    public void Esrp_format_is_documented()
    {
        string docs = File.ReadAllText(RepoFiles.Path("docs/protocol.md")) + File.ReadAllText(RepoFiles.Path("docs/results-schema.md"));
        foreach (var name in new[] { ".esrp.txt", ".esrp.html", "(to be supplied)" })
            Assert.Contains(name, docs, StringComparison.Ordinal);
        var esrp = EsrpSummary.From(new[] { ReportFixtures.Js13(), ReportFixtures.Js14() },
            backup: new[] { ReportFixtures.Backup("JS13", ("Instance3148.1", 448921.09, 5142, 87.29)) },
            softRecovery: new[] { ReportFixtures.SoftRecovery("JS13", ("Instance3376.1", 501, 1436.0856165)) });
        var labels = esrp.Deployment.SelectMany(t => t.Items.Select(i => i.Label).Prepend(t.Title))
            .Concat(EsrpSummary.ServerRows(esrp.Servers[0]).Select(x => x.Label))
            .Concat(esrp.AggregateRows().Select(x => x.Label))
            .Concat(esrp.BackupRows().Select(x => x.Label))
            .Concat(esrp.SoftRecoveryRows().Select(x => x.Label))
            .Concat(new[] { "Individual Server Metrics", "Aggregate Performance Across All Servers", "Database Read-only Performance", "Transaction Log Recovery/Replay Performance" })
            .Select(l => Regex.Replace(l, @"\(\d+ servers?\)|\d+% headroom", m => m.Value.Contains("server", StringComparison.Ordinal) ? "(N servers)" : "N% headroom"))
            .Distinct();
        var missing = labels.Where(l => !docs.Contains(l, StringComparison.Ordinal)).ToList();
        Assert.True(missing.Count == 0, "Not described in docs/protocol.md or docs/results-schema.md: " + string.Join(" | ", missing));
    }

}
