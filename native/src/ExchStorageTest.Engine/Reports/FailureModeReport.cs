using System.Text;
using System.Xml.Linq;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The failure-mode part of a run (<see cref="TestResults.FailureMode"/>, docs/failure-mode.md) in the reports: the one
/// line the result event, the console and the aggregate reports give; the re-judgement notice every rendering opens with;
/// and the section's facts — the window, the fault script, the fault's outcome and reasons, the volumes through it, the
/// steady state and every stall named — as rows the text, HTML and XML renderings share. It renders what the results hold
/// and judges nothing: a run without a window, a stall or a re-judgement renders as it did before the section existed.
/// </summary>
public static class FailureModeReport
{
    /// <summary>The first lines of the fault script's output a report prints (all of it is in the results JSON).</summary>
    public const int ScriptOutputLines = 10;

    /// <summary>True when the results hold something of a failure mode to show: a window, a stall, a judgement or a re-judgement.</summary>
    public static bool Shown(TestResults r) => r.FailureMode is { } f && Shown(f);

    private static bool Shown(FailureModeResult f) => f.Window is not null || f.Stalls.Count > 0 || f.Fault is not null || f.Rejudged is not null;

    /// <summary>
    /// The failure mode in one line: the fault's outcome as the judgement states it (with any stall outside its window), or
    /// the longest stall nobody declared; null when there is nothing to say (no failure-mode part, no window, no stall).
    /// </summary>
    public static string? Summary(TestResults r) => r.FailureMode is { } f && Shown(f) ? Line(f) : null;

    private static string Line(FailureModeResult f)
    {
        var outside = f.Stalls.Where(s => f.Window is null || !s.InFaultWindow).ToList();
        string line;
        if (f.Window is { } w)
        {
            line = f.Fault is { } j
                ? (string.IsNullOrWhiteSpace(j.Summary) ? $"Fault {j.Result}" : j.Summary)
                : $"Fault window at {Seconds(w.AtSeconds)} for {Seconds(w.LengthSeconds)}: not judged";
            if (outside.Count > 0)
            {
                var longest = Longest(outside);
                line += $"; stalled {Seconds(longest.LengthSeconds)} on {longest.Volume} at {Seconds(longest.StartSeconds)} outside the fault window"
                    + (outside.Count > 1 ? $" ({Wording.Count(outside.Count, "stall")} outside it)" : "");
            }
        }
        else if (outside.Count > 0)
        {
            var longest = Longest(outside);
            line = $"Storage stalled {Seconds(longest.LengthSeconds)} on {longest.Volume} at {Seconds(longest.StartSeconds)}"
                + (longest.Ended ? "" : ", still stalled when the run ended")
                + (outside.Count > 1 ? $" (no fault declared; {Wording.Count(outside.Count, "stall")} in all)" : " (no fault declared)");
        }
        else line = f.Fault is { } j ? j.Summary : "No stall found";
        return f.Rejudged is null ? line : "Re-judged: " + line;
    }

    private static StallRecord Longest(IEnumerable<StallRecord> stalls) => stalls.OrderByDescending(s => s.LengthSeconds).ThenBy(s => s.StartSeconds).First();

    /// <summary>
    /// What every rendering of a re-judgement's results says first: which run it judged again, when, what it judged
    /// differently, and the verdict the run had live; null for a run's own results.
    /// </summary>
    public static string? RejudgementLine(TestResults r)
    {
        if (r.FailureMode?.Rejudged is not { } j) return null;
        string changes = j.Changes.Count == 0 ? "judged again with the run's own settings" : string.Join("; ", j.Changes);
        string source = string.IsNullOrEmpty(j.SourcePath) ? "" : $" ({Path.GetFileName(j.SourcePath)})";
        return $"Re-judgement of {j.SourceTestId}{source} on {JetFormat.Iso(j.JudgedUtc)}: {changes}; the run's own verdict was {j.OriginalResult}";
    }

