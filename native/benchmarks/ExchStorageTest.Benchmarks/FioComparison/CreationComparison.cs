using System.Diagnostics;
using System.Globalization;
using System.Text;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>
/// Database creation at device speed: one database created by the engine (header, space reserved,
/// every page stamped and written, flushed, header completed: wall time end to end) against fio
/// writing a new file of the same size with 1 MiB sequential writes at QD8; and two databases on two
/// volumes at once against one alone (wall time).
/// </summary>
public static class CreationComparison
{
    public sealed record Runs(List<double> OursMiBps, List<double> FioMiBps, List<double> FioFixedMiBps);

    public sealed record ParallelRuns(List<double> OneSeconds, List<double> TwoSeconds);

    /// <summary>`creation &lt;folder&gt; [MiB] [repeats]`: the creation comparison on one folder, printed as a table.</summary>
    public static int Command(string[] args)
    {
        string folder = args.Length > 0 ? args[0] : "/var/tmp/est-bench";
        long bytes = (args.Length > 1 ? long.Parse(args[1], CultureInfo.InvariantCulture) : 1024) << 20;
        int repeats = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 3;
        Directory.CreateDirectory(folder);
        Console.WriteLine($"Load at start {ComparisonRunner.LoadAverage()}, {bytes >> 20} MiB per database, {repeats} runs per side");
        Console.Write(TableHeader + Table(folder, Run(folder, bytes, repeats)));
        Console.WriteLine($"Load at the end {ComparisonRunner.LoadAverage()}");
        return 0;
    }

    /// <summary>Creation MiB/s on <paramref name="folder"/>, each side <paramref name="repeats"/> times in rotating order.</summary>
    public static Runs Run(string folder, long bytes, int repeats)
    {
        var runs = new Runs(new(), new(), new());
        string fioFile = Path.Combine(folder, "est-create-fio.dat");
        for (int i = 0; i < repeats; i++)
        {
            for (int k = 0; k < 3; k++)
            {
                switch ((i + k) % 3)
                {
                    case 0: runs.OursMiBps.Add(bytes / 1048576.0 / CreateSeconds(new[] { folder }, bytes)); break;
                    case 1: runs.FioMiBps.Add(FioRunner.SequentialWriteMiBps(fioFile, bytes)); break;
                    case 2: runs.FioFixedMiBps.Add(FioRunner.SequentialWriteMiBps(fioFile, bytes, registered: true)); break;
                }
            }
        }
        Console.Error.WriteLine($"done: creation on {folder}");
        return runs;
    }

    /// <summary>One database on <paramref name="a"/> alone, then one each on <paramref name="a"/> and <paramref name="b"/> at once.</summary>
    public static ParallelRuns RunParallel(string a, string b, long bytes, int repeats)
    {
        var runs = new ParallelRuns(new(), new());
        for (int i = 0; i < repeats; i++)
        {
            if (i % 2 == 0) runs.OneSeconds.Add(CreateSeconds(new[] { a }, bytes));
            runs.TwoSeconds.Add(CreateSeconds(new[] { a, b }, bytes));
            if (i % 2 == 1) runs.OneSeconds.Add(CreateSeconds(new[] { a }, bytes));
        }
        Console.Error.WriteLine("done: parallel creation");
        return runs;
    }

    /// <summary>Creates one database of <paramref name="bytes"/> in each folder (all at once, as a run does), removes them, returns the wall time.</summary>
    private static double CreateSeconds(IReadOnlyList<string> folders, long bytes)
    {
        var jobs = new List<DatabaseCreation.Job>();
        for (int i = 0; i < folders.Count; i++)
        {
            string dir = Directory.CreateDirectory(Path.Combine(folders[i], $"est-create-DB{i + 1}")).FullName;
            var inst = new PlannedInstance
            {
                Index = i + 1, DatabaseFolder = dir, DatabaseFile = Path.Combine(dir, TestPlan.DatabaseFileName(i + 1)),
                LogFolder = Path.Combine(dir, "Logs"), DatabaseSizeBytes = bytes, LogGenerations = 0,
            };
            jobs.Add(new DatabaseCreation.Job(inst, bytes / PageFormat.PageSize, Exists: false));
        }
        var sw = Stopwatch.StartNew();
        try
        {
            DatabaseCreation.CreateAll(jobs, allowBuffered: false, EventWriter.Null, _ => { }, CancellationToken.None);
            return sw.Elapsed.TotalSeconds;
        }
        finally
        {
            foreach (var j in jobs) Directory.Delete(j.Instance.DatabaseFolder, recursive: true);
        }
    }

    public static string Table(string device, Runs r)
    {
        var t = new StringBuilder();
        t.AppendLine(Invariant($"| {device} | {Stats.Median(r.OursMiBps):F0} | {Stats.Median(r.FioMiBps):F0} | {Stats.Median(r.FioFixedMiBps):F0} | {ScenarioComparison.Cell(Ratio(r.OursMiBps, r.FioMiBps))} | {ScenarioComparison.Cell(Ratio(r.OursMiBps, r.FioFixedMiBps))} |"));
        return t.ToString();
    }

    public const string TableHeader = "| volume | creation MiB/s ours | fio 1 MiB seq write QD8, MiB/s | fio fixed, MiB/s | ours/fio | ours/fio fixed |\n|---|---:|---:|---:|---:|---:|\n";

    /// <summary>Pairwise ratios of two lists of the same length: median, min, max.</summary>
    public static (double Median, double Min, double Max) Ratio(IReadOnlyList<double> a, IReadOnlyList<double> b)
    {
        var ratios = a.Zip(b, (x, y) => y > 0 ? x / y : double.NaN).Where(x => !double.IsNaN(x)).ToList();
        return ratios.Count == 0 ? (double.NaN, double.NaN, double.NaN) : (Stats.Median(ratios), ratios.Min(), ratios.Max());
    }

    private static string Invariant(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
