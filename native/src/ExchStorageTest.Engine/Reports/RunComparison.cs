using System.Text;
using System.Text.Json.Serialization;
using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Counters;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>Which way a compared metric improves: "Higher", "Lower", or "None" (a setting or a size, not a better or worse).</summary>
public static class BetterWhen
{
    public const string Higher = "Higher";
    public const string Lower = "Lower";
    public const string None = "None";
}

/// <summary>What a compared run's change from the first run amounts to (<see cref="ComparisonRow.Changes"/>, <see cref="RunComparison.Judge"/>).</summary>
public static class Change
{
    /// <summary>For the better, by more than the row's floor and <see cref="RunComparison.NoChangePercent"/>.</summary>
    public const string Better = "Better";
    /// <summary>For the worse, by as much.</summary>
    public const string Worse = "Worse";
    /// <summary>No change that matters: the first run itself, a figure a run lacks, a metric without a better direction, or a change within the floor or the percentage.</summary>
    public const string None = "";
}

/// <summary>
/// One compared metric: its value in each run (NaN where a run has no such figure) and the change from
/// the first (baseline) run; <see cref="Better"/> says which way is an improvement, <see cref="Floor"/> the smallest
/// change that matters (a tenth of the limit of the rule the metric concerns, <see cref="RuleFloor"/>; NaN where no
/// rule does), and <see cref="Changes"/> what each run's change amounts to.
/// </summary>
public sealed record ComparisonRow(string Section, string Metric, IReadOnlyList<double> Values, IReadOnlyList<double> DeltaAbsolute, IReadOnlyList<double> DeltaPercent, string Better,
    double Floor, IReadOnlyList<string> Changes);

/// <summary>What each compared run was: the column heading of the comparison and the facts under it.</summary>
public sealed record ComparedRun(
    string Label, string TestType, int Hosts, IReadOnlyList<string> Machines, string Profile, DateTime StartUtc,
    double MeasuredSeconds, int ThreadCount, string Result, string Completion, IReadOnlyList<string> ResultsPaths)
{
    /// <summary>
    /// The run's overall result as its column shows it: the verdict, and how the run ended where that is not already
    /// said (a run that ended early and earned no Fail has the completion as its verdict: "Stopped", not "Stopped (Stopped)").
    /// </summary>
    public string Outcome => Completion == Completions.Complete || Completion == Result ? Result : $"{Result} ({Completion})";
}

/// <summary>
/// Several runs side by side (all-HDD against an SSD tier, before against after a firmware change): one
/// table per section with each run as a column and the deltas from the first run, and (in HTML) charts
/// with every run on the same axes. Each run may be several hosts: pass each run as its hosts' results
/// and they are merged first (rates summed, histograms merged, never percentiles averaged). The
/// percentage delta is NaN when the baseline is zero or missing.
/// </summary>
public sealed class RunComparison
{
    public required IReadOnlyList<string> Labels { get; init; }
    public required IReadOnlyList<ComparedRun> Runs { get; init; }
    public required IReadOnlyList<ComparisonRow> Rows { get; init; }

    /// <summary>The merged runs the rows come from, for the charts (not serialized: the results files hold them).</summary>
    [JsonIgnore]
    public IReadOnlyList<MergedResults> Merged { get; init; } = Array.Empty<MergedResults>();

    /// <summary>The first run's thresholds, which the rows' floors come from (deltas are against it too); the preset where it has no host.</summary>
    [JsonIgnore]
    public Planning.Thresholds Limits { get; init; } = new();

    public const string SizingSection = "Database Sizing and Throughput";
    public const string EsrpSection = "ESRP Aggregate Performance";
    public const string BackupSection = "Database Read-only Performance";
    public const string RecoverySection = "Transaction Log Recovery/Replay Performance";

    /// <summary>The sections an evaluator reads first: what the storage sustained, per test type.</summary>
    public static readonly IReadOnlyList<string> HeadlineSections = new[] { SizingSection, EsrpSection, BackupSection, RecoverySection };

