using System.Globalization;
using System.Text;
using System.Text.Json;

namespace ExchStorageTest.Host.Jetstress;

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
        string line = Line(utc, message);
        lock (_out) _out.WriteLine(line);
        _log.Write(line);
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
/// Jetstress.log beside JetstressCmd, as Jetstress keeps it in its install folder (the Azure Stack template's setup
/// step counts JetstressCmd as set up once that file exists). Every line JetstressCmd prints is appended. A folder it
/// may not write to costs the log, never the run: JetstressCmd says so once on standard output.
/// </summary>
internal sealed class JetstressLog
{
    public const string FileName = "Jetstress.log";
    private readonly object _gate = new();
    private readonly string _path;
    private bool _failed;

    public JetstressLog(string folder) => _path = Path.Combine(folder, FileName);

    public string LogPath => _path;

    /// <summary>The reason the log could not be written, once; null while it can.</summary>
    public string? Failure { get; private set; }

    public void Write(string line)
    {
        lock (_gate)
        {
            if (_failed) return;
            try
            {
                File.AppendAllText(_path, line + Environment.NewLine, new UTF8Encoding(false));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                _failed = true;
                Failure = $"{_path} could not be written ({ex.Message}); the run goes on without it.";
            }
        }
    }
}
