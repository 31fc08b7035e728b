using System.Text.RegularExpressions;
using System.Xml.Linq;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>
/// The failure-mode part of a run in every rendering, from results built here (the judgement's figures are given, not
/// computed: the reports render what the results hold). A run without a window, a stall or a re-judgement renders as
/// it did before the part existed.
/// </summary>
public class FailureModeReportTests
{
    private const string Tolerated = "Pass, fault tolerated: stalled 4.8 s on /mnt/db, recovered in 12.0 s, no errors";

    /// <summary>
    /// The golden Performance run (a 120 s measured window) with a fault window 45 s in for 30 s, its script, a stall of
    /// /mnt/db inside it and one of /mnt/log after it (still stalled at the end), a per-second series of both volumes and a judgement.
    /// </summary>
    internal static TestResults WithFault()
    {
        var r = ReportFixtures.Small();
        var measuring = r.Timeline.CollectionStartUtc!.Value;
        var f = new FailureModeResult
        {
            StallLimitSeconds = 20,
            StallDetectSeconds = 1,
            Window = new FaultWindow { AtSeconds = 45, LengthSeconds = 30, StartUtc = measuring.AddSeconds(45), EndUtc = measuring.AddSeconds(75) },
            Script = new FaultScriptRun
            {
                Path = "/opt/fault/failover.sh", Host = "LAB01", RanHere = true, StartedUtc = measuring.AddSeconds(45), EndedUtc = measuring.AddSeconds(47.5), ExitCode = 0,
                Output = string.Join("\n", Enumerable.Range(1, 12).Select(i => $"controller B: step {i}")) + "\n",
            },
            Stalls =
            {
                new StallRecord { Volume = "/mnt/db", StartUtc = measuring.AddSeconds(50.2), StartSeconds = 50.2, LengthSeconds = 4.8, InFlight = 32, LongestIoMs = 4812.5, InFaultWindow = true },
                new StallRecord { Volume = "/mnt/log", StartUtc = measuring.AddSeconds(118.5), StartSeconds = 118.5, LengthSeconds = 1.5, Ended = false, InFlight = 2, LongestIoMs = 0 },
            },
            Fault = new FaultJudgement
            {
                Result = FaultOutcomes.Tolerated, Summary = Tolerated,
                ExcludedFromSeconds = 45, ExcludedToSeconds = 75, LongestStallSeconds = 4.8, LongestStallVolume = "/mnt/db", RecoverySeconds = 12, SystemLogEvents = 3,
                Volumes =
                {
                    new FaultVolume
                    {
                        Volume = "/mnt/db", LongestStallSeconds = 4.8, LongestStallStartUtc = measuring.AddSeconds(50.2), InFlightThroughStall = 32, LongestIoMs = 4812.5,
                        BaselineIops = 70, BaselineLatencyMs = 5.5, IopsLost = 420, RecoverySeconds = 12, MultipathBefore = "4 paths active", MultipathAfter = "3 paths active, 1 failed",
                    },
                    new FaultVolume { Volume = "/mnt/log", BaselineIops = 6, BaselineLatencyMs = 0.8, RecoverySeconds = 1 },
                },
            },
            SteadyState = new VerdictResult { Result = Verdicts.Pass },
        };
        for (int s = 0; s < 120; s++)
        {
            bool dbStalled = s >= 50 && s < 55, logStalled = s >= 118;
            f.VolumeSeries.Add(new VolumeSecond { Volume = "/mnt/db", ElapsedSeconds = s, Operations = dbStalled ? 0 : 70, AverageLatencyMs = 5.5, MaxLatencyMs = 20 });
            if (!logStalled) f.VolumeSeries.Add(new VolumeSecond { Volume = "/mnt/log", ElapsedSeconds = s, Operations = 6, AverageLatencyMs = 0.8, MaxLatencyMs = 2 });
        }
        r.FailureMode = f;
        return r;
    }