    /// <summary>
    /// What a comparison is, said first by each of its renderings and by its event: separate runs side by side, each as it
    /// ran. Their figures are never added up as one deployment's; only the hosts of one run are (<see cref="RunGrouping"/>).
    /// </summary>
    public string Statement => $"A comparison of {Runs.Count} separate runs, each as it ran: their figures are compared, not added up as one deployment's.";

    /// <summary>The sections in order, each with its rows.</summary>
    public IEnumerable<IGrouping<string, ComparisonRow>> Sections() => Rows.GroupBy(r => r.Section);

    /// <summary>
    /// A change within this share of the baseline is no change (sampling noise), for every metric; one that concerns a rule
    /// must also reach the row's <see cref="ComparisonRow.Floor"/>.
    /// </summary>
    public const double NoChangePercent = 1.0;

    public static RunComparison Compare(IReadOnlyList<TestResults> runs, IReadOnlyList<string>? labels = null) =>
        Compare(runs.Select(r => (IReadOnlyList<TestResults>)new[] { r }).ToList(), labels);

    public static RunComparison Compare(IReadOnlyList<IReadOnlyList<TestResults>> runs, IReadOnlyList<string>? labels = null)
    {
        if (labels is not null && labels.Count != runs.Count)
            throw new ArgumentException("One label per run is needed.", nameof(labels));
        var merged = runs.Select(ResultsMerge.Merge).ToList();
        var names = labels ?? DefaultLabels(merged);

        var metrics = new List<Metric>();
        // What a change must reach to matter, from the first run's rules (its limits, its target): deltas are against it.
        var limits = merged.Count > 0 && merged[0].Hosts.Count > 0 ? merged[0].Hosts[0].Settings.Thresholds : new Planning.Thresholds();
        Func<MergedResults, double> iopsFloor = m => m.TargetTransactionalIops > 0 ? RuleFloor.Iops(m.TargetTransactionalIops) : double.NaN;
        Func<MergedResults, double> LatencyFloor(string stream) => _ => RuleFloor.LatencyMs(stream, limits);
        bool transactional = merged.Any(m => m.Hosts.Any(IsTransactional));
        if (transactional)
        {
            const string sizing = SizingSection;
            metrics.Add(new(sizing, "Target Transactional I/O per Second", BetterWhen.None, m => m.TargetTransactionalIops));
            metrics.Add(new(sizing, "Achieved Transactional I/O per Second", BetterWhen.Higher, m => m.AchievedTransactionalIops, iopsFloor));
            metrics.Add(new(sizing, "Achieved / target (%)", BetterWhen.Higher, m => m.TargetTransactionalIops > 0 ? m.AchievedTransactionalIops / m.TargetTransactionalIops * 100 : double.NaN,
                _ => RuleFloor.AchievedPercent));

            // The ESRP aggregate rows, from the Jetstress tables of each run's hosts (SPEC section 7).
            const string esrp = EsrpSection;
            static EsrpAggregateMetrics Esrp(MergedResults m) => EsrpAggregateMetrics.From(m.Hosts.Select(EsrpServerMetrics.From).ToList());
            metrics.Add(new(esrp, "Database Disks Transfers/sec", BetterWhen.Higher, m => Esrp(m).DatabaseDisksTransfersPerSecond, iopsFloor));
            metrics.Add(new(esrp, "Database Disks Reads/sec", BetterWhen.None, m => Esrp(m).DatabaseDisksReadsPerSecond));
            metrics.Add(new(esrp, "Database Disks Writes/sec", BetterWhen.None, m => Esrp(m).DatabaseDisksWritesPerSecond));
            metrics.Add(new(esrp, "Average Database Disk Read Latency (ms)", BetterWhen.Lower, m => Esrp(m).AverageDatabaseDiskReadLatencyMs, LatencyFloor(StreamNames.DatabaseRead)));
            metrics.Add(new(esrp, "Average Database Disk Write Latency (ms)", BetterWhen.Lower, m => Esrp(m).AverageDatabaseDiskWriteLatencyMs, LatencyFloor(StreamNames.DatabaseWrite)));
            metrics.Add(new(esrp, "Log Disks Writes/sec", BetterWhen.None, m => Esrp(m).LogDisksWritesPerSecond));
            metrics.Add(new(esrp, "Average Log Disk Write Latency (ms)", BetterWhen.Lower, m => Esrp(m).AverageLogDiskWriteLatencyMs, LatencyFloor(StreamNames.LogWrite)));
        }

        var streams = merged.SelectMany(m => m.Streams.Select(s => s.Stream)).Distinct()
            .OrderBy(ResultsMerge.StreamRank).ThenBy(s => s, StringComparer.Ordinal).ToList();
        foreach (var stream in streams)
        {
            string section = $"{stream} (per I/O, all instances)";
            double Of(MergedResults m, Func<StreamResult, double> f) => m.Stream(stream) is { } s && s.Operations + s.OperationsPerSecond > 0 ? f(s) : double.NaN;
            metrics.Add(new(section, $"{stream} operations/sec", BetterWhen.None, m => Of(m, s => s.OperationsPerSecond)));
            metrics.Add(new(section, $"{stream} average bytes", BetterWhen.None, m => Of(m, s => s.AverageBytes)));
            metrics.Add(new(section, $"{stream} mean latency (ms)", BetterWhen.Lower, m => Of(m, s => s.LatencyMs.Mean), LatencyFloor(stream)));
            metrics.Add(new(section, $"{stream} p50 latency (ms)", BetterWhen.Lower, m => Of(m, s => s.LatencyMs.P50), LatencyFloor(stream)));
            metrics.Add(new(section, $"{stream} p90 latency (ms)", BetterWhen.Lower, m => Of(m, s => s.LatencyMs.P90), LatencyFloor(stream)));
            metrics.Add(new(section, $"{stream} p99 latency (ms)", BetterWhen.Lower, m => Of(m, s => s.LatencyMs.P99), LatencyFloor(stream)));
            metrics.Add(new(section, $"{stream} p99.9 latency (ms)", BetterWhen.Lower, m => Of(m, s => s.LatencyMs.P999), LatencyFloor(stream)));
            // Without a histogram (results from Jetstress tables) there is no per-I/O maximum either.
            metrics.Add(new(section, $"{stream} max latency (ms)", BetterWhen.Lower, m => Of(m, s => s.Histogram.Count > 0 || s.LatencyMs.Max > 0 ? s.LatencyMs.Max : double.NaN), LatencyFloor(stream)));
        }

        if (merged.Any(m => m.Hosts.Any(h => h.Backup is { Instances.Count: > 0 })))
        {
            const string backup = BackupSection;
            metrics.Add(new(backup, "MB read/sec per database", BetterWhen.Higher, m => EsrpBackupSummary.From(m.Hosts)?.MBReadPerSecondPerDatabase ?? double.NaN));
            metrics.Add(new(backup, "MB read/sec total", BetterWhen.Higher, m => EsrpBackupSummary.From(m.Hosts)?.MBReadPerSecondAllServers ?? double.NaN));
        }
        if (merged.Any(m => m.Hosts.Any(h => h.SoftRecovery is { Instances.Count: > 0 })))
        {
            const string recovery = RecoverySection;
            metrics.Add(new(recovery, "Average time to play one Log file (sec)", BetterWhen.Lower, m => EsrpSoftRecoverySummary.From(m.Hosts)?.AverageSecondsPerLog ?? double.NaN));
            metrics.Add(new(recovery, "Log files replayed", BetterWhen.None, m => EsrpSoftRecoverySummary.From(m.Hosts)?.LogsReplayed ?? double.NaN));
        }

        const string hostSection = "Host System Performance (mean over hosts)";
        foreach (var counter in new[] { HostCounterNames.ProcessorTime, HostCounterNames.AvailableMBytes })
            if (merged.Any(m => m.Hosts.Any(h => h.HostCounters.Exists(c => c.Name == counter))))
                metrics.Add(new(hostSection, $"{counter} (average)", counter == HostCounterNames.ProcessorTime ? BetterWhen.Lower : BetterWhen.None,
                    m => MeanOverHosts(m, counter)));

        const string errors = "Errors";
        metrics.Add(new(errors, "I/O errors", BetterWhen.Lower, m => m.ErrorCount));
        metrics.Add(new(errors, "Reasons the verdict failed", BetterWhen.Lower, m => m.Reasons.Count));

        var rows = metrics.Select(metric =>
        {
            var values = merged.Select(metric.Value).ToList();
            double baseline = values.Count > 0 ? values[0] : double.NaN;
            var deltas = values.Select(v => v - baseline).ToList();
            var percents = values.Select(v => baseline == 0 || double.IsNaN(baseline) ? double.NaN : (v - baseline) / baseline * 100).ToList();
            double floor = metric.Floor is { } f && merged.Count > 0 ? f(merged[0]) : double.NaN;
            return new ComparisonRow(metric.Section, metric.Name, values, deltas, percents, metric.Better, floor,
                deltas.Select((d, i) => i == 0 ? Change.None : Judge(metric.Better, d, percents[i], floor)).ToList());
        }).ToList();
        return new RunComparison
        {
            Labels = names,
            Runs = merged.Select((m, i) => Describe(m, names[i])).ToList(),
            Rows = rows,
            Merged = merged,
            Limits = limits,
        };
    }

