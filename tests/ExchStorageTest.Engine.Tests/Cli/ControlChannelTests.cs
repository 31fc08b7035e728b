using System.Diagnostics;
using System.Text.Json;

namespace ExchStorageTest.Engine.Tests.Cli;

/// <summary>
/// --control-stdin: the module's portable way to stop the engine (no console Ctrl+C reaches a child of a
/// hosted runspace, a job or a scheduled task). A "stop" line, or the caller's end of the pipe closing,
/// ends the measured window and still yields the judged, saved partial result.
/// </summary>
public class ControlChannelTests : IDisposable
{
    private readonly TestFolder _dir = new("control");

    private Process Start(out string request)
    {
        request = "{\"protocol\":1,\"command\":\"run\",\"testType\":\"Performance\",\"durationSeconds\":120,\"threadCount\":1," +
                  "\"sampleIntervalSeconds\":1,\"warmupSeconds\":0,\"outputPath\":" + JsonSerializer.Serialize(Path.Combine(_dir.Path, "Results")) + "," +
                  "\"profile\":{\"mailboxCount\":10,\"iopsPerMailbox\":0.5,\"mailboxSizeMB\":20,\"databaseCount\":1,\"databasePaths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}}";
        var psi = new ProcessStartInfo("dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        psi.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "exchstoragetest-engine.dll"));
        psi.ArgumentList.Add("--control-stdin");
        psi.Environment["DOTNET_ROLL_FORWARD"] = "Major";
        var p = Process.Start(psi)!;
        p.ErrorDataReceived += (_, _) => { };
        p.BeginErrorReadLine();
        p.StandardInput.WriteLine(request);
        p.StandardInput.Flush();
        return p;
    }

    private static List<JsonElement> ReadUntilFirstSample(Process p)
    {
        var events = new List<JsonElement>();
        string? line;
        while ((line = p.StandardOutput.ReadLine()) is not null)
        {
            var e = JsonDocument.Parse(line).RootElement.Clone();
            events.Add(e);
            if (e.GetProperty("type").GetString() == "sample") break;
        }
        return events;
    }

    private static List<JsonElement> ReadToEnd(Process p)
    {
        var events = new List<JsonElement>();
        string? line;
        while ((line = p.StandardOutput.ReadLine()) is not null) events.Add(JsonDocument.Parse(line).RootElement.Clone());
        Assert.True(p.WaitForExit(60_000), "the engine did not exit after being asked to stop");
        return events;
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Stop_line_or_closed_input_ends_the_run_with_a_saved_partial_result(bool sendStopLine)
    {
        using var p = Start(out _);
        try
        {
            var before = ReadUntilFirstSample(p);
            Assert.Contains(before, e => e.GetProperty("type").GetString() == "sample");
            if (sendStopLine) p.StandardInput.WriteLine("stop");
            p.StandardInput.Close();
            var after = ReadToEnd(p);

            Assert.Equal(3, p.ExitCode);
            var result = Assert.Single(after, e => e.GetProperty("type").GetString() == "result");
            Assert.Equal("Stopped", result.GetProperty("completion").GetString());
            string resultsPath = result.GetProperty("resultsPath").GetString()!;
            Assert.True(File.Exists(resultsPath), $"results file '{resultsPath}' was not saved");
            using var doc = JsonDocument.Parse(File.ReadAllText(resultsPath));
            Assert.NotEqual(0, doc.RootElement.GetProperty("timeSeries").GetArrayLength());
        }
        finally
        {
            if (!p.HasExited) p.Kill(true);
        }
    }

    [Fact]
    public void Only_the_first_line_is_the_request()
    {
        var psi = new ProcessStartInfo("dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        psi.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "exchstoragetest-engine.dll"));
        psi.ArgumentList.Add("--control-stdin");
        psi.Environment["DOTNET_ROLL_FORWARD"] = "Major";
        using var p = Process.Start(psi)!;
        // A request spread over lines is refused: the first line alone is not a JSON document.
        p.StandardInput.WriteLine("{\"protocol\":1,");
        p.StandardInput.WriteLine("\"command\":\"version\"}");
        p.StandardInput.Close();
        var events = ReadToEnd(p);
        Assert.Equal(2, p.ExitCode);
        Assert.Equal("RequestMalformed", events.Last().GetProperty("code").GetString());
    }

    public void Dispose() => _dir.Dispose();
}