    [Fact]
    public void The_text_report_has_the_failure_mode_section_with_every_fact()
    {
        string text = TextReport.Render(WithFault());
        int at = text.IndexOf("\nFailure mode\n", StringComparison.Ordinal);
        Assert.True(at > 0, text);
        string section = text[at..];
        Assert.Contains($"  {Tolerated}; stalled 1.5 s on /mnt/log at 118.5 s outside the fault window\n", section, StringComparison.Ordinal);
        Assert.Contains("45.0 s to 75.0 s into the measured window (30.0 s long, recovery included; declared)", section, StringComparison.Ordinal);
        Assert.Matches(@"Window start\s+3/3/2014 1:45:08 PM\n", section);
        Assert.Matches(@"Script\s+/opt/fault/failover\.sh\n", section);
        Assert.Matches(@"Ran on\s+LAB01 \(this host\)\n", section);
        Assert.Matches(@"Exit code\s+0\n", section);
        Assert.Matches(@"Killed\s+no\n", section);
        Assert.Contains("    controller B: step 10\n", section, StringComparison.Ordinal);
        Assert.DoesNotContain("controller B: step 11", section, StringComparison.Ordinal);
        Assert.Contains("    ... and 2 more lines (see the results JSON)\n", section, StringComparison.Ordinal);
        Assert.Contains($"  Fault Tolerated: {Tolerated}\n", section, StringComparison.Ordinal);
        Assert.Contains("  Recovered 12.0 s after the fault's start\n", section, StringComparison.Ordinal);
        Assert.Contains("  Storage events of the system log in the window: 3 ", section, StringComparison.Ordinal);
        Assert.Contains("  Left out of the steady state: 45.0 s to 75.0 s of the measured window (30.0 s)\n", section, StringComparison.Ordinal);
        // The volumes through the window: longest stall and its instant, in flight, longest I/O, baseline, I/Os lost, recovery.
        Assert.Matches(@"\n  /mnt/db\s+4\.8\s+3/3/2014 1:45:13 PM\s+32\s+4812\.5\s+0\s+70\.0\s+5\.500\s+420\s+12\.0\n", section);
        Assert.Contains("  Multipath of /mnt/db: before the run 4 paths active; after it 3 paths active, 1 failed\n", section, StringComparison.Ordinal);
        Assert.Contains("  Steady state (the measured window outside the fault window): Pass, every threshold met\n", section, StringComparison.Ordinal);
        // Every stall named: volume, instant, seconds into the measured window and into the fault window, length, ended.
        Assert.Matches(@"\n  /mnt/db\s+3/3/2014 1:45:13 PM\s+50\.2\s+5\.2\s+4\.8\s+yes\s+32\s+4812\.5\n", section);
        Assert.Matches(@"\n  /mnt/log\s+3/3/2014 1:46:21 PM\s+118\.5\s+1\.5\s+no: still stalled at the end\s+2\s+0\.0\n", section);
        // The section comes before the sizing tables, after the summary.
        Assert.True(at > text.IndexOf("Test Summary", StringComparison.Ordinal) && at < text.IndexOf("Database Sizing and Throughput", StringComparison.Ordinal));
    }

    /// <summary>The whole text report of a run with a fault window, reviewed: the section's layout among the others.</summary>
    [Fact]
    public void Golden_text() => GoldenFile.Check("FailureMode.txt", TextReport.Render(WithFault()));

