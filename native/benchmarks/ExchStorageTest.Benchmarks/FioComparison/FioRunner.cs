using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>Runs fio (Debian's package) with JSON output and reads the same figures our engine reports.</summary>
public static class FioRunner
{
    public static bool Available() => File.Exists("/usr/bin/fio") || File.Exists("/usr/local/bin/fio");

    /// <param name="cpu">Pin the job to this CPU (--cpus_allowed), or -1 to leave placement to the scheduler.</param>
    public static Measurement Run(string file, Scenario s, double seconds, string ioengine = "io_uring", int cpu = -1)
    {
        var args = new List<string>
        {
            "--name=compare", $"--filename={file}", "--direct=1", $"--ioengine={ioengine}",
            $"--rw={s.FioRw}", $"--bs={s.BlockSize}", $"--iodepth={s.QueueDepth}", "--numjobs=1",
            $"--runtime={seconds.ToString(CultureInfo.InvariantCulture)}", "--time_based", "--ramp_time=2",
            "--lat_percentiles=1", "--output-format=json", "--randrepeat=0", "--norandommap",
        };
        if (cpu >= 0) args.Add($"--cpus_allowed={cpu}");
        if (s.FioRw == "randrw") args.Add($"--rwmixread={s.ReadPercent}");
        if (s.FioRw is "write" or "randwrite" or "randrw") args.Add("--fsync=0");
        var json = RunProcess("fio", args);
        using var doc = JsonDocument.Parse(json[json.IndexOf('{')..]);
        var job = doc.RootElement.GetProperty("jobs")[0];
        var read = job.GetProperty("read");
        var write = job.GetProperty("write");
        long readIos = read.GetProperty("total_ios").GetInt64();
        long writeIos = write.GetProperty("total_ios").GetInt64();
        long ios = readIos + writeIos;
        double runtimeS = Math.Max(read.GetProperty("runtime").GetDouble(), write.GetProperty("runtime").GetDouble()) / 1000.0;
        double iops = read.GetProperty("iops").GetDouble() + write.GetProperty("iops").GetDouble();
        double mean = Weighted(read, write, readIos, writeIos, e => e.GetProperty("lat_ns").GetProperty("mean").GetDouble()) / 1000.0;
        // The p99 of the dominant direction (reads in a read-heavy mix); fio keeps them apart.
        var main = readIos >= writeIos ? read : write;
        double p99 = main.GetProperty("lat_ns").GetProperty("percentile").GetProperty("99.000000").GetDouble() / 1000.0;
        double cpuPercent = job.GetProperty("usr_cpu").GetDouble() + job.GetProperty("sys_cpu").GetDouble();
        double cpuUsPerIo = ios == 0 ? 0 : cpuPercent / 100.0 * runtimeS * 1e6 / ios;
        return new Measurement(iops, mean, p99, cpuUsPerIo);
    }

    private static double Weighted(JsonElement a, JsonElement b, long na, long nb, Func<JsonElement, double> f)
    {
        double sum = (na > 0 ? f(a) * na : 0) + (nb > 0 ? f(b) * nb : 0);
        return na + nb == 0 ? 0 : sum / (na + nb);
    }

    internal static string RunProcess(string file, IEnumerable<string> args)
    {
        var psi = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var a in args) psi.ArgumentList.Add(a);
        using var p = Process.Start(psi) ?? throw new InvalidOperationException($"Could not start {file}.");
        var stderr = p.StandardError.ReadToEndAsync();
        string stdout = p.StandardOutput.ReadToEnd();
        p.WaitForExit();
        if (p.ExitCode != 0) throw new InvalidOperationException($"{file} exited with {p.ExitCode}: {stderr.Result}");
        return stdout;
    }
}
