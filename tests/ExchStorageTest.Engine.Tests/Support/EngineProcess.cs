using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text.Json;

namespace ExchStorageTest.Engine.Tests;

/// <summary>
/// The real engine process, started with a request on stdin and left running: its events are
/// collected as they come, so a test can wait for one, send a real signal, or kill it.
/// </summary>
public sealed class EngineProcess : IDisposable
{
    private readonly Process _process;
    private readonly BlockingCollection<JsonElement> _incoming = new();
    private readonly List<JsonElement> _events = new();
    private readonly Thread _reader;
    private readonly System.Text.StringBuilder _stderr = new();

    /// <param name="request">The request JSON.</param>
    /// <param name="controlChannel">Started with --control-stdin: the request is the first line and standard input stays open for <see cref="Send"/>.</param>
    /// <param name="environment">Variables set for the engine (a shorter heartbeat, say) on top of this process's.</param>
    public EngineProcess(string request, bool controlChannel = false, IReadOnlyDictionary<string, string>? environment = null)
    {
        string dll = Path.Combine(AppContext.BaseDirectory, "exchstoragetest-engine.dll");
        var psi = new ProcessStartInfo("dotnet") { RedirectStandardInput = true, RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        psi.ArgumentList.Add(dll);
        if (controlChannel) psi.ArgumentList.Add("--control-stdin");
        psi.Environment["DOTNET_ROLL_FORWARD"] = "Major";
        if (environment is not null) foreach (var (name, value) in environment) psi.Environment[name] = value;
        _process = Process.Start(psi)!;
        _process.ErrorDataReceived += (_, e) => { if (e.Data is not null) lock (_stderr) _stderr.AppendLine(e.Data); };
        _process.BeginErrorReadLine();
        if (controlChannel)
        {
            _process.StandardInput.WriteLine(request.ReplaceLineEndings(" "));
            _process.StandardInput.Flush();
        }
        else
        {
            _process.StandardInput.Write(request);
            _process.StandardInput.Close();
        }
        _reader = new Thread(() =>
        {
            string? line;
            while ((line = _process.StandardOutput.ReadLine()) is not null)
                _incoming.Add(JsonDocument.Parse(line).RootElement.Clone());
            _incoming.CompleteAdding();
        }) { IsBackground = true };
        _reader.Start();
    }

    public int Id => _process.Id;

    /// <summary>Every event read so far.</summary>
    public IReadOnlyList<JsonElement> Events => _events;

    public string StandardError { get { lock (_stderr) return _stderr.ToString(); } }

    /// <summary>Waits for the next event of <paramref name="type"/> (keeping every event on the way).</summary>
    public JsonElement WaitFor(string type, int timeoutSeconds = 120)
    {
        var deadline = DateTime.UtcNow.AddSeconds(timeoutSeconds);
        while (DateTime.UtcNow < deadline)
        {
            if (!_incoming.TryTake(out var e, TimeSpan.FromMilliseconds(200)))
            {
                if (_incoming.IsCompleted) break;
                continue;
            }
            _events.Add(e);
            if (e.GetProperty("type").GetString() == type) return e;
        }
        throw new TimeoutException($"No '{type}' event from the engine (events: {string.Join(", ", _events.Select(x => x.GetProperty("type").GetString()))}; stderr: {StandardError}).");
    }

    /// <summary>Writes one line to the control channel (<c>--control-stdin</c>).</summary>
    public void Send(string line)
    {
        _process.StandardInput.WriteLine(line);
        _process.StandardInput.Flush();
    }

    /// <summary>Waits for the next event of <paramref name="type"/> that <paramref name="match"/> accepts (keeping every event on the way).</summary>
    public JsonElement WaitFor(string type, Func<JsonElement, bool> match, int timeoutSeconds = 120)
    {
        var deadline = DateTime.UtcNow.AddSeconds(timeoutSeconds);
        while (true)
        {
            var e = WaitFor(type, Math.Max(1, (int)Math.Ceiling((deadline - DateTime.UtcNow).TotalSeconds)));
            if (match(e)) return e;
        }
    }

    /// <summary>Sends a real signal (SIGINT, SIGTERM, SIGKILL) to the engine.</summary>
    public void Signal(string name) => Io.Tool.Run("kill", "-" + name, _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));

    /// <summary>Waits for the process to end and drains its events; returns the exit code.</summary>
    public int WaitForExit(int timeoutSeconds = 120)
    {
        if (!_process.WaitForExit(timeoutSeconds * 1000)) throw new TimeoutException("The engine did not exit.");
        _process.WaitForExit();
        _reader.Join();
        while (_incoming.TryTake(out var e)) _events.Add(e);
        return _process.ExitCode;
    }

    public IEnumerable<JsonElement> OfType(string type) => _events.Where(e => e.GetProperty("type").GetString() == type);

    public void Dispose()
    {
        if (!_process.HasExited) _process.Kill(entireProcessTree: true);
        _process.WaitForExit();
        _process.Dispose();
    }
}
