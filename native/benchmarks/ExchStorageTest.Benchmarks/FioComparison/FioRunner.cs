using System.Diagnostics;
using System.Globalization;
using System.Text.Json;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>Runs fio (Debian's package) with JSON output and reads the same figures our engine reports.</summary>
public static class FioRunner
{
    public static bool Available() => File.Exists("/usr/bin/fio") || File.Exists("/usr/local/bin/fio");

    /// <summary>The ioengine fio runs a scenario with: psync at QD1 (as our engine does: one pread at a time), io_uring above.</summary>
    public static string DefaultEngine(Scenario s) => s.QueueDepth == 1 ? "psync" : "io_uring";

    /// <param name="file">The test file fio reads and writes.</param>
    /// <param name="s">The scenario (block size, read share, queue depth).</param>
    /// <param name="seconds">How long fio measures.</param>
    /// <param name="cpu">Pin the job to this CPU (--cpus_allowed), or -1 to leave placement to the scheduler.</param>
    /// <param name="registered">io_uring with --fixedbufs --registerfiles (buffers and file registered once, as our engine does), even at QD1.</param>
    public static Measurement Run(string file, Scenario s, double seconds, int cpu = -1, bool registered = false)
    {
        var args = new List<string>
        {
            "--name=compare", $"--filename={file}", "--direct=1", $"--ioengine={(registered ? "io_uring" : DefaultEngine(s))}",
            $"--rw={s.FioRw}", $"--bs={s.BlockSize}", $"--iodepth={s.QueueDepth}", "--numjobs=1",
            $"--runtime={seconds.ToString(CultureInfo.InvariantCulture)}", "--time_based", "--ramp_time=2",
            "--lat_percentiles=1", "--output-format=json", "--randrepeat=0", "--norandommap",
        };
        if (registered) args.AddRange(new[] { "--fixedbufs", "--registerfiles" });
        if (cpu >= 0) args.Add($"--cpus_allowed={cpu}");
        if (s.FioRw == "randrw") args.Add($"--rwmixread={s.ReadPercent}");
        if (s.FioRw is "write" or "randwrite" or "randrw") args.Add("--fsync=0");
        var job = Job(RunProcess("fio", args));
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

    /// <summary>
    /// fio writing a new file of <paramref name="bytes"/> once, 1 MiB sequential writes at QD8 (what database
    /// creation does); MiB/s of the write phase. The file is laid out afresh (fallocate, as creation
    /// reserves its space) and removed afterwards.
    /// </summary>
    public static double SequentialWriteMiBps(string file, long bytes, int cpu = -1, bool registered = false)
    {
        File.Delete(file);
        var args = new List<string>
        {
            "--name=create", $"--filename={file}", "--direct=1", "--ioengine=io_uring", "--rw=write", "--bs=1M", "--iodepth=8",
            "--numjobs=1", $"--size={bytes}", "--output-format=json", "--end_fsync=1",
        };
        if (registered) args.AddRange(new[] { "--fixedbufs", "--registerfiles" });
        if (cpu >= 0) args.Add($"--cpus_allowed={cpu}");
        try
        {
            var write = Job(RunProcess("fio", args)).GetProperty("write");
            return write.GetProperty("bw_bytes").GetDouble() / 1048576.0;
        }
        finally
        {
            File.Delete(file);
        }
    }

    private static JsonElement Job(string json)
    {
        using var doc = JsonDocument.Parse(json[json.IndexOf('{')..]);
        return doc.RootElement.GetProperty("jobs")[0].Clone();
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
