using System.Diagnostics;
using System.Text.Json;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.Cli;

/// <summary>The process protocol as the module sees it: request on stdin, JSON Lines on stdout, exit codes.</summary>
public class ProcessProtocolTests : IDisposable
{
    private readonly TestFolder _dir = new("host");

    internal static (int Exit, List<JsonElement> Events) RunEngine(string request, params string[] args) => RunEngineUnder(Array.Empty<string>(), request, args);

    /// <summary>Runs the engine through <paramref name="wrapper"/> (a program and its arguments that execs the rest, e.g. prlimit).</summary>
    internal static (int Exit, List<JsonElement> Events) RunEngineUnder(IReadOnlyList<string> wrapper, string request, params string[] args)
    {
        string dll = Path.Combine(AppContext.BaseDirectory, "exchstoragetest-engine.dll");
        var psi = new ProcessStartInfo(wrapper.Count > 0 ? wrapper[0] : "dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (var w in wrapper.Skip(1)) psi.ArgumentList.Add(w);
        if (wrapper.Count > 0) psi.ArgumentList.Add("dotnet");
        psi.ArgumentList.Add(dll);
        foreach (var a in args) psi.ArgumentList.Add(a);
        psi.Environment["DOTNET_ROLL_FORWARD"] = "Major";
        using var p = Process.Start(psi)!;
        var stderr = p.StandardError.ReadToEndAsync(); // drained alongside stdout so neither pipe fills
        p.StandardInput.Write(request);
        p.StandardInput.Close();
        var lines = new List<JsonElement>();
        string? line;
        while ((line = p.StandardOutput.ReadLine()) is not null) lines.Add(JsonDocument.Parse(line).RootElement.Clone());
        p.WaitForExit();
        stderr.Wait(5000);
        return (p.ExitCode, lines);
    }

    [Fact]
    public void Hello_comes_first_with_protocol_and_engine_version()
    {
        var (exit, events) = RunEngine("{\"protocol\":1,\"command\":\"version\"}");
        Assert.Equal(0, exit);
        var hello = events[0];
        Assert.Equal("hello", hello.GetProperty("type").GetString());
        Assert.Equal(1, hello.GetProperty("protocol").GetInt32());
        Assert.False(string.IsNullOrEmpty(hello.GetProperty("engineVersion").GetString()));
        Assert.True(hello.TryGetProperty("timeUtc", out _));
    }

    [Fact]
    public void Plan_lists_every_file_and_writes_none()
    {
        string req = "{\"protocol\":1,\"command\":\"plan\",\"durationSeconds\":30,\"profile\":{\"mailboxCount\":100,\"iopsPerMailbox\":0.5,\"mailboxSizeMB\":50,\"databaseCount\":2,\"databasePaths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}}";
        var (exit, events) = RunEngine(req);
        Assert.Equal(0, exit);
        var plan = events.Single(e => e.GetProperty("type").GetString() == "plan");
        Assert.Equal(50, plan.GetProperty("targetIops").GetDouble());
        Assert.Equal(18, plan.GetProperty("files").GetArrayLength());
        // The other files a run writes: its results, the default reports beside them (named by the start time), its lock.
        var outputs = plan.GetProperty("outputs").EnumerateArray().Select(o => (o.GetProperty("kind").GetString(), o.GetProperty("path").GetString())).ToList();
        string stem = Path.Combine(_dir.Path, "Results", "Performance_<y>_<M>_<d>_<H>_<m>_<s>");
        Assert.Equal(new (string?, string?)[]
        {
            ("Results", stem + ".json"), ("Text", stem + ".txt"), ("Html", stem + ".html"), ("Xml", stem + ".xml"),
            ("Csv", stem + ".timeseries.csv"), ("PdhCsv", stem + ".perfmon.csv"), ("Esrp", stem + ".esrp.txt"),
            ("Lock", Path.Combine(_dir.Path, "ExchStorageTest.lock")),
        }, outputs);
        Assert.Empty(Directory.GetFileSystemEntries(_dir.Path));
    }

    [Theory]
    [InlineData("not json", "RequestMalformed")]
    [InlineData("", "RequestMissing")]
    [InlineData("{\"protocol\":1,\"command\":\"explode\"}", "UnknownCommand")]
    [InlineData("{\"protocol\":1,\"command\":\"plan\",\"profile\":{\"mailboxCount\":0}}", "MailboxCountOutOfRange")]
    public void Bad_requests_end_with_an_error_event_and_exit_code_2(string request, string code)
    {
        var (exit, events) = RunEngine(request);
        Assert.Equal(2, exit);
        var error = events.Last();
        Assert.Equal("error", error.GetProperty("type").GetString());
        Assert.Equal(code, error.GetProperty("code").GetString());
        Assert.Equal("InvalidArgument", error.GetProperty("category").GetString());
    }

    [ShmFact]
    public void A_run_on_tmpfs_is_refused_by_the_plan_naming_the_folder_and_leaving_nothing()
    {
        // The refusal used to come from the first open: after the lock file and DB1/Logs were made, naming an internal
        // '<db>.edb.<id>.creating' file. The plan refuses the user's folder before anything is created.
        string folder = "/dev/shm/est-plan-" + Guid.NewGuid().ToString("N")[..12];
        Directory.CreateDirectory(folder);
        try
        {
            var (exit, events) = RunEngine(Requests.Run(folder, 2).Json());
            Assert.Equal(2, exit);
            var error = events.Last();
            Assert.Equal("DirectIoUnsupported", error.GetProperty("code").GetString());
            string message = error.GetProperty("message").GetString()!;
            Assert.Contains($"'{folder}'", message, StringComparison.Ordinal);
            Assert.DoesNotContain(".creating", message, StringComparison.Ordinal);
            Assert.Empty(Directory.GetFileSystemEntries(folder));
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    public void Dispose() => _dir.Dispose();
}
