using System.Text;
using System.Text.Json;

namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// Writes the JSON Lines event stream (docs/protocol.md): one UTF-8 JSON object per line, flushed
/// at once so the module sees progress live. Thread-safe: the sampler, workers and the main thread
/// all report through one instance. Full results go to files; lines carry summaries. It keeps the time
/// of its last line, so a <see cref="HeartbeatThread"/> writes a heartbeat only when nothing else was said.
/// </summary>
public sealed class EventWriter
{
    private readonly Stream _out;
    private readonly object _gate = new();
    private readonly ArrayBufferWriterLite _buffer = new();
    private long _lastEventTicks = Environment.TickCount64;

    public EventWriter(Stream output) => _out = output;

    /// <summary>A writer that drops everything: for library callers and tests that need no stream.</summary>
    public static EventWriter Null { get; } = new(Stream.Null);

    /// <summary>The first line: who the engine is and, when it keeps one, its heartbeat promise (<see cref="Contract.Heartbeat"/>).</summary>
    public void Hello(string engineVersion, string os, string runtime, double? heartbeatSeconds = null) => Emit(EventTypes.Hello, w =>
    {
        w.WriteNumber(EventFields.Hello.Protocol, EngineProtocol.Version);
        w.WriteString(EventFields.Hello.EngineVersion, engineVersion);
        w.WriteString(EventFields.Hello.Os, os);
        w.WriteString(EventFields.Hello.Runtime, runtime);
        if (heartbeatSeconds is double seconds) w.WriteNumber(EventFields.Hello.HeartbeatSeconds, seconds);
    });

    /// <summary>A line that says only "alive" (no fields).</summary>
    public void Heartbeat() => Emit(EventTypes.Heartbeat, static _ => { });

    /// <summary>Milliseconds since the last line was written (any type).</summary>
    public long QuietMilliseconds => Environment.TickCount64 - Volatile.Read(ref _lastEventTicks);

    /// <summary>level: EventFields.Log.Verbose, Info or Warning.</summary>
    public void Log(string level, string message) => Emit(EventTypes.Log, w =>
    {
        w.WriteString(EventFields.Log.Level, level);
        w.WriteString(EventFields.Log.Message, message);
    });

    public void Progress(string phase, double percent, double? etaSeconds, string status) => Emit(EventTypes.Progress, w =>
    {
        w.WriteString(EventFields.Progress.Phase, phase);
        w.WriteNumber(EventFields.Progress.Percent, Math.Round(Math.Clamp(percent, 0, 100), 1));
        if (etaSeconds is double eta) w.WriteNumber(EventFields.Progress.EtaSeconds, Math.Round(eta, 1));
        w.WriteString(EventFields.Progress.Status, status);
    });

    /// <summary>An error the command goes on after (a save that failed), with the catalogue's category.</summary>
    public void Error(ErrorCode code, string message, string? target) => Error(code.Code, code.Category, message, target);

    public void Error(string code, string category, string message, string? target) => Emit(EventTypes.Error, w =>
    {
        w.WriteString(EventFields.Error.Code, code);
        w.WriteString(EventFields.Error.Category, category);
        w.WriteString(EventFields.Error.Message, message);
        if (target is not null) w.WriteString(EventFields.Error.Target, target);
    });

    /// <summary>Writes an event whose body the caller fills (samples and results).</summary>
    public void Emit(string type, Action<Utf8JsonWriter> body)
    {
        lock (_gate)
        {
            _buffer.Clear();
            using (var w = new Utf8JsonWriter(_buffer))
            {
                w.WriteStartObject();
                w.WriteString(EventFields.Type, type);
                w.WriteString(EventFields.TimeUtc, DateTime.UtcNow);
                body(w);
                w.WriteEndObject();
            }
            _buffer.Append((byte)'\n');
            _out.Write(_buffer.WrittenSpan);
            _out.Flush();
            Volatile.Write(ref _lastEventTicks, Environment.TickCount64);
        }
    }

    /// <summary>A growable byte buffer reused across events (one allocation per growth, not per line).</summary>
    private sealed class ArrayBufferWriterLite : System.Buffers.IBufferWriter<byte>
    {
        private byte[] _data = new byte[4096];
        private int _length;
        public ReadOnlySpan<byte> WrittenSpan => _data.AsSpan(0, _length);
        public void Clear() => _length = 0;
        public void Append(byte b) { GetSpan(1)[0] = b; _length++; }
        public void Advance(int count) => _length += count;
        public Memory<byte> GetMemory(int sizeHint = 0) { Ensure(sizeHint); return _data.AsMemory(_length); }
        public Span<byte> GetSpan(int sizeHint = 0) { Ensure(sizeHint); return _data.AsSpan(_length); }
        private void Ensure(int hint)
        {
            int need = _length + Math.Max(hint, 1);
            if (need > _data.Length) Array.Resize(ref _data, Math.Max(need, _data.Length * 2));
        }
    }
}
