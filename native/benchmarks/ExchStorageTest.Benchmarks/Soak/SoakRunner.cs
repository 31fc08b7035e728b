using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace ExchStorageTest.Benchmarks.Soak;

/// <summary>
/// The memory soak (docs/benchmarks.md), not a CI test: one long Stress-like run of the real engine
/// process, its resident memory and open handle count sampled every minute, and the least-squares
/// slope of RSS after warm-up reported in MB/hour (target: under 1 MB/hour).
/// Usage: soak [folder] [minutes] [warmupMinutes] [engine.dll] [run|streams]. Linux also records the
/// anonymous (heap) part of RSS apart from the file-backed part (mapped code). The CPUs here are
/// shared, so the soak's IOPS are not a performance figure: it paces a modest open-loop rate on purpose.
/// </summary>
public static class SoakRunner
{
    public static int Run(string[] args)
    {
        string folder = args.Length > 0 ? args[0] : "/var/tmp/est-soak";
        double minutes = args.Length > 1 ? double.Parse(args[1], CultureInfo.InvariantCulture) : 60;
        double warmupMinutes = args.Length > 2 ? double.Parse(args[2], CultureInfo.InvariantCulture) : 10;
        string engine = args.Length > 3 && args[3] != "" ? args[3] : FindEngine();
        string mode = args.Length > 4 ? args[4] : "run";
        Directory.CreateDirectory(folder);
        string request = mode == "streams" ? StreamsRequest(folder, minutes) : JsonSerializer.Serialize(new
        {
            protocol = 1, command = "run", testType = "Stress", durationSeconds = minutes * 60, sampleIntervalSeconds = 15,
            warmupSeconds = 30, threadCount = 4, targetRateIops = 400, outputPath = Path.Combine(folder, "Results"),
            profile = new
            {
                name = "Soak", mailboxCount = 200, iopsPerMailbox = 1, mailboxSizeMB = 2, databaseCount = 2, copiesPerDatabase = 2,
                databasePaths = new[] { folder }, minimumDatabaseCacheMB = 16, maximumDatabaseCacheMB = 64,
            },
        });
        var psi = new ProcessStartInfo("dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        psi.ArgumentList.Add(engine);
        psi.Environment["DOTNET_ROLL_FORWARD"] = "Major";
        using var p = Process.Start(psi)!;
        p.StandardInput.Write(request);
        p.StandardInput.Close();
        string? resultLine = null;
        var reader = new Thread(() =>
        {
            string? line;
            while ((line = p.StandardOutput.ReadLine()) is not null)
                if (line.Contains("\"type\":\"result\"", StringComparison.Ordinal) || line.Contains("\"type\":\"error\"", StringComparison.Ordinal)) resultLine = line;
        }) { IsBackground = true };
        reader.Start();
        p.ErrorDataReceived += (_, _) => { };
        p.BeginErrorReadLine();

        string csv = Path.Combine(folder, "soak.csv");
        using var output = new StreamWriter(csv);
        output.WriteLine("minute,rssMB,anonMB,handles");
        Console.WriteLine($"Soak: {minutes} min {(mode == "streams" ? "streams mix" : "Stress-like run")} of {engine}; sampling every minute into {csv}.");
        var samples = new List<(double Minute, double RssMb, double AnonMb, int Handles)>();
        var sw = Stopwatch.StartNew();
        for (int m = 1; !p.WaitForExit(TimeSpan.FromMinutes(1) - (sw.Elapsed - TimeSpan.FromMinutes(m - 1))); m++)
        {
            var (rss, anon, handles) = Measure(p);
            samples.Add((sw.Elapsed.TotalMinutes, rss, anon, handles));
            output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{sw.Elapsed.TotalMinutes:F2},{rss:F2},{anon:F2},{handles}"));
            output.Flush();
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"  {sw.Elapsed.TotalMinutes,6:F1} min  RSS {rss,7:F1} MB  anon {anon,7:F1} MB  handles {handles}"));
        }
        reader.Join(TimeSpan.FromSeconds(10));
        var steady = samples.Where(s => s.Minute >= warmupMinutes).ToList();
        double slope = Slope(steady.Select(s => (s.Minute / 60, s.RssMb)).ToList());
        double anonSlope = Slope(steady.Select(s => (s.Minute / 60, s.AnonMb)).ToList());
        double handleSlope = Slope(steady.Select(s => (s.Minute / 60, (double)s.Handles)).ToList());
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"RSS after {warmupMinutes} min warm-up: {steady.FirstOrDefault().RssMb:F1} -> {steady.LastOrDefault().RssMb:F1} MB over {steady.Count} samples; slope {slope:F2} MB/hour (target < 1); anonymous part {anonSlope:F2} MB/hour. Handles: {steady.FirstOrDefault().Handles} -> {steady.LastOrDefault().Handles}, slope {handleSlope:F1}/hour. Engine exit {p.ExitCode}."));
        Console.WriteLine(resultLine is null ? "(no result event)" : resultLine.Length > 400 ? resultLine[..400] : resultLine);
        return slope < 1 ? 0 : 1;
    }

    private static (double RssMb, double AnonMb, int Handles) Measure(Process p)
    {
        if (OperatingSystem.IsLinux())
        {
            double rss = 0, anon = 0;
            foreach (var line in File.ReadLines($"/proc/{p.Id}/status"))
            {
                if (line.StartsWith("VmRSS:", StringComparison.Ordinal)) rss = Kb(line);
                if (line.StartsWith("RssAnon:", StringComparison.Ordinal)) anon = Kb(line);
            }
            return (rss / 1024, anon / 1024, Directory.GetFileSystemEntries($"/proc/{p.Id}/fd").Length);
        }
        p.Refresh();
        return (p.WorkingSet64 / 1048576.0, p.PrivateMemorySize64 / 1048576.0, p.HandleCount);
    }

    private static double Kb(string statusLine) => double.Parse(statusLine[(statusLine.IndexOf(':') + 1)..].Trim().Split(' ')[0], CultureInfo.InvariantCulture);

    /// <summary>The raw stream mix for the same time: a paced random 32 KiB mix and a log-append stream.</summary>
    private static string StreamsRequest(string folder, double minutes) => JsonSerializer.Serialize(new
    {
        protocol = 1, command = "streams", testId = "Soak", durationSeconds = minutes * 60, sampleIntervalSeconds = 15,
        outputPath = Path.Combine(folder, "Results"),
        streams = new object[]
        {
            new { name = "db", preset = "Random32K", readPercent = 64, queueDepth = 8, rateIops = 400, arrival = "Poisson", path = Path.Combine(folder, "db.dat"), fileSizeBytes = 256L << 20 },
            new { name = "log", preset = "LogAppend", queueDepth = 1, rateIops = 50, arrival = "Linear", path = Path.Combine(folder, "log.dat"), fileSizeBytes = 64L << 20 },
        },
    });

    /// <summary>Least-squares slope of y over x.</summary>
    internal static double Slope(IReadOnlyList<(double X, double Y)> points)
    {
        if (points.Count < 2) return double.NaN;
        double mx = points.Average(p => p.X), my = points.Average(p => p.Y);
        double num = points.Sum(p => (p.X - mx) * (p.Y - my)), den = points.Sum(p => (p.X - mx) * (p.X - mx));
        return den == 0 ? double.NaN : num / den;
    }

    private static string FindEngine()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            string candidate = Path.Combine(dir.FullName, "native", "src", "ExchStorageTest.Engine.Cli", "bin", "Release", "net8.0", "exchstoragetest-engine.dll");
            if (File.Exists(candidate)) return candidate;
        }
        throw new FileNotFoundException("Build the engine first (dotnet build native/ExchStorageTest.sln -c Release) or pass its dll as the fourth argument.");
    }
}
