using System.Globalization;
using System.Text;
using System.Text.Json;
using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Cli.Jetstress;

/// <summary>
/// JetstressCmd's console: the engine's event stream (docs/protocol.md) read as it is written and printed the way
/// JetstressCmd prints its progress, "M/d/yyyy h:mm:ss tt -- message" in local time, to standard output and to
/// Jetstress.log. JetstressCmd is a client of the engine's protocol like the module, not a second engine. The result
/// and the errors are kept for the exit code and the one-line reason on standard error.
/// </summary>
internal sealed class JetstressConsole : Stream
{
    private readonly TextWriter _out;
    private readonly JetstressLog _log;
    private readonly MemoryStream _line = new();

    public JetstressConsole(TextWriter output, JetstressLog log)
    {
        _out = output;
        _log = log;
    }

    /// <summary>The run's result event: verdict, completion, results and report paths; null before it came.</summary>
    public JsonElement? Result { get; private set; }

    /// <summary>A re-judgement's report event (/rejudge): its verdict, results and report paths; null before it came.</summary>
    public JsonElement? Report { get; private set; }

    /// <summary>The last error event (code and message), the reason a command did not end in a result.</summary>
    public (string Code, string Message)? LastError { get; private set; }

    /// <summary>A line as JetstressCmd prints it, at <paramref name="utc"/> in local time.</summary>
    public static string Line(DateTime utc, string message) =>
        DateTime.SpecifyKind(utc, DateTimeKind.Utc).ToLocalTime().ToString("M/d/yyyy h:mm:ss tt", CultureInfo.InvariantCulture) + " -- " + message;

    /// <summary>A line of JetstressCmd's own, now.</summary>
    public void Say(string message) => Print(DateTime.UtcNow, message);

    public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));

    public override void Write(ReadOnlySpan<byte> buffer)
    {
        // The engine writes whole lines, one event each, from several threads under its own lock.
        lock (_line)
        {
            foreach (byte b in buffer)
            {
                if (b != (byte)'\n') { _line.WriteByte(b); continue; }
                Event(_line.ToArray());
                _line.SetLength(0);
            }
        }
    }

    private void Event(byte[] json)
    {
        using var document = JsonDocument.Parse(json);
        var e = document.RootElement;
        string type = e.GetProperty(EventFields.Type).GetString() ?? "";
        DateTime at = e.TryGetProperty(EventFields.TimeUtc, out var t) ? t.GetDateTime() : DateTime.UtcNow;
        switch (type)
        {
            case EventTypes.Log:
                string level = e.GetProperty(EventFields.Log.Level).GetString() ?? "";
                if (level == EventFields.Log.Verbose) return;
                string message = e.GetProperty(EventFields.Log.Message).GetString() ?? "";
                Print(at, level == EventFields.Log.Warning ? "Warning: " + message : message);
                break;
            case EventTypes.Error:
                string code = e.GetProperty(EventFields.Error.Code).GetString() ?? "";
                string text = e.GetProperty(EventFields.Error.Message).GetString() ?? "";
                LastError = (code, text);
                Print(at, $"Error {code}: {text}");
                break;
            case EventTypes.Result:
                Result = e.Clone();
                break;
            case EventTypes.Report:
                Report = e.Clone();
                break;
        }
    }

    private void Print(DateTime utc, string message)
    {
        lock (_out) _out.WriteLine(Line(utc, message));
        _log.Write(utc, message);
    }

    public override void Flush() { lock (_out) _out.Flush(); }
    public override bool CanRead => false;
    public override bool CanSeek => false;
    public override bool CanWrite => true;
    public override long Length => throw new NotSupportedException();
    public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
    public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
    public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
    public override void SetLength(long value) => throw new NotSupportedException();
}

/// <summary>
/// Jetstress.log: beside JetstressCmd, as Jetstress keeps it in its install folder (the Azure Stack template's setup step
/// counts JetstressCmd as set up once that file exists), and in the output folder of the run (<see cref="AttachRun"/>),
/// where the run's reports are and ExchangeDsc's cleanup collects *.log with them. The install folder's is shared by every
/// start and lost where that folder is read-only, so the output folder's is the run's own record. Every line JetstressCmd
/// prints is appended to both, with the process id after the time ("M/d/yyyy h:mm:ss tt -- [pid 4242] message"): runs
/// started together interleave in the install folder's log, and a run's lines stay its own. A log that cannot be written
/// costs the log, never the run: JetstressCmd says so once on standard output.
/// </summary>
internal sealed class JetstressLog
{
    public const string FileName = "Jetstress.log";
    private readonly object _gate = new();
    private readonly LogFile _install;
    private LogFile? _run;
    private List<string>? _early = new();

    public JetstressLog(string folder) => _install = new LogFile(Path.Combine(folder, FileName));

    public string LogPath => _install.Path;

    /// <summary>The output folder's log, once the run is accepted (<see cref="AttachRun"/>); null before.</summary>
    public string? RunLogPath => _run?.Path;

    /// <summary>The reason the install folder's log could not be written, once; null while it can.</summary>
    public string? Failure => _install.Failure;

    /// <summary>The line as the logs keep it: JetstressCmd's console line with this process's id.</summary>
    public static string Line(DateTime utc, int processId, string message) => JetstressConsole.Line(utc, $"[pid {processId}] {message}");

    public void Write(DateTime utc, string message)
    {
        string line = Line(utc, Environment.ProcessId, message);
        lock (_gate)
        {
            _install.Append(line);
            if (_run is not null) _run.Append(line);
            else _early?.Add(line);
        }
    }

    /// <summary>
    /// The run's own log in <paramref name="outputFolder"/> from now on, with this start's lines so far. Called once the
    /// engine accepted the run (a refused run writes nothing there); the folder is the run's output folder, which the run
    /// creates anyway. Where it is the install folder (ExchangeDsc's JetstressPath) the one file serves as both.
    /// Returns the reason it cannot be written, or null.
    /// </summary>
    public string? AttachRun(string outputFolder)
    {
        lock (_gate)
        {
            var early = _early ?? new List<string>();
            _early = null;
            string path = Path.GetFullPath(Path.Combine(outputFolder, FileName));
            if (string.Equals(path, Path.GetFullPath(_install.Path), PathNames.Comparison)) return null;
            _run = new LogFile(path);
            try
            {
                Directory.CreateDirectory(outputFolder);
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                _run.Fail(ex);
            }
            foreach (var line in early) _run.Append(line);
            return _run.Failure;
        }
    }

    /// <summary>One log file, appended to until it cannot be.</summary>
    private sealed class LogFile(string path)
    {
        public string Path { get; } = path;
        public string? Failure { get; private set; }

        public void Append(string line)
        {
            if (Failure is not null) return;
            try
            {
                File.AppendAllText(Path, line + Environment.NewLine, new UTF8Encoding(false));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                Fail(ex);
            }
        }

        public void Fail(Exception ex) => Failure ??= $"{Path} could not be written ({ex.Message}); the run goes on without it.";
    }
}
