using System.Globalization;
using System.Text;
using ExchStorageTest.Benchmarks.ExchangeScaling;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>
/// `bench` (./build.sh Bench): everything the registered-I/O issue measures, in one run — the
/// scenarios against fio's defaults and fio with registration on the virtio disk (/var/tmp) and on a
/// RAM-backed device; creation MiB/s of one database against fio's 1 MiB sequential write at QD8 on
/// both; two databases on two RAM-backed devices against one; the Exchange mix on 1, 2 ... RAM-backed
/// volumes up to the CPU count (<see cref="ExchangeScalingBench"/>); then the regression check. Writes
/// out/bench/bench.md; exit 1 when a threshold is missed.
/// </summary>
public static class BenchSuite
{
    public static int Run(string[] args)
    {
        double seconds = args.Length > 0 ? double.Parse(args[0], CultureInfo.InvariantCulture) : 5;
        int repeats = args.Length > 1 ? int.Parse(args[1], CultureInfo.InvariantCulture) : 5;
        string? only = args.Length > 2 && args[2] is not ("*" or "all") ? args[2] : null;
        bool pin = !(args.Length > 3 && args[3] == "nopin");
        bool plain = args.Length > 4 && args[4] == "plain";
        long createBytes = (args.Length > 5 ? long.Parse(args[5], CultureInfo.InvariantCulture) : 1024) << 20;
        if (!FioRunner.Available())
        {
            Console.Error.WriteLine("fio is not installed (Debian: apt-get install fio); nothing to compare against.");
            return 2;
        }
        var report = new StringBuilder();
        // Each part is printed as soon as it is measured: a later part that fails (a RAM device that cannot
        // be built) must not take the earlier parts' figures with it.
        int shown = 0;
        void Show() { Console.Write(report.ToString(shown, report.Length - shown)); Console.Out.Flush(); shown = report.Length; }
        report.AppendLine($"# Engine vs fio — {DateTime.UtcNow:yyyy-MM-dd HH:mm} UTC, {System.Environment.ProcessorCount} CPUs, load at start {ComparisonRunner.LoadAverage()}");
        report.AppendLine();
        report.AppendLine($"{seconds} s per run after a 2 s ramp, {repeats} runs per side in rotating order; medians, ratios as median (range) of pairwise ratios; {(pin ? $"our worker and fio's job pinned to CPU {EngineRunner.PinnedCpu()}" : "nothing pinned")}; creation {createBytes >> 20} MiB per database, unpinned. \"fio\" is fio's defaults (io_uring; psync at QD1), \"fio fixed\" adds --fixedbufs --registerfiles (io_uring also at QD1).");

        string virtio = "/var/tmp/est-bench";
        Directory.CreateDirectory(virtio);
        report.AppendLine().AppendLine("## virtio disk (ext4 on /var/tmp)").AppendLine();
        report.Append(Scenarios(virtio, only, seconds, repeats, pin, plain));
        Show();
        var creations = new List<(string Volume, CreationComparison.Runs Runs)> { ("virtio", CreationComparison.Run(virtio, createBytes, repeats)) };
        report.AppendLine().Append(CreationComparison.TableHeader).Append(CreationComparison.Table("virtio", creations[0].Runs));
        Show();

        IReadOnlyList<ScenarioRuns> ram = Array.Empty<ScenarioRuns>();
        CreationComparison.ParallelRuns? parallel = null;
        string? noRam = RamVolume.Unavailable();
        if (noRam is null)
        {
            using var ram1 = new RamVolume("ram1", (2L << 30) + 2 * createBytes + (256L << 20));
            using var ram2 = new RamVolume("ram2", 2 * createBytes);
            report.AppendLine().AppendLine("## RAM-backed device (ext4 on a loop device over a /dev/shm file)").AppendLine();
            string file = Path.Combine(ram1.MountPoint, "compare.dat");
            ComparisonRunner.Prepare(file, 2L << 30);
            ram = ScenarioComparison.Run(file, ScenarioComparison.Select(only), seconds, repeats, pin, plain);
            report.Append(ScenarioComparison.Table(ram));
            Show();
            creations.Add(("RAM-backed", CreationComparison.Run(ram1.MountPoint, createBytes, repeats)));
            parallel = CreationComparison.RunParallel(ram1.MountPoint, ram2.MountPoint, createBytes, repeats);
        }

        report.AppendLine().AppendLine("## Database creation").AppendLine();
        report.Append(CreationComparison.TableHeader);
        foreach (var (volume, runs) in creations) report.Append(CreationComparison.Table(volume, runs));
        if (parallel is not null)
        {
            report.AppendLine();
            report.AppendLine(string.Create(CultureInfo.InvariantCulture,
                $"Two databases on two RAM-backed devices at once: {Stats.Median(parallel.TwoSeconds):F2} s against {Stats.Median(parallel.OneSeconds):F2} s for one alone (ratio {Stats.Median(parallel.TwoSeconds) / Stats.Median(parallel.OneSeconds):F3}; runs: two {string.Join(", ", parallel.TwoSeconds.Select(x => x.ToString("F2", CultureInfo.InvariantCulture)))} s, one {string.Join(", ", parallel.OneSeconds.Select(x => x.ToString("F2", CultureInfo.InvariantCulture)))} s)."));
        }

        ExchangeScalingBench.Runs? exchange = null;
        if (noRam is null)
        {
            // The Exchange mix on 1, 2 ... databases up to the CPU count, each on its own RAM-backed volume.
            exchange = ExchangeScalingBench.Run(ExchangeScalingBench.Options.Parse(Array.Empty<string>()));
            report.AppendLine().AppendLine("## Exchange mix scaling (RAM-backed volumes, one database each)").AppendLine();
            report.Append(ExchangeScalingBench.Table(exchange));
            Show();
        }

        report.AppendLine().AppendLine("## Regression check").AppendLine();
        int exit = 0;
        if (noRam is not null)
        {
            report.AppendLine($"Not checked: the RAM-backed device could not be built ({noRam}); the thresholds are defined on it.");
        }
        else
        {
            var limits = RegressionCheck.Evaluate(ram, creations.Single(c => c.Volume == "RAM-backed").Runs, parallel);
            if (exchange is not null) limits.AddRange(ExchangeScalingBench.Limits(exchange));
            report.Append(RegressionCheck.Table(limits));
            exit = limits.All(l => l.Met) ? 0 : 1;
        }
        report.AppendLine().AppendLine($"Load at the end: {ComparisonRunner.LoadAverage()}.");

        Show();
        string text = report.ToString();
        string outDir = Path.Combine(ComparisonRunner.FindRepoRoot() ?? virtio, "out", "bench");
        Directory.CreateDirectory(outDir);
        File.WriteAllText(Path.Combine(outDir, "bench.md"), text);
        return exit;
    }

    private static string Scenarios(string folder, string? only, double seconds, int repeats, bool pin, bool plain)
    {
        string file = Path.Combine(folder, "compare.dat");
        ComparisonRunner.Prepare(file, 2L << 30);
        return ScenarioComparison.Table(ScenarioComparison.Run(file, ScenarioComparison.Select(only), seconds, repeats, pin, plain));
    }
}