    /// <summary>The window: where it lies in the measured window, its instants, and the limits stalls are judged by.</summary>
    public static IReadOnlyList<(string Label, string Value)> WindowRows(FailureModeResult f, TimeZoneInfo zone)
    {
        var rows = new List<(string, string)>();
        if (f.Window is { } w)
        {
            rows.Add(("Fault window", $"{Seconds(w.AtSeconds)} to {Seconds(w.AtSeconds + w.LengthSeconds)} into the measured window ({Seconds(w.LengthSeconds)} long, recovery included; {(w.Source == "Rejudged" ? "given to the re-judgement" : "declared")})"));
            rows.Add(("Window start", JetFormat.Time(w.StartUtc, zone)));
            rows.Add(("Window end", JetFormat.Time(w.EndUtc, zone)));
        }
        rows.Add(("Stall limit", $"{Seconds(f.StallLimitSeconds)} (the longest a stall may last)"));
        rows.Add(("Shortest stall named", Seconds(f.StallDetectSeconds)));
        return rows;
    }

    /// <summary>
    /// The reseed the window carried: what it copied from where to where, how much at what rate against its target,
    /// whether it completed, and each volume's latency during it against the pre-fault baseline.
    /// </summary>
    public static IReadOnlyList<(string Label, string Value)> ReseedRows(ReseedRun s, TimeZoneInfo zone)
    {
        var rows = new List<(string, string)>
        {
            ("Seeded", Analysis.ReseedImpact.Line(s)),
            ("Source", $"{s.SourceFile} (on {s.SourceVolume})"),
            ("Copy", $"{s.TargetFile} (on {s.TargetVolume}; removed when the seed ended)"),
            ("I/O", string.Create(System.Globalization.CultureInfo.InvariantCulture, $"sequential {s.IoSizeBytes / 1024} KiB reads and writes, {s.ReadLatencyMs:0.###} ms a read and {s.WriteLatencyMs:0.###} ms a write on average")),
        };
        if (s.StartedUtc is DateTime started) rows.Add(("Started", JetFormat.Time(started, zone) + $" ({Seconds(s.StartSeconds)} into the measured window)"));
        if (s.EndedUtc is DateTime ended) rows.Add(("Ended", JetFormat.Time(ended, zone)));
        if (s.Error is not null) rows.Add(("Error", Printable(s.Error)));
        foreach (var v in s.Volumes) rows.Add(("Active copies' latency", Analysis.ReseedImpact.Line(v)));
        return rows;
    }

    /// <summary>The fault script: where it ran, when, how it ended, and what it printed first.</summary>
    public static IReadOnlyList<(string Label, string Value)> ScriptRows(FaultScriptRun s, TimeZoneInfo zone)
    {
        var rows = new List<(string, string)>
        {
            ("Script", s.Path),
            ("Ran on", s.RanHere ? $"{s.Host} (this host)" : $"{s.Host} (another host of the run; this host kept the window)"),
        };
        if (s.Error is not null) rows.Add(("Not started", Printable(s.Error)));
        if (s.StartedUtc is DateTime started) rows.Add(("Started", JetFormat.Time(started, zone)));
        if (s.EndedUtc is DateTime ended) rows.Add(("Ended", JetFormat.Time(ended, zone)));
        if (s.RanHere && s.Error is null)
        {
            rows.Add(("Exit code", s.ExitCode is int code ? JetFormat.Integer(code) : "none (it did not exit by itself)"));
            rows.Add(("Killed", s.Killed ? "yes: still running when the measured window ended, stopped then" : "no"));
        }
        return rows;
    }

    /// <summary>The script's first <see cref="ScriptOutputLines"/> lines of output, and how many more the results hold.</summary>
    public static (IReadOnlyList<string> Lines, int More) ScriptOutput(FaultScriptRun s)
    {
        var lines = Printable(s.Output).TrimEnd('\n').Split('\n');
        if (lines is [""]) return (Array.Empty<string>(), 0);
        return (lines.Take(ScriptOutputLines).ToList(), Math.Max(0, lines.Length - ScriptOutputLines));
    }

