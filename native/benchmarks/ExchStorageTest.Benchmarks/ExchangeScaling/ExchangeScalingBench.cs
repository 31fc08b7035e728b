using System.Globalization;
using System.Text;
using System.Text.Json;
using ExchStorageTest.Benchmarks.FioComparison;

namespace ExchStorageTest.Benchmarks.ExchangeScaling;

/// <summary>
/// The Exchange mix as the machine grows: 1, 2, 4 ... databases, each on its own RAM-backed
/// volume, run by the published engine as Performance tests closed loop (a fixed thread count, no think
/// time), and beside each the raw path on the same volumes (the engine's `streams` command, one 32 KiB
/// random 64% read QD16 stream per volume). Per count: the transactional IOPS, the CPU per transactional
/// I/O and the cores used in the measured window (`engine.measuredCpuSeconds`), the stalls, the mix
/// (reads per write, write size, transfers per log write, log write size) and the load average before
/// and after each run. `exchange-scaling [counts|max] [sessionsPerDatabase] [seconds] [warmupSeconds] [repeats] [databaseMiB] [baselineEngine]`:
/// with a baseline engine (another build's bin/&lt;rid&gt;/exchstoragetest-engine) every Exchange run is also made with it, right
/// after, so a change is judged against the same machine in the same minutes (a busy machine moves both alike).
/// </summary>
public static class ExchangeScalingBench
{
    public sealed record Options(IReadOnlyList<int> Counts, int SessionsPerDatabase, double Seconds, double WarmupSeconds, int Repeats, long DatabaseMiB, string? BaselineEngine = null)
    {
        /// <summary>1, 2, 4 ... up to the CPU count, and the CPU count itself: the goal holds up to the core count.</summary>
        public static IReadOnlyList<int> UpToCores(int cpus)
        {
            var counts = new List<int>();
            for (int n = 1; n <= cpus; n *= 2) counts.Add(n);
            if (counts[^1] != cpus) counts.Add(cpus);
            return counts;
        }

        public static Options Parse(string[] args)
        {
            string counts = args.Length > 0 ? args[0] : "max";
            return new Options(
                counts is "max" or "*" or "" ? UpToCores(System.Environment.ProcessorCount)
                    : counts.Split(',').Select(c => int.Parse(c, CultureInfo.InvariantCulture)).Distinct().Order().ToList(),
                args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 8,
                args.Length > 2 ? double.Parse(args[2], CultureInfo.InvariantCulture) : 15,
                args.Length > 3 ? double.Parse(args[3], CultureInfo.InvariantCulture) : 5,
                args.Length > 4 ? int.Parse(args[4], CultureInfo.InvariantCulture) : 3,
                args.Length > 5 ? long.Parse(args[5], CultureInfo.InvariantCulture) : 1024,
                args.Length > 6 && args[6] != "-" ? Path.GetFullPath(args[6]) : null);
        }
    }

    /// <summary>One Exchange-mix run of <see cref="Databases"/> databases, read back from its results document.</summary>
    public sealed record ExchangeRun(int Databases, int Sessions, int Workers, double Iops, double CpuUsPerTransactionalIo, double CoresUsed,
        double StallsPerSecond, double ReadsPerWrite, double WriteBytes, double TransfersPerLogWrite, double LogWriteBytes, double ReadLatencyMs,
        double WriteLatencyMs, double HostBusyCores, double LoadBefore, double LoadAfter);

    /// <summary>One raw run: a 32 KiB random 64% read QD16 stream on each of <see cref="Volumes"/> volumes.</summary>
    public sealed record RawRun(int Volumes, double Iops, double CpuUsPerIo, double CoresUsed, double HostBusyCores, double LoadBefore, double LoadAfter);

    public sealed record Runs(Options Options, List<ExchangeRun> Exchange, List<RawRun> Raw, List<ExchangeRun> Baseline);