    /// <summary>One metric to compare; <c>Floor</c> gives the smallest change that matters, from the first run (<see cref="RuleFloor"/>): null or NaN where no rule concerns the metric.</summary>
    private sealed record Metric(string Section, string Name, string Better, Func<MergedResults, double> Value, Func<MergedResults, double>? Floor = null);

    /// <summary>
    /// What a change of <paramref name="delta"/> (<paramref name="percent"/> of the first run's figure) amounts to: none
    /// within <see cref="NoChangePercent"/> or, where a rule concerns the metric, below <paramref name="floor"/> — a change
    /// that cannot move a verdict is not a finding —, else for the better or the worse as <paramref name="better"/> says.
    /// </summary>
    public static string Judge(string better, double delta, double percent, double floor)
    {
        if (better == BetterWhen.None || double.IsNaN(delta) || delta == 0) return Change.None;
        if (!double.IsNaN(percent) && Math.Abs(percent) <= NoChangePercent) return Change.None;
        if (!double.IsNaN(floor) && Math.Abs(delta) < floor) return Change.None;
        return delta > 0 == (better == BetterWhen.Higher) ? Change.Better : Change.Worse;
    }

    private static bool IsTransactional(TestResults r) => TestTypes.Of(r.TestType).Transactional;

    private static double MeanOverHosts(MergedResults m, string counter)
    {
        var values = m.Hosts.Select(h => h.HostCounters.Find(c => c.Name == counter)).Where(c => c is not null).Select(c => c!.Average).ToList();
        return values.Count == 0 ? double.NaN : values.Average();
    }

