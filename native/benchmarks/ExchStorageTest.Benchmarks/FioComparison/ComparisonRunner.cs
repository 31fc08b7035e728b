using System.Globalization;
using System.Text;

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
        if (!FioRunner.Available())
        {
            Console.Error.WriteLine("fio is not installed (Debian: apt-get install fio); nothing to compare against.");
            return 2;
        }
        Directory.CreateDirectory(folder);
        string file = Path.Combine(folder, "compare.dat");
        Prepare(file, 2L << 30);

        var report = new StringBuilder();
        report.AppendLine($"# Engine vs fio — {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {System.Environment.ProcessorCount} CPUs, {seconds} s per run, file {file}");
        report.AppendLine();
        report.AppendLine("| scenario | backend | IOPS ours | IOPS fio | IOPS ratio | mean µs ours | mean µs fio | mean ratio | p99 µs ours | p99 µs fio | p99 ratio | CPU µs/IO ours | CPU µs/IO fio | CPU ratio |");
        report.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var s in Scenario.Standard)
        {
            // fio first, then ours: both see a warmed device in the same run.
            var fio = FioRunner.Run(file, s, seconds, s.QueueDepth == 1 ? "psync" : "io_uring");
            var (ours, backend) = EngineRunner.Run(file, s, seconds);
            report.AppendLine(Invariant($"| {s.Name} | {backend} | {ours.Iops:F0} | {fio.Iops:F0} | {Ratio(ours.Iops, fio.Iops)} | {ours.MeanLatencyUs:F1} | {fio.MeanLatencyUs:F1} | {Ratio(ours.MeanLatencyUs, fio.MeanLatencyUs)} | {ours.P99LatencyUs:F1} | {fio.P99LatencyUs:F1} | {Ratio(ours.P99LatencyUs, fio.P99LatencyUs)} | {ours.CpuUsPerIo:F2} | {fio.CpuUsPerIo:F2} | {Ratio(ours.CpuUsPerIo, fio.CpuUsPerIo)} |"));
            Console.Error.WriteLine($"done: {s.Name}");
        }

        // Open loop: a rate well under the QD1 capacity of the device, so there is headroom.
        var qd1 = FioRunner.Run(file, new Scenario("probe", 4096, 100, false, 1), 3, "psync");
        double rate = Math.Round(Math.Min(2000, qd1.Iops * 0.5) / 10) * 10;
        var paced = EngineRunner.RunPaced(file, 4096, rate, depth: 8, pacedSeconds);
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
            var fio = FioRunner.Run(disk.FilePath, s, Math.Min(seconds, 10), "psync");
            var (ours, backend) = EngineRunner.Run(disk.FilePath, s, Math.Min(seconds, 10));
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

    private static string Ratio(double ours, double theirs) => theirs <= 0 ? "n/a" : (ours / theirs).ToString("F3", CultureInfo.InvariantCulture);

    private static string Invariant(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);

    private static string? FindRepoRoot()
    {
        var dir = new DirectoryInfo(AppContext.BaseDirectory);
        while (dir is not null && !File.Exists(Path.Combine(dir.FullName, "ExchStorageTest.psd1"))) dir = dir.Parent;
        return dir?.FullName;
    }
}