    /// <summary>
    /// A script's words as a report can hold them: lines ended by \n, and a control character (a vendor CLI's colour
    /// codes, a stray NUL), which no XML document may hold and a text file should not, as U+FFFD.
    /// </summary>
    public static string Printable(string text)
    {
        var sb = new StringBuilder(text.Length);
        string unified = text.Replace("\r\n", "\n", StringComparison.Ordinal);
        for (int i = 0; i < unified.Length; i++)
        {
            char c = unified[i];
            bool ok = c == '\n' || c == '\t' || (!char.IsControl(c) && !char.IsSurrogate(c) && c != '\uFFFE' && c != '\uFFFF')
                || (char.IsHighSurrogate(c) && i + 1 < unified.Length && char.IsLowSurrogate(unified[i + 1]));
            if (char.IsHighSurrogate(c) && ok) { sb.Append(c).Append(unified[++i]); continue; }
            sb.Append(ok ? c : '\uFFFD');
        }
        return sb.ToString();
    }

    /// <summary>The fault's outcome line (its result and the judgement's summary).</summary>
    public static string OutcomeLine(FaultJudgement j) =>
        $"Fault {j.Result}: {(string.IsNullOrWhiteSpace(j.Summary) ? "no summary was recorded" : j.Summary)}";

    /// <summary>The figures of the window beyond the volumes': recovery, errors, system log events, the seconds left out of the steady state.</summary>
    public static IReadOnlyList<string> FaultFigures(FaultJudgement j)
    {
        var lines = new List<string>
        {
            j.LongestStallVolume is null ? "Longest stall in the window: none" : $"Longest stall in the window: {Seconds(j.LongestStallSeconds)} on {j.LongestStallVolume}",
            j.RecoverySeconds is double rec ? $"Recovered {Seconds(rec)} after the fault's start" : "Not back within the window",
            $"I/O errors the engine saw in the window: {JetFormat.Integer(j.IoErrors)}",
            $"Storage events of the system log in the window: {JetFormat.Integer(j.SystemLogEvents)} (the stack retried or failed over; they do not fail the window by themselves)",
            ExcludedLine(j),
        };
        return lines;
    }

    /// <summary>The seconds of the measured window the steady state leaves out.</summary>
    public static string ExcludedLine(FaultJudgement j) =>
        $"Left out of the steady state: {Seconds(j.ExcludedFromSeconds)} to {Seconds(j.ExcludedToSeconds)} of the measured window ({Seconds(j.ExcludedToSeconds - j.ExcludedFromSeconds)})";

    /// <summary>The steady state's verdict in words.</summary>
    public static string SteadyStateLine(VerdictResult v) =>
        $"Steady state (the measured window outside the fault window): {v.Result}" + (v.Reasons.Count == 0 ? ", every threshold met" : "");

    public static readonly IReadOnlyList<string> VolumeHeaders = new[]
    {
        "Volume", "Longest stall (s)", "Stall began", "In flight", "Longest I/O (ms)", "I/O errors", "Error names",
        "Baseline IOPS", "Baseline latency (ms)", "I/Os lost", "Recovery (s)",
    };

    /// <summary>The same columns under the text report's short headings, with <see cref="VolumeLegend"/> below (a console is narrow).</summary>
    public static readonly IReadOnlyList<string> VolumeShortHeaders = new[]
    {
        "Volume", "Stall s", "Stall began", "In flight", "Longest I/O ms", "Errors", "Error names", "Base IOPS", "Base ms", "I/Os lost", "Recovery s",
    };

    public const string VolumeLegend =
        "Stall: the longest in the window; Base: the pre-fault baseline (I/O per second, mean latency); I/Os lost: against the baseline from the fault's start until recovered; Recovery: from the fault's start.";

    /// <summary>One row a volume through the window (<see cref="VolumeHeaders"/>), and its multipath state where the host told it.</summary>
    public static IReadOnlyList<string[]> VolumeRows(FaultJudgement j, TimeZoneInfo zone) => j.Volumes.Select(v => new[]
    {
        v.Volume, JetFormat.Number(v.LongestStallSeconds, 1), v.LongestStallStartUtc is DateTime at ? JetFormat.Time(at, zone) : "",
        JetFormat.Integer(v.InFlightThroughStall), JetFormat.Number(v.LongestIoMs, 1), JetFormat.Integer(v.IoErrors), string.Join(" ", v.ErrorNames),
        JetFormat.Number(v.BaselineIops, 1), JetFormat.Number(v.BaselineLatencyMs, 3), JetFormat.Number(v.IopsLost, 0),
        v.RecoverySeconds is double r ? JetFormat.Number(r, 1) : v.BaselineIops <= 0 ? "no baseline I/O" : "not back",
    }).ToList();

