using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text.Json;
using ExchStorageTest.Benchmarks.FioComparison;

namespace ExchStorageTest.Benchmarks.ExchangeScaling;

/// <summary>
/// Runs the published engine (bin/&lt;rid&gt;/exchstoragetest-engine: the process, runtime and GC settings the
/// module starts) with one JSON request, and returns its results document. The bench measures what users
/// run, not an in-process copy of the engine under the benchmark's own runtime settings.
/// </summary>
public static class EngineRun
{
    /// <summary>The published engine of this checkout; build.sh Bench publishes it before it runs.</summary>
    public static string Find()
    {
        string root = ComparisonRunner.FindRepoRoot() ?? throw new InvalidOperationException("Run the bench from a checkout of the repository (ExchStorageTest.psd1 not found above the benchmark).");
        string rid = RuntimeInformation.OSArchitecture == Architecture.Arm64 ? "linux-arm64" : "linux-x64";
        string engine = Path.Combine(root, "bin", rid, "exchstoragetest-engine");
        if (!File.Exists(engine)) throw new FileNotFoundException($"The published engine {engine} is missing: run ./build.sh Build (./build.sh Bench does) first.", engine);
        return engine;
    }

    /// <summary>Sends <paramref name="request"/>, waits for the engine to exit, and returns the saved results (the engine's `result` event names the file).</summary>
    public static JsonElement Run(string engine, object request)
    {
        var psi = new ProcessStartInfo(engine) { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        using var p = Process.Start(psi) ?? throw new InvalidOperationException($"Could not start {engine}.");
        var stderr = p.StandardError.ReadToEndAsync();
        p.StandardInput.Write(JsonSerializer.Serialize(request));
        p.StandardInput.Close();
        string? resultsPath = null, error = null;
        string? line;
        while ((line = p.StandardOutput.ReadLine()) is not null)
        {
            if (!line.StartsWith('{')) continue;
            using var doc = JsonDocument.Parse(line);
            var e = doc.RootElement;
            string type = e.TryGetProperty("type", out var t) ? t.GetString() ?? "" : "";
            if (type == "result" && e.TryGetProperty("resultsPath", out var path)) resultsPath = path.GetString();
            if (type == "error") error = e.TryGetProperty("message", out var m) ? m.GetString() : line;
        }
        p.WaitForExit();
        if (resultsPath is null || !File.Exists(resultsPath))
            throw new InvalidOperationException($"The engine gave no results (exit {p.ExitCode}): {error ?? stderr.Result}");
        using var results = JsonDocument.Parse(File.ReadAllText(resultsPath));
        return results.RootElement.Clone();
    }
}