    [Fact]
    public void A_failing_fault_shows_its_reasons_and_a_volume_not_back()
    {
        var r = WithFault();
        var j = r.FailureMode!.Fault!;
        j.Result = FaultOutcomes.NotTolerated;
        j.Summary = "Fail, fault not tolerated: stalled 4.8 s on /mnt/db (limit 3 s)";
        j.RecoverySeconds = null;
        j.Volumes[0].RecoverySeconds = null;
        j.Volumes[0].IoErrors = 3;
        j.Volumes[0].ErrorNames.Add("EIO");
        j.Reasons.Add(new VerdictReason { Code = "FaultStallTooLong", Message = "/mnt/db stalled 4.8 s at 50.2 s; the limit is 3 s.", Measured = 4.8, Limit = 3 });
        string text = TextReport.Render(r);
        Assert.Contains("  Fault NotTolerated: Fail, fault not tolerated: stalled 4.8 s on /mnt/db (limit 3 s)\n", text, StringComparison.Ordinal);
        Assert.Contains("  - /mnt/db stalled 4.8 s at 50.2 s; the limit is 3 s. (measured 4.800, limit 3.000)\n", text, StringComparison.Ordinal);
        Assert.Contains("  Not back within the window\n", text, StringComparison.Ordinal);
        Assert.Matches(@"\n  /mnt/db\s+4\.8\s+3/3/2014 1:45:13 PM\s+32\s+4812\.5\s+3\s+EIO\s+70\.0\s+5\.500\s+420\s+not back\n", text);
        string html = HtmlReport.Render(r);
        Assert.Contains("<td class=\"grid_row_header\">Fault Outcome</td>\n<td class=\"failure\">", html, StringComparison.Ordinal);
    }

    [Fact]
    public void An_undeclared_stall_is_named_in_one_line_and_in_the_section()
    {
        var r = ReportFixtures.Small();
        r.FailureMode = new FailureModeResult
        {
            StallLimitSeconds = 20, StallDetectSeconds = 1,
            Stalls = { new StallRecord { Volume = "/mnt/db", StartUtc = r.Timeline.CollectionStartUtc!.Value.AddSeconds(60.2), StartSeconds = 60.2, LengthSeconds = 5, InFlight = 8 } },
        };
        Assert.Equal("Storage stalled 5.0 s on /mnt/db at 60.2 s (no fault declared)", FailureModeReport.Summary(r));
        string text = TextReport.Render(r);
        Assert.Contains("\nFailure mode\n  Storage stalled 5.0 s on /mnt/db at 60.2 s (no fault declared)\n", text, StringComparison.Ordinal);
        Assert.DoesNotContain("Fault window", text, StringComparison.Ordinal);
        Assert.Matches(@"\n  /mnt/db\s+3/3/2014 1:45:23 PM\s+60\.2\s+5\.0\s+yes\s+8\s+0\.0\n", text);
        // No window: no band on the charts, but the volume's strip with its stall.
        string html = HtmlReport.Render(r);
        Assert.DoesNotContain("class=\"band\"", html, StringComparison.Ordinal);
        Assert.Single(Regex.Matches(html, "<svg class=\"chart stalls\""));
        Assert.Contains("class=\"stall\"", html, StringComparison.Ordinal);

        r.FailureMode.Stalls.Add(new StallRecord { Volume = "/mnt/log", StartSeconds = 90, LengthSeconds = 2 });
        Assert.Equal("Storage stalled 5.0 s on /mnt/db at 60.2 s (no fault declared; 2 stalls in all)", FailureModeReport.Summary(r));
    }