    /// <summary>The multipath state of each volume before and after the run, where the host's tools told it.</summary>
    public static IReadOnlyList<string> MultipathLines(FaultJudgement j) => j.Volumes
        .Where(v => v.MultipathBefore is not null || v.MultipathAfter is not null)
        .Select(v => $"Multipath of {v.Volume}: before the run {v.MultipathBefore ?? "not read"}; after it {v.MultipathAfter ?? "not read"}")
        .ToList();

    public static readonly IReadOnlyList<string> StallHeaders = new[]
    {
        "Volume", "Began", "At (s)", "Into window (s)", "Length (s)", "Ended", "In flight", "Longest I/O (ms)",
    };

    /// <summary>
    /// Every stall (<see cref="StallHeaders"/>): its volume, instant, seconds into the measured window and into the fault
    /// window (empty outside it), length, and whether it ended before the run did.
    /// </summary>
    public static IReadOnlyList<string[]> StallRows(FailureModeResult f, TimeZoneInfo zone) => f.Stalls.Select(s => new[]
    {
        s.Volume, JetFormat.Time(s.StartUtc, zone), JetFormat.Number(s.StartSeconds, 1),
        s.InFaultWindow && f.Window is { } w ? JetFormat.Number(s.StartSeconds - w.AtSeconds, 1) : "",
        JetFormat.Number(s.LengthSeconds, 1), s.Ended ? "yes" : "no: still stalled at the end",
        JetFormat.Integer(s.InFlight), JetFormat.Number(s.LongestIoMs, 1),
    }).ToList();

    /// <summary>The stall table's title: how many, against which limit.</summary>
    public static string StallTitle(FailureModeResult f) => f.Stalls.Count == 0
        ? $"No stall of {Seconds(f.StallDetectSeconds)} or more on any volume"
        : $"Stalls ({f.Stalls.Count}; I/O outstanding and nothing completing for {Seconds(f.StallDetectSeconds)} or more; limit {Seconds(f.StallLimitSeconds)})";

    /// <summary>A reason as the reports print one: its message, with the measured figure and its limit where it has them.</summary>
    public static string ReasonLine(VerdictReason reason) =>
        reason.Measured is double m && reason.Limit is double l ? $"{reason.Message} (measured {JetFormat.Number(m)}, limit {JetFormat.Number(l)})" : reason.Message;

    /// <summary>The section in the text report; nothing when the results hold nothing of a failure mode.</summary>
    public static void Text(StringBuilder sb, TestResults r, ReportOptions o)
    {
        if (r.FailureMode is not { } f || !Shown(f)) return;
        var zone = o.TimeZone;
        sb.Append("\nFailure mode\n");
        sb.Append("  ").Append(Line(f)).Append('\n');
        int w = WindowRows(f, zone).Max(x => x.Label.Length);
        foreach (var (label, value) in WindowRows(f, zone)) sb.Append("  ").Append(label.PadRight(w)).Append("  ").Append(value).Append('\n');
        if (f.Reseed is { } seed)
        {
            sb.Append("\nReseed\n");
            var rows = ReseedRows(seed, zone);
            int rw = rows.Max(x => x.Label.Length);
            foreach (var (label, value) in rows) sb.Append("  ").Append(label.PadRight(rw)).Append("  ").Append(value).Append('\n');
        }
        if (f.Script is { } script)
        {
            sb.Append("\nFault script\n");
            var rows = ScriptRows(script, zone);
            int sw = rows.Max(x => x.Label.Length);
            foreach (var (label, value) in rows) sb.Append("  ").Append(label.PadRight(sw)).Append("  ").Append(value).Append('\n');
            var (lines, more) = ScriptOutput(script);
            if (lines.Count > 0)
            {
                sb.Append("  Output:\n");
                foreach (var line in lines) sb.Append("    ").Append(line).Append('\n');
                if (more > 0) sb.Append("    ... and ").Append(Wording.Count(more, "more line")).Append(" (see the results JSON)\n");
            }
        }
        if (f.Fault is { } j)
        {
            sb.Append("\n  ").Append(OutcomeLine(j)).Append('\n');
            foreach (var reason in j.Reasons) sb.Append("  - ").Append(ReasonLine(reason)).Append('\n');
            foreach (var line in FaultFigures(j)) sb.Append("  ").Append(line).Append('\n');
            if (j.Volumes.Count > 0)
            {
                var table = new TextTable(VolumeShortHeaders.ToArray());
                foreach (var row in VolumeRows(j, zone)) table.Add(row);
                sb.Append("\nVolumes through the fault window\n");
                table.WriteTo(sb);
                sb.Append("  ").Append(VolumeLegend).Append('\n');
                foreach (var line in MultipathLines(j)) sb.Append("  ").Append(line).Append('\n');
            }
        }
        if (f.SteadyState is { } steady)
        {
            sb.Append("\n  ").Append(SteadyStateLine(steady)).Append('\n');
            foreach (var reason in steady.Reasons) sb.Append("  - ").Append(ReasonLine(reason)).Append('\n');
        }
        sb.Append('\n').Append(StallTitle(f)).Append('\n');
        if (f.Stalls.Count > 0)
        {
            var stalls = new TextTable(StallHeaders.ToArray());
            foreach (var row in StallRows(f, zone)) stalls.Add(row);
            stalls.WriteTo(sb);
        }
    }