    /// <summary>`exchange-scaling ...` on its own (`./build.sh Bench exchange ...`): the table, the checks, exit 1 on a miss.</summary>
    public static int Command(string[] args)
    {
        if (RamVolume.Unavailable() is { } why)
        {
            Console.Error.WriteLine($"The Exchange scaling bench needs RAM-backed volumes, which cannot be built here: {why}.");
            return 2;
        }
        var options = Options.Parse(args);
        var report = new StringBuilder();
        report.AppendLine($"# Exchange mix scaling — {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {System.Environment.ProcessorCount} CPUs, load at start {ComparisonRunner.LoadAverage()}").AppendLine();
        var runs = Run(options);
        report.Append(Table(runs));
        var limits = Limits(runs);
        report.AppendLine().AppendLine("## Regression check").AppendLine().Append(RegressionCheck.Table(limits));
        report.AppendLine().AppendLine($"Load at the end: {ComparisonRunner.LoadAverage()}.");
        string text = report.ToString();
        Console.Write(text);
        string outDir = Path.Combine(ComparisonRunner.FindRepoRoot() ?? "/var/tmp", "out", "bench");
        Directory.CreateDirectory(outDir);
        File.WriteAllText(Path.Combine(outDir, "exchange-scaling.md"), text);
        return limits.All(l => l.Met) ? 0 : 1;
    }

    /// <summary>Builds one RAM-backed volume per database of the largest count, then runs every count <see cref="Options.Repeats"/> times in rotating order.</summary>
    public static Runs Run(Options o)
    {
        string enginePath = EngineRun.Find();
        int most = o.Counts.Max();
        var volumes = new List<RamVolume>();
        var runs = new Runs(o, new(), new(), new());
        if (o.BaselineEngine is { } b && !File.Exists(b)) throw new FileNotFoundException($"The baseline engine {b} does not exist.", b);
        // Every run's results document is kept for a closer look, the last bench's only.
        string results = Path.Combine(ComparisonRunner.FindRepoRoot() ?? "/var/tmp", "out", "bench", "exchange-results");
        if (Directory.Exists(results)) Directory.Delete(results, recursive: true);
        Directory.CreateDirectory(results);
        using var host = new HostCpuSampler();
        try
        {
            // The database, its growth (at most 10%), its logs, the raw stream's file and ext4's own share.
            long volumeBytes = (o.DatabaseMiB * 5 / 4 + RawFileMiB + 384) << 20;
            for (int i = 0; i < most; i++) volumes.Add(new RamVolume($"xdb{i + 1}", volumeBytes));
            for (int r = 0; r < o.Repeats; r++)
            {
                for (int k = 0; k < o.Counts.Count; k++)
                {
                    int n = o.Counts[(k + r) % o.Counts.Count];
                    var mounts = volumes.Take(n).Select(v => v.MountPoint).ToList();
                    runs.Exchange.Add(RunExchange(enginePath, mounts, o, Path.Combine(results, $"exchange-{n}db-{r + 1}"), host));
                    runs.Raw.Add(RunRaw(enginePath, mounts, o.Seconds, Path.Combine(results, $"raw-{n}vol-{r + 1}"), host));
                    if (o.BaselineEngine is { } baseline)
                        runs.Baseline.Add(RunExchange(baseline, mounts, o, Path.Combine(results, $"baseline-{n}db-{r + 1}"), host));
                    Console.Error.WriteLine($"done: {n} database(s), repeat {r + 1}: {runs.Exchange[^1].Iops:F0} transactional IOPS, {runs.Exchange[^1].CpuUsPerTransactionalIo:F2} µs CPU per transactional I/O; raw {runs.Raw[^1].Iops:F0} IOPS");
                }
            }
        }
        finally
        {
            foreach (var v in volumes) v.Dispose();
        }
        return runs;
    }

    private const long RawFileMiB = 256;