    [Fact]
    public void The_html_report_shades_the_window_on_every_time_chart_and_draws_a_stall_timeline_a_volume()
    {
        string html = HtmlReport.Render(WithFault());
        string charts = Fieldset(html, "I/O and Latency over Time");
        var svgs = Regex.Matches(charts, "<svg .*?</svg>", RegexOptions.Singleline).Select(m => m.Value).ToList();
        Assert.True(svgs.Count >= 6, $"{svgs.Count} charts"); // all instances (2) and each instance's (2 a instance)
        Assert.All(svgs, svg =>
        {
            Assert.Single(Regex.Matches(svg, "<rect class=\"band\""));
            Assert.Contains("<title>Fault window (declared): 45.0 s to 75.0 s into the measured window</title>", svg, StringComparison.Ordinal);
            Assert.Contains(">fault window</text>", svg, StringComparison.Ordinal);
        });
        // The band lies where the window does on the 120 s axis of a 786-pixel plot starting at x 64.
        Assert.Contains("<rect class=\"band\" x=\"358.8\" y=\"24\" width=\"196.5\"", svgs[0], StringComparison.Ordinal);
        Assert.Contains("The shaded span is the fault window: 45.0 s to 75.0 s", charts, StringComparison.Ordinal);

        string section = Fieldset(html, "Failure Mode");
        Assert.Contains($"<p><strong>{Tolerated}; stalled 1.5 s on /mnt/log at 118.5 s outside the fault window</strong></p>", section, StringComparison.Ordinal);
        Assert.Contains("<td class=\"grid_row_header\">Fault Outcome</td>\n<td class=\"success\">Fault Tolerated: ", section, StringComparison.Ordinal);
        Assert.Contains("<th class=\"grid_header\">I/Os lost</th>", section, StringComparison.Ordinal);
        Assert.Contains("<td class=\"grid_data\">no: still stalled at the end</td>", section, StringComparison.Ordinal);
        Assert.Contains("<pre class=\"log\">controller B: step 1\n", section, StringComparison.Ordinal);
        var strips = Regex.Matches(section, "<svg class=\"chart stalls\".*?</svg>", RegexOptions.Singleline).Select(m => m.Value).ToList();
        Assert.Equal(2, strips.Count);
        Assert.Contains("aria-label=\"/mnt/db: stalls and I/O per second\"", strips[0], StringComparison.Ordinal);
        Assert.Contains("aria-label=\"/mnt/log: stalls and I/O per second\"", strips[1], StringComparison.Ordinal);
        Assert.All(strips, strip =>
        {
            Assert.Single(Regex.Matches(strip, "<rect class=\"band\""));
            Assert.Single(Regex.Matches(strip, "<rect class=\"stall\""));
            Assert.Contains("<polyline", strip, StringComparison.Ordinal);
        });
        // The /mnt/db stall: 50.2 s for 4.8 s on the same axis.
        Assert.Contains("<rect class=\"stall\" x=\"392.8\" y=\"24\" width=\"31.4\"", strips[0], StringComparison.Ordinal);
        Assert.Contains("<title>Stall on /mnt/db at 50.2 s: 4.8 s, 32 I/Os in flight</title>", strips[0], StringComparison.Ordinal);
        // After Jetstress's sections, whose positions scrapers count on.
        var legends = Regex.Matches(html, "<legend>(.*?)</legend>").Select(m => m.Groups[1].Value).ToList();
        Assert.True(legends.IndexOf("Failure Mode") > legends.IndexOf("Test Log"));
    }

    [Fact]
    public void A_comparison_shades_each_runs_fault_window_on_its_time_charts()
    {
        string html = ComparisonHtml.Render(RunComparison.Compare(new[] { WithFault(), ReportFixtures.Small(directIo: false) }, new[] { "Failover", "Plain" }));
        var charts = Regex.Matches(html, "<svg .*?</svg>", RegexOptions.Singleline).Select(m => m.Value).Where(svg => svg.Contains("<polyline", StringComparison.Ordinal) && !svg.Contains("log scale", StringComparison.Ordinal)).ToList();
        Assert.NotEmpty(charts);
        Assert.All(charts, svg => Assert.Contains("<title>Failover: fault window 45.0 s to 75.0 s into its measured window</title>", svg, StringComparison.Ordinal));
        Assert.Contains(">fault window (Failover)</text>", charts[0], StringComparison.Ordinal);
    }

