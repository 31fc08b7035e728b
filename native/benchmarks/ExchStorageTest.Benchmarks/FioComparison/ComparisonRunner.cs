using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>
/// Our engine against fio, same file, same pattern, same run; prints ratios ours/fio and writes them
/// to out/bench/fio-comparison.md. Goals (engine issue): IOPS >= 0.95x, p99 <= 1.1x, CPU/IO <= 1.2x,
/// open-loop rate within 1% over 60 s, mean latency within 5% of fio on a 20 ms delay disk.
/// </summary>
public static class ComparisonRunner
{
    public static int Run(string[] args)
    {
        string folder = args.Length > 0 ? args[0] : "/var/tmp/est-bench";
        double seconds = args.Length > 1 ? double.Parse(args[1], CultureInfo.InvariantCulture) : 15;
        double pacedSeconds = args.Length > 2 ? double.Parse(args[2], CultureInfo.InvariantCulture) : 60;
        // A virtual disk's figures move from run to run: each scenario runs several times,
        // alternating tools, and the table shows medians with the spread of the ratios.
        int repeats = args.Length > 3 ? int.Parse(args[3], CultureInfo.InvariantCulture) : 3;
        // Run only scenarios whose name has this as a whole word or phrase ("QD1" is not "QD16").
        string? only = args.Length > 4 && args[4] is not ("*" or "all") ? args[4] : null;
        // Placement: "pin" (default) runs our worker pinned as the engine does by default and fio
        // with --cpus_allowed on the same CPU; "nopin" leaves both to the scheduler.
        bool pin = !(args.Length > 5 && args[5] == "nopin");
        int cpu = pin ? EngineRunner.PinnedCpu() : -1;
        if (!FioRunner.Available())
        {
            Console.Error.WriteLine("fio is not installed (Debian: apt-get install fio); nothing to compare against.");
            return 2;
        }
        Directory.CreateDirectory(folder);
        string file = Path.Combine(folder, "compare.dat");
        Prepare(file, 2L << 30);

        var report = new StringBuilder();
        report.AppendLine($"# Engine vs fio — {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {System.Environment.ProcessorCount} CPUs, {seconds} s per run, {repeats} runs per tool alternating, medians (ratio range), file {file}, {(pin ? $"both tools pinned to CPU {cpu}" : "neither tool pinned")}");
        report.AppendLine();
        report.AppendLine("| scenario | backend | IOPS ours | IOPS fio | IOPS ratio | best IOPS ratio | mean µs ours | mean µs fio | mean ratio | p99 µs ours | p99 µs fio | p99 ratio | CPU µs/IO ours | CPU µs/IO fio | CPU ratio |");
        report.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var s in Scenario.Standard.Where(x => only is null || Regex.IsMatch(x.Name, $@"\b{Regex.Escape(only)}\b", RegexOptions.IgnoreCase)))
        {
            var fios = new List<Measurement>();
            var ours = new List<Measurement>();
            string backend = "";
            for (int i = 0; i < repeats; i++)
            {
                // Alternate who goes first: a cloud disk's burst credit or a host cache favours the first.
                if (i % 2 == 1) Ours();
                fios.Add(FioRunner.Run(file, s, seconds, s.QueueDepth == 1 ? "psync" : "io_uring", cpu));
                if (i % 2 == 0) Ours();
            }
            void Ours()
            {
                var (m, b) = EngineRunner.Run(file, s, seconds, pin);
                ours.Add(m);
                backend = b;
            }
            string Cell(Func<Measurement, double> f, string format) =>
                $"{Median(ours.Select(f)).ToString(format, CultureInfo.InvariantCulture)} | {Median(fios.Select(f)).ToString(format, CultureInfo.InvariantCulture)} | {RatioCell(ours, fios, f)}";
            // Best against best: on a disk whose speed jumps between states, whether each tool can reach the same plateau.
            string best = Ratio(ours.Max(m => m.Iops), fios.Max(m => m.Iops));
            report.AppendLine($"| {s.Name} | {backend} | {Cell(m => m.Iops, "F0")} | {best} | {Cell(m => m.MeanLatencyUs, "F1")} | {Cell(m => m.P99LatencyUs, "F1")} | {Cell(m => m.CpuUsPerIo, "F2")} |");
            Console.Error.WriteLine($"done: {s.Name}");
        }