    /// <summary>A Performance run, closed loop, on fresh databases (created outside the measured window, removed after).</summary>
    private static ExchangeRun RunExchange(string enginePath, IReadOnlyList<string> mounts, Options o, string output, HostCpuSampler host)
    {
        var folders = mounts.Select(m => Path.Combine(m, "db")).ToList();
        foreach (var f in folders) { if (Directory.Exists(f)) Directory.Delete(f, recursive: true); Directory.CreateDirectory(f); }
        int n = mounts.Count;
        var request = new
        {
            protocol = 1, command = "run", testType = "Performance", durationSeconds = o.Seconds, warmupSeconds = o.WarmupSeconds,
            sampleIntervalSeconds = Math.Max(1, Math.Min(5, o.Seconds / 3)), threadCount = n * o.SessionsPerDatabase, outputPath = output, allowBufferedIo = RamVolume.Buffered,
            profile = new
            {
                name = "Exchange scaling", mailboxCount = n * o.DatabaseMiB, iopsPerMailbox = 1, mailboxSizeMB = 1, databaseCount = n,
                databasePaths = folders,
            },
        };
        double before = LoadOne();
        JsonElement r;
        try { r = EngineRun.Run(enginePath, request); }
        finally { foreach (var f in folders) if (Directory.Exists(f)) Directory.Delete(f, recursive: true); }
        double after = LoadOne();
        var engine = r.GetProperty("engine");
        double stalls = 0, reads = 0, writes = 0, writeBytes = 0, logs = 0, logBytes = 0, readLatency = 0, writeLatency = 0;
        foreach (var inst in r.GetProperty("instances").EnumerateArray())
        {
            stalls += inst.GetProperty("pageFaultStallsPerSecond").GetDouble();
            foreach (var s in inst.GetProperty("streams").EnumerateArray())
            {
                double ops = s.GetProperty("operations").GetDouble();
                switch (s.GetProperty("stream").GetString())
                {
                    case "DatabaseRead": reads += ops; readLatency += ops * s.GetProperty("latencyMs").GetProperty("mean").GetDouble(); break;
                    case "DatabaseWrite": writes += ops; writeBytes += s.GetProperty("bytes").GetDouble(); writeLatency += ops * s.GetProperty("latencyMs").GetProperty("mean").GetDouble(); break;
                    case "LogWrite": logs += ops; logBytes += s.GetProperty("bytes").GetDouble(); break;
                }
            }
        }
        return new ExchangeRun(n, n * o.SessionsPerDatabase, engine.GetProperty("workerCount").GetInt32(),
            r.GetProperty("sizing").GetProperty("achievedTransactionalIops").GetDouble(),
            Number(engine, "cpuMicrosecondsPerTransactionalIo"), Number(engine, "measuredCoresUsed"),
            stalls, writes > 0 ? reads / writes : double.NaN, writes > 0 ? writeBytes / writes : double.NaN,
            logs > 0 ? (reads + writes) / logs : double.NaN, logs > 0 ? logBytes / logs : double.NaN,
            reads > 0 ? readLatency / reads : double.NaN, writes > 0 ? writeLatency / writes : double.NaN, HostBusy(r, host), before, after);
    }

    /// <summary>The raw path on the same volumes: one 32 KiB random 64% read QD16 stream per volume, write-through like the databases.</summary>
    private static RawRun RunRaw(string enginePath, IReadOnlyList<string> mounts, double seconds, string output, HostCpuSampler host)
    {
        var request = new
        {
            protocol = 1, command = "streams", testId = "ExchangeScalingRaw", durationSeconds = seconds,
            sampleIntervalSeconds = Math.Max(1, Math.Min(5, seconds / 3)), outputPath = output, allowBufferedIo = RamVolume.Buffered,
            streams = mounts.Select((m, i) => new { name = $"raw{i + 1}", preset = "Random32K", readPercent = 64, queueDepth = 16, path = Path.Combine(m, "raw.dat"), fileSizeBytes = RawFileMiB << 20 }).ToArray(),
        };
        double before = LoadOne();
        var r = EngineRun.Run(enginePath, request);
        double after = LoadOne();
        var engine = r.GetProperty("engine");
        double iops = 0;
        foreach (var inst in r.GetProperty("instances").EnumerateArray())
            foreach (var s in inst.GetProperty("streams").EnumerateArray()) iops += s.GetProperty("operationsPerSecond").GetDouble();
        long ops = engine.GetProperty("totalOperations").GetInt64();
        double cpu = engine.GetProperty("measuredCpuSeconds").GetDouble();
        return new RawRun(mounts.Count, iops, ops > 0 ? cpu * 1e6 / ops : double.NaN, engine.GetProperty("measuredCoresUsed").GetDouble(), HostBusy(r, host), before, after);
    }

