using ExchStorageTest.Benchmarks.FioComparison;

namespace ExchStorageTest.Benchmarks;

/// <summary>
/// BenchmarkDotNet micro-benchmarks, or `compare-fio [folder] [seconds] [pacedSeconds] [repeats] [scenario|all] [pin|nopin]`: our engine against fio on
/// the same file in the same run (build.ps1 Bench), or `soak [folder] [minutes] [warmupMinutes] [engine.dll]`: the memory soak.
/// </summary>
public static class Program
{
    public static int Main(string[] args)
    {
        if (args.Length > 0 && args[0] == "compare-fio") return ComparisonRunner.Run(args[1..]);
        if (args.Length > 0 && args[0] == "soak") return Soak.SoakRunner.Run(args[1..]);
        BenchmarkDotNet.Running.BenchmarkSwitcher.FromAssembly(typeof(Program).Assembly).Run(args);
        return 0;
    }
}