    private static ComparedRun Describe(MergedResults m, string label)
    {
        var first = m.Hosts.Count > 0 ? m.Hosts[0] : new TestResults();
        double measured = m.Hosts.Count == 0 ? 0 : m.Hosts.Max(h =>
            h.Timeline.CollectionStartUtc is DateTime s && h.Timeline.CollectionEndUtc is DateTime e ? (e - s).TotalSeconds : (h.Timeline.TestEndUtc - h.Timeline.TestStartUtc).TotalSeconds);
        return new ComparedRun(label, first.TestType.ToString(), m.Hosts.Count,
            m.Hosts.Select(h => h.Environment.MachineName).Distinct(StringComparer.Ordinal).ToList(),
            string.IsNullOrEmpty(first.Profile.Name) ? "(unnamed profile)" : first.Profile.Name,
            m.TestStartUtc, Math.Round(measured, 3), m.Hosts.Sum(ReportText.SessionsRan), m.Result,
            m.Hosts.All(h => h.Completion == Completions.Complete) ? Completions.Complete : string.Join(", ", m.Hosts.Select(h => h.Completion).Distinct()),
            m.Hosts.Where(h => h.SavedPath is not null).Select(h => h.SavedPath!).ToList());
    }

    /// <summary>
    /// Names for runs the user did not label: the profile descriptions when every run has its own, else
    /// the profile names, else the names of the folders the results are in, else test type and start time.
    /// </summary>
    public static IReadOnlyList<string> DefaultLabels(IReadOnlyList<MergedResults> runs)
    {
        var candidates = new Func<MergedResults, string?>[]
        {
            m => m.Hosts.FirstOrDefault()?.Profile.Description,
            m => m.Hosts.FirstOrDefault()?.Profile.Name,
            m => m.Hosts.FirstOrDefault()?.SavedPath is string p ? Path.GetFileName(Path.GetDirectoryName(p)) : null,
        };
        foreach (var candidate in candidates)
        {
            var labels = runs.Select(candidate).ToList();
            if (labels.All(l => !string.IsNullOrWhiteSpace(l)) && labels.Distinct(StringComparer.Ordinal).Count() == labels.Count)
                return labels.Select(l => l!).ToList();
        }
        var times = runs.Select((m, i) => m.Hosts.Count == 0 ? $"Run {i + 1}" : $"{m.Hosts[0].TestType} {JetFormat.Iso(m.TestStartUtc)}").ToList();
        return times.Distinct(StringComparer.Ordinal).Count() == times.Count ? times : times.Select((t, i) => $"{t} ({i + 1})").ToList();
    }