    [Fact]
    public void The_xml_report_is_well_formed_holds_the_failure_mode_and_leaves_the_jetstress_elements_as_they_were()
    {
        var r = WithFault();
        var doc = XDocument.Parse(XmlReport.Render(r));
        var fm = doc.Root!.Element("failure-mode")!;
        Assert.NotNull(fm);
        Assert.Equal("2", fm.Attribute("stall-count")!.Value);
        Assert.Equal("20.000", fm.Attribute("stall-limit-seconds")!.Value);
        Assert.Equal("45.000", fm.Element("window")!.Attribute("at-seconds")!.Value);
        Assert.Equal("2014-03-03T13:45:08.000Z", fm.Element("window")!.Attribute("start")!.Value);
        Assert.Equal("0", fm.Element("script")!.Attribute("exit-code")!.Value);
        Assert.Equal("true", fm.Element("script")!.Attribute("ran-here")!.Value);
        Assert.StartsWith("controller B: step 1\n", fm.Element("script")!.Element("output")!.Value, StringComparison.Ordinal);
        var fault = fm.Element("fault")!;
        Assert.Equal("Tolerated", fault.Attribute("result")!.Value);
        Assert.Equal(Tolerated, fault.Attribute("summary")!.Value);
        Assert.Equal("12.000", fault.Attribute("recovery-seconds")!.Value);
        Assert.Equal(new[] { "/mnt/db", "/mnt/log" }, fault.Elements("volume").Select(v => v.Attribute("name")!.Value));
        Assert.Equal("420.000", fault.Elements("volume").First().Attribute("ios-lost")!.Value);
        Assert.Equal("Pass", fm.Element("steady-state")!.Attribute("result")!.Value);
        var stalls = fm.Elements("stall").ToList();
        Assert.Equal(2, stalls.Count);
        Assert.Equal("false", stalls[1].Attribute("ended")!.Value);
        Assert.Equal("true", stalls[0].Attribute("in-fault-window")!.Value);

        // Without the element, the document is the one a run without a failure mode gets: Jetstress's elements untouched.
        fm.Remove();
        var plain = ReportFixtures.Small();
        Assert.Equal(XmlReport.Render(plain), Render(doc));
    }

    [Fact]
    public void A_scripts_control_characters_do_not_break_a_report()
    {
        // A vendor CLI's colour codes and a stray NUL: no XML document may hold them.
        var r = WithFault();
        r.FailureMode!.Script!.Output = "\u001b[31mfailover started\u001b[0m\r\nnul:\0 done \U0001F600\n";
        var output = XDocument.Parse(XmlReport.Render(r)).Root!.Element("failure-mode")!.Element("script")!.Element("output")!.Value;
        Assert.Equal("\uFFFD[31mfailover started\uFFFD[0m\nnul:\uFFFD done \U0001F600\n", output);
        Assert.Contains("    \uFFFD[31mfailover started\uFFFD[0m\n    nul:\uFFFD done \U0001F600\n", TextReport.Render(r), StringComparison.Ordinal);
        Assert.Contains("\uFFFD[31mfailover started", HtmlReport.Render(r), StringComparison.Ordinal);
    }

    [Fact]
    public void Results_without_a_failure_mode_to_show_render_as_before()
    {
        // An empty part (a run that looked and found nothing) renders exactly as results without one.
        var empty = ReportFixtures.Small();
        empty.FailureMode = new FailureModeResult { StallLimitSeconds = 20, StallDetectSeconds = 1, VolumeSeries = { new VolumeSecond { Volume = "/mnt/db", ElapsedSeconds = 0, Operations = 70 } } };
        var none = ReportFixtures.Small();
        Assert.Equal(TextReport.Render(none), TextReport.Render(empty));
        Assert.Equal(HtmlReport.Render(none), HtmlReport.Render(empty));
        Assert.Equal(XmlReport.Render(none), XmlReport.Render(empty));
        Assert.Null(FailureModeReport.Summary(empty));
        Assert.Null(FailureModeReport.Summary(none));
        Assert.Equal(TextReport.Render(ResultsMerge.Merge(new[] { none, ReportFixtures.Small() })), TextReport.Render(ResultsMerge.Merge(new[] { empty, ReportFixtures.Small() })));
    }