    /// <summary>The machine's busy CPUs over the run's measured window (its results' timeline).</summary>
    private static double HostBusy(JsonElement results, HostCpuSampler host)
    {
        var t = results.GetProperty("timeline");
        if (t.GetProperty("collectionStartUtc").ValueKind != JsonValueKind.String || t.GetProperty("collectionEndUtc").ValueKind != JsonValueKind.String) return double.NaN;
        return host.BusyCores(t.GetProperty("collectionStartUtc").GetDateTime().ToUniversalTime(), t.GetProperty("collectionEndUtc").GetDateTime().ToUniversalTime());
    }

    /// <summary>A number of the results, NaN where an older engine (a baseline) did not record it.</summary>
    private static double Number(JsonElement e, string name) => e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Number ? v.GetDouble() : double.NaN;

    /// <summary>The 1-minute load average (other work on the machine skews every wall-clock figure).</summary>
    private static double LoadOne() =>
        File.Exists("/proc/loadavg") ? double.Parse(File.ReadAllText("/proc/loadavg").Split(' ')[0], CultureInfo.InvariantCulture) : double.NaN;

    /// <summary>Per count and repeat, the ratio of its IOPS to one database's in the same repeat (runs close in time share the machine's state).</summary>
    public static List<double> ScalingRatios(Runs runs, int n) =>
        PerRepeat(runs.Exchange.Where(x => x.Databases == 1).Select(x => x.Iops), runs.Exchange.Where(x => x.Databases == n).Select(x => x.Iops));

    /// <summary>Repeat by repeat, each of <paramref name="figures"/> over the same repeat's <paramref name="baseline"/> (a zero baseline is left out).</summary>
    private static List<double> PerRepeat(IEnumerable<double> baseline, IEnumerable<double> figures) =>
        baseline.Zip(figures, (b, f) => b > 0 ? f / b : double.NaN).Where(r => !double.IsNaN(r)).ToList();

    /// <summary>What each count must reach against one database: 0.75 x N up to the core count, and on this project's 2-CPU VM the issue's proxy, 1.7 for two.</summary>
    public static double ScalingGoal(int n) => n == 2 ? 1.7 : 0.75 * n;

    /// <summary>
    /// The Exchange mix's CPU per transactional I/O over the raw path's CPU per I/O on the same volume
    /// (one database): the engine's own work per I/O (the cache model, the page content and its checks,
    /// the log) with the machine's speed divided out. Measured at 3.9 before the CPU-per-I/O work on the 2-vCPU VM;
    /// the goal halves the Exchange figure.
    /// </summary>
    public const double CpuRatioBound = 2.0;

    /// <summary>Per count and repeat, the raw path's IOPS on N volumes over one volume's in the same repeat: how far the rig itself scales.</summary>
    public static List<double> RawScalingRatios(Runs runs, int n) =>
        PerRepeat(runs.Raw.Where(x => x.Volumes == 1).Select(x => x.Iops), runs.Raw.Where(x => x.Volumes == n).Select(x => x.Iops));

    /// <summary>
    /// The Exchange mix keeps at least this share of the raw path's scaling on the same volumes (per repeat, its N-over-one
    /// ratio over the raw path's in the same repeat): the engine's share of the scaling goal, which a rig whose kernel path
    /// stops scaling (loop devices' workers on a machine they fill) cannot hide. Measured 0.92-1.07 on a 16-core host and
    /// 1.01-1.15 on the 2-vCPU VM.
    /// </summary>
    public const double ScalingAgainstRawBound = 0.85;