        if (only is not null) { Console.WriteLine(report.ToString()); return 0; }

        // Open loop: a rate well under the QD1 capacity of the device, so there is headroom.
        var qd1 = FioRunner.Run(file, new Scenario("probe", 4096, 100, false, 1), 3, "psync");
        double rate = Math.Round(Math.Min(2000, qd1.Iops * 0.5) / 10) * 10;
        var paced = EngineRunner.RunPaced(file, 4096, rate, depth: 8, pacedSeconds, pin);
        report.AppendLine();
        report.AppendLine(Invariant($"Open loop (Poisson, 4 KiB random read, QD up to 8, {pacedSeconds} s): target {paced.TargetIops:F0} IOPS, achieved {paced.AchievedIops:F1} ({(paced.AchievedIops / paced.TargetIops - 1) * 100:+0.00;-0.00}%), late issues {paced.LateIssues}, max schedule lag {paced.MaxLagMs:F2} ms, mean latency {paced.MeanLatencyUs:F1} µs from issue / {paced.MeanScheduledLatencyUs:F1} µs from intended start."));

        report.AppendLine();
        string? why = DelayDisk.Unavailable();
        if (why is not null)
        {
            report.AppendLine($"Latency truth: skipped ({why}).");
        }
        else
        {
            using var disk = new DelayDisk(folder, "20ms");
            var s = new Scenario("4 KiB random read, QD1, 20 ms delay disk", 4096, 100, false, 1);
            var fio = FioRunner.Run(disk.FilePath, s, Math.Min(seconds, 10), "psync", cpu);
            var (ours, backend) = EngineRunner.Run(disk.FilePath, s, Math.Min(seconds, 10), pin);
            report.AppendLine(Invariant($"Latency truth (nbdkit delay filter rdelay=20ms via nbdfuse, 4 KiB random read QD1, {backend}): mean read latency ours {ours.MeanLatencyUs / 1000:F3} ms, fio {fio.MeanLatencyUs / 1000:F3} ms, ratio {Ratio(ours.MeanLatencyUs, fio.MeanLatencyUs)}."));
        }

        string text = report.ToString();
        Console.WriteLine(text);
        string outDir = Path.Combine(FindRepoRoot() ?? folder, "out", "bench");
        Directory.CreateDirectory(outDir);
        File.WriteAllText(Path.Combine(outDir, "fio-comparison.md"), text);
        return 0;
    }

    /// <summary>Writes the whole file with random data once, so reads hit real blocks (never holes).</summary>
    private static void Prepare(string file, long bytes)
    {
        if (File.Exists(file) && new FileInfo(file).Length == bytes) return;
        var rng = new Random(1);
        var block = new byte[1 << 20];
        using var fs = new FileStream(file, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20);
        for (long done = 0; done < bytes; done += block.Length)
        {
            rng.NextBytes(block);
            fs.Write(block);
        }
        fs.Flush(flushToDisk: true);
    }

    private static double Median(IEnumerable<double> values)
    {
        var v = values.OrderBy(x => x).ToArray();
        return v.Length == 0 ? 0 : v.Length % 2 == 1 ? v[v.Length / 2] : (v[v.Length / 2 - 1] + v[v.Length / 2]) / 2;
    }

    /// <summary>Median of the pairwise ratios (run i of ours against run i of fio) and their range.</summary>
    private static string RatioCell(IReadOnlyList<Measurement> ours, IReadOnlyList<Measurement> fio, Func<Measurement, double> f)
    {
        var ratios = ours.Zip(fio, (o, t) => f(t) > 0 ? f(o) / f(t) : double.NaN).Where(r => !double.IsNaN(r)).ToList();
        if (ratios.Count == 0) return "n/a";
        return Invariant($"{Median(ratios):F3} ({ratios.Min():F2}–{ratios.Max():F2})");
    }

    private static string Ratio(double ours, double theirs) => theirs <= 0 ? "n/a" : (ours / theirs).ToString("F3", CultureInfo.InvariantCulture);

    private static string Invariant(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);

    private static string? FindRepoRoot()
    {
        var dir = new DirectoryInfo(AppContext.BaseDirectory);
        while (dir is not null && !File.Exists(Path.Combine(dir.FullName, "ExchStorageTest.psd1"))) dir = dir.Parent;
        return dir?.FullName;
    }
}
