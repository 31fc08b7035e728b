using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// A reseed during the load (docs/failure-mode.md): from the fault window's start, a thread of its own reads the source
/// database sequentially in <see cref="ReseedRules.IoSizeBytes"/> pieces and writes each to a new file on the spare folder,
/// paced to <see cref="ReseedRules.TargetBytesPerSecond"/>, until the copy is complete, the window ends or the run does.
/// Its I/O is not the application's: it goes around the load driver, so the volumes' series and the Exchange rules see
/// only what the active copies did through it. The copy is the run's own file (created new, never over another) and is
/// removed when the seed ends.
/// </summary>
internal sealed class ReseedStream : IDisposable
{
    private readonly ManualResetEventSlim _stop = new();
    private readonly Thread _thread;
    private readonly string _source;
    private readonly DateTime _deadlineUtc;
    private readonly bool _allowBuffered;

    private ReseedStream(ReseedRun record, string source, DateTime deadlineUtc, bool allowBuffered)
    {
        Record = record;
        _source = source;
        _deadlineUtc = deadlineUtc;
        _allowBuffered = allowBuffered;
        _thread = new Thread(Seed) { IsBackground = true, Name = "Reseed" };
    }

    public ReseedRun Record { get; }

    /// <summary>Starts seeding <paramref name="sourceFile"/> onto the record's target file now, until <paramref name="deadlineUtc"/> at the latest.</summary>
    public static ReseedStream Start(ReseedRun record, string sourceFile, DateTime deadlineUtc, bool allowBuffered)
    {
        var stream = new ReseedStream(record, sourceFile, deadlineUtc, allowBuffered);
        stream._thread.Start();
        return stream;
    }

    /// <summary>
    /// The seconds from the seed's start at which the piece after <paramref name="bytesDone"/> bytes may start: the bytes
    /// over the rate. A seed that fell behind (slow storage) goes on at once, never faster than its pieces complete.
    /// </summary>
    internal static double DueSeconds(long bytesDone, double bytesPerSecond) => bytesDone / bytesPerSecond;

    /// <summary>The size of the piece at <paramref name="offset"/> of a copy of <paramref name="total"/> bytes (the last one may be shorter).</summary>
    internal static int PieceBytes(long offset, long total, int ioSize) => (int)Math.Min(ioSize, Math.Max(0, total - offset));

    private void Seed()
    {
        var r = Record;
        var clock = Stopwatch.StartNew();
        long readTicks = 0, writeTicks = 0, pieces = 0;
        IoFile? source = null, target = null;
        try
        {
            source = IoFileOpener.Open(_source, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: true);
            r.BytesToCopy = source.Length;
            if (Planning.ReseedPlan.SpaceShort(r.BytesToCopy, Planning.VolumeSpace.Of(Path.GetDirectoryName(r.TargetFile)!).FreeBytes) is string why)
                throw new IOException($"the spare volume {why}, as '{_source}' has grown; nothing was written");
            target = IoFileOpener.Open(r.TargetFile, IoFileMode.CreateNew, writeThrough: false, _allowBuffered);
            using var buffer = new AlignedBuffer(ReseedRules.IoSizeBytes, Math.Max(source.Alignment, target.Alignment));
            while (true)
            {
                if (r.BytesSeeded >= r.BytesToCopy) { r.Completed = true; r.EndedBy = "Completed"; break; }
                // A window that has ended is the reason even when the run's end came with it (they end together).
                double untilDeadline = (_deadlineUtc - DateTime.UtcNow).TotalSeconds;
                if (untilDeadline <= 0) { r.EndedBy = "WindowEnded"; break; }
                if (_stop.IsSet) { r.EndedBy = "RunEnded"; break; }
                double wait = DueSeconds(r.BytesSeeded, ReseedRules.TargetBytesPerSecond) - clock.Elapsed.TotalSeconds;
                if (wait > 0)
                {
                    _stop.Wait(TimeSpan.FromSeconds(Math.Min(wait, untilDeadline)));
                    continue;
                }
                int n = PieceBytes(r.BytesSeeded, r.BytesToCopy, ReseedRules.IoSizeBytes);
                long t0 = Stopwatch.GetTimestamp();
                int read = DirectIo.Read(source, buffer.Slice(0, n), r.BytesSeeded);
                long t1 = Stopwatch.GetTimestamp();
                if (read < n) throw new IOException($"'{_source}' ended at {r.BytesSeeded + read:N0} bytes, before the {r.BytesToCopy:N0} it had when the seed began");
                DirectIo.Write(target, buffer.Slice(0, n), r.BytesSeeded);
                writeTicks += Stopwatch.GetTimestamp() - t1;
                readTicks += t1 - t0;
                pieces++;
                r.BytesSeeded += n;
            }
            if (r.BytesSeeded > 0) DirectIo.Flush(target);
        }
        catch (Exception ex)
        {
            // Whatever stops the seed is its own outcome, recorded: an exception escaping this thread would end the engine,
            // and the load it runs beside is what is being measured.
            r.EndedBy = "Error";
            r.Error = $"The reseed stopped after {r.BytesSeeded:N0} bytes: {ex.Message}";
        }
        finally
        {
            r.EndedUtc = DateTime.UtcNow;
            r.Seconds = Math.Round(clock.Elapsed.TotalSeconds, 3);
            r.AchievedMBPerSecond = r.Seconds > 0 ? Math.Round(r.BytesSeeded / 1048576.0 / r.Seconds, 3) : 0;
            r.ReadLatencyMs = pieces > 0 ? Math.Round(readTicks * 1000.0 / Stopwatch.Frequency / pieces, 3) : 0;
            r.WriteLatencyMs = pieces > 0 ? Math.Round(writeTicks * 1000.0 / Stopwatch.Frequency / pieces, 3) : 0;
            source?.Dispose();
            bool created = target is not null;
            target?.Dispose();
            if (created) RemoveCopy();
        }
    }

    /// <summary>Waits up to <paramref name="timeout"/> for the seed to end by itself (complete, window ended, error); true when it has.</summary>
    internal bool WaitForEnd(TimeSpan timeout) => _thread.Join(timeout);

    /// <summary>Ends the seed (the measured window ended; one still going is stopped) and waits for its thread; fills the record.</summary>
    public ReseedRun Finish()
    {
        _stop.Set();
        _thread.Join();
        return Record;
    }

    private void RemoveCopy()
    {
        try { File.Delete(Record.TargetFile); }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            Record.Error ??= $"The copy '{Record.TargetFile}' could not be removed: {ex.Message}";
        }
    }

    public void Dispose()
    {
        if (_thread.IsAlive) Finish();
        _stop.Dispose();
    }
}
