using System.Text;
using System.Text.Json;

namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// Writes the JSON Lines event stream (docs/protocol.md): one UTF-8 JSON object per line, flushed
/// at once so the module sees progress live. Thread-safe: the sampler, workers and the main thread
/// all report through one instance. Full results go to files; lines carry summaries.
/// </summary>
public sealed class EventWriter
{
    public const int ProtocolVersion = 1;
    private readonly Stream _out;
    private readonly object _gate = new();
    private readonly ArrayBufferWriterLite _buffer = new();

    public EventWriter(Stream output) => _out = output;

    /// <summary>A writer that drops everything: for library callers and tests that need no stream.</summary>
    public static EventWriter Null { get; } = new(Stream.Null);

    public void Hello(string engineVersion, string os, string runtime) => Emit("hello", w =>
    {
        w.WriteNumber("protocol", ProtocolVersion);
        w.WriteString("engineVersion", engineVersion);
        w.WriteString("os", os);
        w.WriteString("runtime", runtime);
    });

    /// <summary>level: verbose | info | warning.</summary>
    public void Log(string level, string message) => Emit("log", w =>
    {
        w.WriteString("level", level);
        w.WriteString("message", message);
    });

    public void Progress(string phase, double percent, double? etaSeconds, string status) => Emit("progress", w =>
    {
        w.WriteString("phase", phase);
        w.WriteNumber("percent", Math.Round(Math.Clamp(percent, 0, 100), 1));
        if (etaSeconds is double eta) w.WriteNumber("etaSeconds", Math.Round(eta, 1));
        w.WriteString("status", status);
    });

    public void Error(string code, string category, string message, string? target) => Emit("error", w =>
    {
        w.WriteString("code", code);
        w.WriteString("category", category);
        w.WriteString("message", message);
        if (target is not null) w.WriteString("target", target);
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
                w.WriteString("type", type);
                w.WriteString("timeUtc", DateTime.UtcNow);
                body(w);
                w.WriteEndObject();
            }
            _buffer.Append((byte)'\n');
            _out.Write(_buffer.WrittenSpan);
            _out.Flush();
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
