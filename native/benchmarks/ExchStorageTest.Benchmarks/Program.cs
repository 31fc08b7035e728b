using ExchStorageTest.Benchmarks.FioComparison;

namespace ExchStorageTest.Benchmarks;

/// <summary>
/// BenchmarkDotNet micro-benchmarks; or `bench [seconds] [repeats] [scenario|all] [pin|nopin] [plain|-] [createMiB]`:
/// everything against fio on the virtio disk and a RAM-backed device, creation, and the regression
/// check (build.sh Bench); or `compare-fio [folder] [seconds] [pacedSeconds] [repeats] [scenario|all] [pin|nopin] [plain]`:
/// one folder, with the open-loop and latency-truth checks; or `creation &lt;folder&gt; [MiB] [repeats]`: database
/// creation against fio's 1 MiB sequential write at QD8 on one folder; or `soak [folder] [minutes] [warmupMinutes] [engine.dll]`: the memory soak;
/// or `exchange-scaling [counts|max] [sessionsPerDatabase] [seconds] [warmupSeconds] [repeats] [databaseMiB]`: the Exchange mix on
/// 1, 2, 4 ... RAM-backed volumes up to the CPU count, with its regression check (build.sh Bench exchange).
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "bench") return BenchSuite.Run(args[1..]);
        if (args.Length > 0 && args[0] == "compare-fio") return ComparisonRunner.Run(args[1..]);
        if (args.Length > 0 && args[0] == "creation") return CreationComparison.Command(args[1..]);
        if (args.Length > 0 && args[0] == "soak") return Soak.SoakRunner.Run(args[1..]);
        if (args.Length > 0 && args[0] == "exchange-scaling") return ExchangeScaling.ExchangeScalingBench.Command(args[1..]);
        BenchmarkDotNet.Running.BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        return 0;
    }
}