    [Fact]
    public void A_rejudgement_says_so_first_in_every_rendering()
    {
        var r = WithFault();
        r.FailureMode!.Window!.Source = "Rejudged";
        r.FailureMode.Rejudged = new Rejudgement
        {
            SourcePath = "/results/Performance_2014_3_3_13_44_8.json", SourceTestId = "golden-0001", JudgedUtc = new DateTime(2026, 11, 29, 1, 2, 3, DateTimeKind.Utc),
            OriginalResult = Verdicts.Fail, Changes = { "fault window 45 s for 30 s (none was declared)" },
        };
        const string line = "Re-judgement of golden-0001 (Performance_2014_3_3_13_44_8.json) on 2026-11-29T01:02:03.000Z: fault window 45 s for 30 s (none was declared); the run's own verdict was Fail";
        Assert.StartsWith(line + "\n\n", TextReport.Render(r), StringComparison.Ordinal);
        string html = HtmlReport.Render(r);
        Assert.Contains($"</p>\n<div class=\"banner\"><strong>Re-judgement.</strong> {line}.</div>\n", html.Replace("&#39;", "'", StringComparison.Ordinal), StringComparison.Ordinal);
        Assert.True(html.IndexOf("Re-judgement.", StringComparison.Ordinal) < html.IndexOf("<fieldset>", StringComparison.Ordinal));
        Assert.Contains("given to the re-judgement", html, StringComparison.Ordinal);
        var doc = XDocument.Parse(XmlReport.Render(r));
        Assert.Equal("re-judgement", doc.Root!.Elements().First().Name.LocalName);
        Assert.Equal(line, doc.Root.Elements().First().Attribute("value")!.Value);
        Assert.Equal("golden-0001", doc.Root.Element("failure-mode")!.Element("rejudged")!.Attribute("source-test-id")!.Value);
        Assert.StartsWith("Re-judged: " + Tolerated, FailureModeReport.Summary(r), StringComparison.Ordinal);
    }

    [Fact]
    public void The_aggregate_text_has_one_failure_mode_line_a_host()
    {
        var a = WithFault();
        var b = ReportFixtures.Small();
        b.Environment.MachineName = "LAB02";
        var merged = ResultsMerge.Merge(new[] { a, b });
        string text = TextReport.Render(merged);
        Assert.Contains($"\nFailure mode\n  LAB01: {Tolerated}; stalled 1.5 s on /mnt/log at 118.5 s outside the fault window\n  LAB02: no failure-mode figures in its results\n", text, StringComparison.Ordinal);
        b.FailureMode = new FailureModeResult { StallLimitSeconds = 20, StallDetectSeconds = 1 };
        Assert.Contains("\n  LAB02: no stall found, no fault window\n", TextReport.Render(ResultsMerge.Merge(new[] { a, b })), StringComparison.Ordinal);
    }

    [Fact]
    public void The_result_event_carries_the_line_and_the_stall_count()
    {
        var fields = ResultEvent(WithFault());
        Assert.Equal($"{Tolerated}; stalled 1.5 s on /mnt/log at 118.5 s outside the fault window", fields.GetProperty(EventFields.Result.FaultSummary).GetString());
        Assert.Equal(2, fields.GetProperty(EventFields.Result.StallCount).GetInt32());

        // A run that looked and found nothing: 0 stalls, no line; results without the part: neither field.
        var empty = ReportFixtures.Small();
        empty.FailureMode = new FailureModeResult { StallLimitSeconds = 20, StallDetectSeconds = 1 };
        var quiet = ResultEvent(empty);
        Assert.Equal(0, quiet.GetProperty(EventFields.Result.StallCount).GetInt32());
        Assert.False(quiet.TryGetProperty(EventFields.Result.FaultSummary, out _));
        var old = ResultEvent(ReportFixtures.Small());
        Assert.False(old.TryGetProperty(EventFields.Result.StallCount, out _));
        Assert.False(old.TryGetProperty(EventFields.Result.FaultSummary, out _));
    }