    public static List<RegressionCheck.Limit> Limits(Runs runs)
    {
        var limits = new List<RegressionCheck.Limit>();
        foreach (int n in runs.Options.Counts.Where(n => n > 1 && n <= System.Environment.ProcessorCount))
        {
            var ratios = ScalingRatios(runs, n);
            if (ratios.Count == 0) continue;
            // A goal the raw path on the same volumes does not reach cannot be shown by this rig: printed, not judged;
            // the engine is then held to the rig's scaling instead (the next check).
            var raw = RawScalingRatios(runs, n);
            string? rigLimit = raw.Count > 0 && Stats.Median(raw) < ScalingGoal(n)
                ? string.Create(CultureInfo.InvariantCulture, $"the raw path on these volumes scales {Stats.Median(raw):F2}x")
                : null;
            limits.Add(new($"Exchange mix transactional IOPS, {n} databases/1 database (closed loop, {runs.Options.SessionsPerDatabase} sessions each)", Stats.Median(ratios), ScalingGoal(n), false, rigLimit));
            var kept = PerRepeat(raw, ratios);
            if (kept.Count > 0) limits.Add(new($"Exchange mix scaling/raw path scaling on the same volumes, {n} databases", Stats.Median(kept), ScalingAgainstRawBound, false));
        }
        var cpuRatios = CpuRatios(runs, 1);
        if (cpuRatios.Count > 0) limits.Add(new("Exchange mix CPU per transactional I/O/raw 32 KiB QD16 CPU per I/O, 1 database", Stats.Median(cpuRatios), CpuRatioBound, true));
        return limits;
    }

    private static List<double> CpuRatios(Runs runs, int n) =>
        PerRepeat(runs.Raw.Where(e => e.Volumes == n).Select(e => e.CpuUsPerIo), runs.Exchange.Where(e => e.Databases == n).Select(e => e.CpuUsPerTransactionalIo));