    /// <summary>
    /// The section in the XML report (<c>failure-mode</c>, after Jetstress's elements, which stay as they are): the
    /// figures as attributes, reasons as <c>element/@value</c> as in <c>test-issues</c>; null when there is nothing to show.
    /// </summary>
    public static XElement? Xml(TestResults r)
    {
        if (r.FailureMode is not { } f || !Shown(f)) return null;
        static XAttribute? Optional(string name, object? value) => value is null ? null : new XAttribute(name, value);
        static string N(double v) => JetFormat.Number(v);
        static string B(bool v) => v ? "true" : "false";
        static IEnumerable<XElement> Reasons(IEnumerable<VerdictReason> reasons) => reasons.Select(x => new XElement("element",
            new XAttribute("value", x.Message), new XAttribute("code", x.Code),
            Optional("measured", x.Measured is double m ? N(m) : null), Optional("limit", x.Limit is double l ? N(l) : null)));
        return new XElement("failure-mode",
            new XAttribute("summary", Line(f)),
            new XAttribute("stall-limit-seconds", N(f.StallLimitSeconds)),
            new XAttribute("stall-detect-seconds", N(f.StallDetectSeconds)),
            new XAttribute("stall-count", f.Stalls.Count),
            f.Rejudged is { } re ? new XElement("rejudged",
                new XAttribute("source-path", re.SourcePath), new XAttribute("source-test-id", re.SourceTestId),
                new XAttribute("judged", JetFormat.Iso(re.JudgedUtc)), new XAttribute("original-result", re.OriginalResult),
                Optional("window-from-seconds", re.WindowFromSeconds is double from ? N(from) : null),
                Optional("window-to-seconds", re.WindowToSeconds is double to ? N(to) : null),
                re.Changes.Select(c => new XElement("element", new XAttribute("value", c)))) : null,
            f.Window is { } w ? new XElement("window",
                new XAttribute("at-seconds", N(w.AtSeconds)), new XAttribute("length-seconds", N(w.LengthSeconds)),
                new XAttribute("start", JetFormat.Iso(w.StartUtc)), new XAttribute("end", JetFormat.Iso(w.EndUtc)), new XAttribute("source", w.Source)) : null,
            f.Script is { } s ? new XElement("script",
                new XAttribute("path", s.Path), new XAttribute("host", s.Host), new XAttribute("ran-here", B(s.RanHere)),
                Optional("started", s.StartedUtc is DateTime st ? JetFormat.Iso(st) : null), Optional("ended", s.EndedUtc is DateTime en ? JetFormat.Iso(en) : null),
                Optional("exit-code", s.ExitCode), new XAttribute("killed", B(s.Killed)), Optional("error", s.Error is null ? null : Printable(s.Error)),
                new XElement("output", Printable(s.Output))) : null,
            f.Reseed is { } rs ? new XElement("reseed",
                new XAttribute("summary", Analysis.ReseedImpact.Line(rs)),
                new XAttribute("source-file", rs.SourceFile), new XAttribute("source-volume", rs.SourceVolume),
                new XAttribute("target-file", rs.TargetFile), new XAttribute("target-volume", rs.TargetVolume),
                new XAttribute("io-size-bytes", rs.IoSizeBytes), new XAttribute("target-mb-per-second", N(rs.TargetMBPerSecond)),
                new XAttribute("bytes-to-copy", rs.BytesToCopy), new XAttribute("bytes-seeded", rs.BytesSeeded),
                new XAttribute("start-seconds", N(rs.StartSeconds)), new XAttribute("seconds", N(rs.Seconds)),
                new XAttribute("achieved-mb-per-second", N(rs.AchievedMBPerSecond)), new XAttribute("completed", B(rs.Completed)),
                new XAttribute("ended-by", rs.EndedBy), Optional("error", rs.Error is null ? null : Printable(rs.Error)),
                rs.Volumes.Select(v => new XElement("volume",
                    new XAttribute("name", v.Volume), new XAttribute("role", v.Role),
                    new XAttribute("baseline-iops", N(v.BaselineIops)), new XAttribute("baseline-latency-ms", N(v.BaselineLatencyMs)),
                    new XAttribute("reseed-iops", N(v.ReseedIops)), new XAttribute("reseed-latency-ms", N(v.ReseedLatencyMs)),
                    Optional("latency-change-percent", v.LatencyChangePercent is double c ? N(c) : null)))) : null,
            f.Fault is { } j ? new XElement("fault",
                new XAttribute("result", j.Result), new XAttribute("summary", j.Summary),
                new XAttribute("excluded-from-seconds", N(j.ExcludedFromSeconds)), new XAttribute("excluded-to-seconds", N(j.ExcludedToSeconds)),
                new XAttribute("longest-stall-seconds", N(j.LongestStallSeconds)), Optional("longest-stall-volume", j.LongestStallVolume),
                Optional("recovery-seconds", j.RecoverySeconds is double rec ? N(rec) : null),
                new XAttribute("io-errors", j.IoErrors), new XAttribute("system-log-events", j.SystemLogEvents),
                Reasons(j.Reasons),
                j.Volumes.Select(v => new XElement("volume",
                    new XAttribute("name", v.Volume), new XAttribute("longest-stall-seconds", N(v.LongestStallSeconds)),
                    Optional("longest-stall-start", v.LongestStallStartUtc is DateTime at ? JetFormat.Iso(at) : null),
                    new XAttribute("in-flight", v.InFlightThroughStall), new XAttribute("longest-io-ms", N(v.LongestIoMs)),
                    new XAttribute("io-errors", v.IoErrors), new XAttribute("error-names", string.Join(" ", v.ErrorNames)),
                    new XAttribute("baseline-iops", N(v.BaselineIops)), new XAttribute("baseline-latency-ms", N(v.BaselineLatencyMs)),
                    new XAttribute("ios-lost", N(v.IopsLost)), Optional("recovery-seconds", v.RecoverySeconds is double vr ? N(vr) : null),
                    Optional("multipath-before", v.MultipathBefore), Optional("multipath-after", v.MultipathAfter)))) : null,
            f.SteadyState is { } steady ? new XElement("steady-state", new XAttribute("result", steady.Result), Reasons(steady.Reasons)) : null,
            f.Stalls.Select(x => new XElement("stall",
                new XAttribute("volume", x.Volume), new XAttribute("start", JetFormat.Iso(x.StartUtc)),
                new XAttribute("start-seconds", N(x.StartSeconds)), new XAttribute("length-seconds", N(x.LengthSeconds)),
                new XAttribute("ended", B(x.Ended)), new XAttribute("in-flight", x.InFlight), new XAttribute("longest-io-ms", N(x.LongestIoMs)),
                new XAttribute("in-fault-window", B(x.InFaultWindow)))));
    }

    /// <summary>Seconds as the section states them, to a tenth (stalls are measured to that): "4.8 s", "60.0 s".</summary>
    public static string Seconds(double s) => JetFormat.Number(s, 1) + " s";
}