    /// <summary>
    /// Tab-separated text: the runs, then per section a heading and per metric the value of each run (and,
    /// after the first, delta and delta %).
    /// </summary>
    public string RenderText()
    {
        var sb = new StringBuilder();
        sb.Append(Statement).Append("\n\n");
        sb.Append("Run");
        foreach (var label in Labels) sb.Append('\t').Append(label);
        sb.Append('\n');
        void RunRow(string name, Func<ComparedRun, string> value)
        {
            sb.Append(name);
            foreach (var run in Runs) sb.Append('\t').Append(value(run));
            sb.Append('\n');
        }
        RunRow("Test type", r => r.TestType);
        RunRow("Hosts", r => $"{r.Hosts} ({string.Join(", ", r.Machines)})");
        RunRow("Profile", r => r.Profile);
        RunRow("Test start (UTC)", r => JetFormat.Iso(r.StartUtc));
        RunRow("Measured (s)", r => JetFormat.Number(r.MeasuredSeconds, 0));
        RunRow("Sessions", r => JetFormat.Integer(r.ThreadCount));
        RunRow("Overall Test Result", r => r.Outcome);
        foreach (var section in Sections())
        {
            sb.Append('\n').Append(section.Key).Append('\n');
            sb.Append("Metric");
            for (int i = 0; i < Labels.Count; i++)
            {
                sb.Append('\t').Append(Labels[i]);
                if (i > 0) sb.Append("\tdelta\tdelta %");
            }
            sb.Append('\n');
            foreach (var row in section)
            {
                sb.Append(row.Metric);
                for (int i = 0; i < row.Values.Count; i++)
                {
                    sb.Append('\t').Append(JetFormat.Number(row.Values[i]));
                    if (i > 0)
                        sb.Append('\t').Append(Signed(row.DeltaAbsolute[i], 3)).Append('\t').Append(Signed(row.DeltaPercent[i], 1));
                }
                sb.Append('\n');
            }
        }
        return sb.ToString();
    }

    public static string Signed(double v, int decimals) =>
        double.IsNaN(v) ? "" : (v > 0 ? "+" : "") + JetFormat.Number(v, decimals);
}