    public static string Table(Runs runs)
    {
        var o = runs.Options;
        var t = new StringBuilder();
        t.AppendLine(Invariant($"Performance runs of the published engine, closed loop ({o.SessionsPerDatabase} sessions per database, no think time), {o.Seconds:0.#} s measured after a warm-up of at most {o.WarmupSeconds:0.#} s, one {o.DatabaseMiB} MiB database per RAM-backed volume ({RamVolume.Description}), created fresh for each run outside the measured window; {o.Repeats} runs per count in rotating order. Raw: the engine's `streams` command on the same volumes, one 32 KiB random 64% read QD16 write-through stream per volume. Cells are medians (range); \"x one\" is the median of each repeat's ratio to one database in the same repeat; CPU is the engine's whole process in the measured window (`engine.measuredCpuSeconds`); \"machine busy\" is every CPU of the machine in the same window (/proc/stat: the kernel's I/O threads, and any other work). Load is the 1-minute load average before → after each run (min–max)."));
        t.AppendLine();
        t.AppendLine("| databases | sessions | workers | transactional IOPS | x one | goal | CPU µs per transactional I/O | cores used | machine busy | stalls/s | raw IOPS | raw x one | raw CPU µs/IO | raw machine busy | CPU Exchange/raw | load |");
        t.AppendLine("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        foreach (int n in o.Counts)
        {
            var x = runs.Exchange.Where(e => e.Databases == n).ToList();
            var raw = runs.Raw.Where(e => e.Volumes == n).ToList();
            if (x.Count == 0) continue;
            var scale = n == 1 ? "1" : Cell(ScalingRatios(runs, n), "F2");
            var loads = x.Select(e => e.LoadBefore).Concat(x.Select(e => e.LoadAfter)).Concat(raw.Select(e => e.LoadAfter)).Where(v => !double.IsNaN(v)).ToList();
            t.AppendLine(Invariant($"| {n} | {x[0].Sessions} | {x[0].Workers} | {Cell(x.Select(e => e.Iops).ToList(), "F0")} | {scale} | {(n == 1 ? "" : ScalingGoal(n).ToString("0.##", CultureInfo.InvariantCulture))} | {Cell(x.Select(e => e.CpuUsPerTransactionalIo).ToList(), "F2")} | {Cell(x.Select(e => e.CoresUsed).ToList(), "F2")} | {Cell(x.Select(e => e.HostBusyCores).Where(v => !double.IsNaN(v)).ToList(), "F1")} | {Stats.Median(x.Select(e => e.StallsPerSecond)):F0} | {Cell(raw.Select(e => e.Iops).ToList(), "F0")} | {(n == 1 ? "1" : Cell(RawScalingRatios(runs, n), "F2"))} | {Cell(raw.Select(e => e.CpuUsPerIo).ToList(), "F2")} | {Cell(raw.Select(e => e.HostBusyCores).Where(v => !double.IsNaN(v)).ToList(), "F1")} | {Cell(CpuRatios(runs, n), "F2")} | {(loads.Count == 0 ? "n/a" : $"{loads.Min():F1}–{loads.Max():F1}")} |"));
        }
        if (runs.Baseline.Count > 0)
        {
            t.AppendLine();
            t.AppendLine($"Against the baseline engine `{o.BaselineEngine}`, each of its runs right after this build's on the same volumes (ratios: median (range) of the pairs):");
            t.AppendLine();
            t.AppendLine("| databases | baseline transactional IOPS | baseline CPU µs per transactional I/O | baseline stalls/s | IOPS this/baseline | CPU per I/O this/baseline |");
            t.AppendLine("|---:|---:|---:|---:|---:|---:|");
            foreach (int n in o.Counts)
            {
                var x = runs.Exchange.Where(e => e.Databases == n).ToList();
                var b = runs.Baseline.Where(e => e.Databases == n).ToList();
                if (b.Count == 0) continue;
                var iops = PerRepeat(b.Select(e => e.Iops), x.Select(e => e.Iops));
                var cpu = PerRepeat(b.Select(e => e.CpuUsPerTransactionalIo), x.Select(e => e.CpuUsPerTransactionalIo));
                t.AppendLine(Invariant($"| {n} | {Cell(b.Select(e => e.Iops).ToList(), "F0")} | {Cell(b.Select(e => e.CpuUsPerTransactionalIo).ToList(), "F2")} | {Stats.Median(b.Select(e => e.StallsPerSecond)):F0} | {Cell(iops, "F2")} | {Cell(cpu, "F2")} |"));
            }
        }
        t.AppendLine();
        t.AppendLine("The mix the runs produced (medians over the runs; SPEC's per-database bands are for tuned runs at the profile's rate — closed loop with more sessions commits more per log write):");
        t.AppendLine();
        t.AppendLine("| databases | DB reads per write | DB write bytes | DB transfers per log write | log write bytes | DB read latency ms | DB write latency ms |");
        t.AppendLine("|---:|---:|---:|---:|---:|---:|---:|");
        foreach (int n in o.Counts)
        {
            var x = runs.Exchange.Where(e => e.Databases == n).ToList();
            if (x.Count == 0) continue;
            t.AppendLine(Invariant($"| {n} | {Stats.Median(x.Select(e => e.ReadsPerWrite)):F2} | {Stats.Median(x.Select(e => e.WriteBytes)):F0} | {Stats.Median(x.Select(e => e.TransfersPerLogWrite)):F1} | {Stats.Median(x.Select(e => e.LogWriteBytes)):F0} | {Stats.Median(x.Select(e => e.ReadLatencyMs)):F3} | {Stats.Median(x.Select(e => e.WriteLatencyMs)):F3} |"));
        }
        return t.ToString();
    }

    private static string Cell(IReadOnlyList<double> values, string format) =>
        values.Count == 0 ? "n/a"
        : values.Count == 1 ? values[0].ToString(format, CultureInfo.InvariantCulture)
        : $"{Stats.Median(values).ToString(format, CultureInfo.InvariantCulture)} ({values.Min().ToString(format, CultureInfo.InvariantCulture)}–{values.Max().ToString(format, CultureInfo.InvariantCulture)})";

    private static string Invariant(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