    [Fact]
    public void The_report_command_gives_the_lines_of_a_run_and_of_each_host_from_stored_results()
    {
        using var dir = new TestFolder("fm-report");
        var a = ReportFixtures.Js13();
        a.FailureMode = new FailureModeResult
        {
            StallLimitSeconds = 20, StallDetectSeconds = 1,
            Stalls = { new StallRecord { Volume = "/mnt/db", StartUtc = ReportFixtures.Start.AddSeconds(60.2), StartSeconds = 60.2, LengthSeconds = 5, InFlight = 8 } },
        };
        ResultsFile.Save(a, dir.Combine("js13.json"));
        var (exit, events) = Cli.ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"paths\":[" + System.Text.Json.JsonSerializer.Serialize(dir.Combine("js13.json")) + "]}");
        Assert.Equal(0, exit);
        var report = events.Single(e => e.GetProperty("type").GetString() == "report");
        Assert.Equal("Storage stalled 5.0 s on /mnt/db at 60.2 s (no fault declared)", report.GetProperty(EventFields.Report.FaultSummary).GetString());

        // The hosts of one run: every host's line, named.
        ResultsFile.Save(ReportFixtures.Js14(), dir.Combine("js14.json"));
        (exit, events) = Cli.ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"paths\":[" + System.Text.Json.JsonSerializer.Serialize(dir.Path) + "]}");
        Assert.Equal(0, exit);
        report = events.Single(e => e.GetProperty("type").GetString() == "report");
        Assert.Equal("JS13: Storage stalled 5.0 s on /mnt/db at 60.2 s (no fault declared); JS14: no failure-mode figures in its results",
            report.GetProperty(EventFields.Report.FaultSummary).GetString());
        Assert.Contains("\nFailure mode\n  JS13: Storage stalled 5.0 s", report.GetProperty(EventFields.Report.Text).GetString(), StringComparison.Ordinal);
    }

    private static System.Text.Json.JsonElement ResultEvent(TestResults r)
    {
        using var buffer = new MemoryStream();
        ExchStorageTest.Engine.Cli.Commands.ResultEvent.Write(new EventWriter(buffer), r, Array.Empty<ReportFile>());
        string line = System.Text.Encoding.UTF8.GetString(buffer.ToArray()).Split('\n', StringSplitOptions.RemoveEmptyEntries).Last();
        return System.Text.Json.JsonDocument.Parse(line).RootElement.Clone();
    }

    /// <summary>The fieldset under <paramref name="legend"/>, with the fieldsets inside it.</summary>
    private static string Fieldset(string html, string legend)
    {
        int start = html.IndexOf($"<fieldset>\n<legend>{legend}</legend>", StringComparison.Ordinal);
        Assert.True(start >= 0, $"no {legend} section");
        int depth = 0;
        foreach (Match m in Regex.Matches(html[start..], "</?fieldset>"))
        {
            depth += m.Value == "<fieldset>" ? 1 : -1;
            if (depth == 0) return html.Substring(start, m.Index + m.Length);
        }
        return html[start..];
    }

    /// <summary>A document as <see cref="XmlReport"/> writes one.</summary>
    private static string Render(XDocument doc)
    {
        using var writer = new Utf8Writer();
        doc.Save(writer, SaveOptions.None);
        return writer.ToString().Replace("\r\n", "\n", StringComparison.Ordinal) + "\n";
    }

    private sealed class Utf8Writer : StringWriter
    {
        public Utf8Writer() : base(System.Globalization.CultureInfo.InvariantCulture) { }
        public override System.Text.Encoding Encoding => new System.Text.UTF8Encoding(false);
    }
}
