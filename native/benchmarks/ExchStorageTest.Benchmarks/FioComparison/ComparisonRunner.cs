using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>
/// `compare-fio`: our engine against fio's defaults and fio with registration, same file, same
/// pattern, same run, on one folder; prints the tables and writes them to out/bench/fio-comparison.md.
/// With every scenario it also checks open-loop pacing (within 1% over the paced time) and latency
/// truth on a 20 ms delay disk (within 5% of fio). `bench` (<see cref="BenchSuite"/>) runs it on the
/// virtio disk and a RAM-backed device with the creation comparisons and the regression check.
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
        // "plain" adds our engine without registered buffers and files, to show what registration saves.
        bool plain = args.Length > 6 && args[6] == "plain";
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
        report.AppendLine($"# Engine vs fio — {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {System.Environment.ProcessorCount} CPUs, load {LoadAverage()}, {seconds} s per run, {repeats} runs per side in rotating order, medians (ratio range), file {file}, {(pin ? $"all pinned to CPU {cpu}" : "none pinned")}");
        report.AppendLine();
        report.Append(ScenarioComparison.Table(ScenarioComparison.Run(file, ScenarioComparison.Select(only), seconds, repeats, pin, plain)));

        if (only is not null) { Console.WriteLine(report.ToString()); return 0; }

        // Open loop: a rate well under the QD1 capacity of the device, so there is headroom.
        var qd1 = FioRunner.Run(file, new Scenario("probe", 4096, 100, false, 1), 3);
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
            var fio = FioRunner.Run(disk.FilePath, s, Math.Min(seconds, 10), cpu);
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

    /// <summary>The 1, 5 and 15 minute load averages: other work on the machine skews every figure.</summary>
    public static string LoadAverage() => File.Exists("/proc/loadavg") ? string.Join(" ", File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "n/a";

    /// <summary>Writes the whole file with random data once, so reads hit real blocks (never holes).</summary>
    internal static void Prepare(string file, long bytes)
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

    internal static string? FindRepoRoot()
    {
        var dir = new DirectoryInfo(AppContext.BaseDirectory);
        while (dir is not null && !File.Exists(Path.Combine(dir.FullName, "ExchStorageTest.psd1"))) dir = dir.Parent;
        return dir?.FullName;
    }
}
