using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// The eseutil /K equivalent: reads every page of every database and every log file with direct
/// I/O and checks identity and checksum (each database by its own format, <see cref="PageFormat.Checksum"/>). Each problem names the file, the page (or log block) and
/// the expected vs found identity. Read-only: never writes or deletes anything.
/// </summary>
public static class ChecksumVerifier
{
    private const int Chunk = 1024 * 1024;

    /// <summary>
    /// Refuses (<c>ForeignFile</c>, before a page is checked) a database or log file that ExchStorageTest never wrote:
    /// it has no checksums of ours, so calling each of its pages bad would report a corrupt database where there is
    /// none. Ours but damaged — a torn or overwritten header, a flipped byte — is still checked and fails
    /// (<see cref="DatabaseHeader.IsOurs"/>, <see cref="LogFormat.IsOurs"/>). A missing database file is left to
    /// <see cref="Verify"/>, which reports it.
    /// </summary>
    public static void RefuseForeign(IEnumerable<string> databaseFiles, IEnumerable<string> logFolders)
    {
        var start = new byte[2 * PageFormat.PageSize];
        foreach (var path in databaseFiles)
            if (File.Exists(path) && !DatabaseHeader.IsOurs(start.AsSpan(0, ReadStart(path, start))))
                throw Foreign(path, "a database", "no ExchStorageTest database header and no page of ours where page 1 belongs");
        foreach (var path in LogFiles(logFolders))
            if (!LogFormat.IsOurs(start.AsSpan(0, ReadStart(path, LogFormat.FileHeaderBytes + LogFormat.Sector, start))))
                throw Foreign(path, "a log file", "no ExchStorageTest log header and no log block of ours after it");
    }

    private static int ReadStart(string path, byte[] into) => ReadStart(path, into.Length, into);

    private static int ReadStart(string path, int length, byte[] into)
    {
        using var f = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1);
        int got = 0;
        while (got < length)
        {
            int n = f.Read(into, got, length - got);
            if (n == 0) break;
            got += n;
        }
        return got;
    }

    private static EngineException Foreign(string path, string what, string why) => EngineException.Refused(ErrorCodes.ForeignFile,
        $"'{path}' is not {what} of ExchStorageTest ({why}): its pages carry no checksums of ours to verify, so it is not checked. Give the databases and log folders a test created.", path);

    /// <summary>The log generations of the folders, in name order (what <see cref="Verify"/> checks).</summary>
    private static List<string> LogFiles(IEnumerable<string> logFolders)
    {
        var logs = new List<string>();
        foreach (var folder in logFolders)
            if (Directory.Exists(folder))
                logs.AddRange(Directory.GetFiles(folder, "E00*.log").OrderBy(f => f, StringComparer.Ordinal));
        return logs;
    }

    public static ChecksumResult Verify(IEnumerable<string> databaseFiles, IEnumerable<string> logFolders, EventWriter events, CancellationToken cancel)
    {
        var result = new ChecksumResult();
        var sw = Stopwatch.StartNew();
        var dbs = databaseFiles.ToList();
        var logs = LogFiles(logFolders);
        long totalBytes = 0, done = 0;
        foreach (var d in dbs) if (File.Exists(d)) totalBytes += new FileInfo(d).Length;
        totalBytes += (long)logs.Count * LogFormat.FileSize;
        using var buffer = new AlignedBuffer(Chunk);
        foreach (var path in dbs)
        {
            cancel.ThrowIfCancellationRequested();
            var entry = new ChecksumFile { Path = path, Kind = "Database" };
            result.Files.Add(entry);
            if (!File.Exists(path)) { Problem(result, entry, $"{path}: database file missing"); result.BadPages++; continue; }
            using var f = IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: true);
            int n = DirectIo.Read(f, buffer.Slice(0, PageFormat.PageSize), 0);
            var header = n == PageFormat.PageSize ? DatabaseHeader.TryRead(buffer.Slice(0, PageFormat.PageSize)) : null;
            // A format whose page checksum this version does not compute is named, not reported as every page bad.
            string? unreadable = header is null ? "page 0 is not a valid ExchStorageTest database header"
                : !PageFormat.KnowsFormat(header.FormatVersion)
                    ? $"database format {header.FormatVersion} is not one this version knows ({string.Join(" or ", PageFormat.KnownFormats)}); check it with the version that created it"
                    : null;
            if (unreadable is not null || header is null) // (header is null only with a reason; the test tells the compiler so)
            {
                Problem(result, entry, $"{path}: {unreadable}");
                result.BadPages++;
                entry.Bad++;
                continue;
            }
            long length = Math.Min(f.Length, header.SizeBytes);
            for (long off = 0; off < length; off += Chunk)
            {
                cancel.ThrowIfCancellationRequested();
                int want = (int)Math.Min(Chunk, length - off);
                int got = DirectIo.Read(f, buffer.Slice(0, want), off);
                int pages = got / PageFormat.PageSize;
                for (int i = 0; i < pages; i++)
                {
                    long page = off / PageFormat.PageSize + i;
                    if (page == 0) continue;
                    entry.Checked++;
                    result.PagesChecked++;
                    var check = PageFormat.Verify(buffer.Slice(i * PageFormat.PageSize, PageFormat.PageSize), page, header.InstanceId, header.FormatVersion);
                    if (!check.Ok)
                    {
                        result.BadPages++;
                        entry.Bad++;
                        Problem(result, entry, $"{path}: {check.Describe()}");
                    }
                }
                if (got < want)
                {
                    long missing = (want - got) / PageFormat.PageSize;
                    result.BadPages += missing;
                    entry.Bad += missing;
                    Problem(result, entry, $"{path}: file ends at byte {off + got}, header says {header.SizeBytes}");
                    break;
                }
                done += want;
                Report(events, done, totalBytes, sw, path);
            }
        }
        foreach (var path in logs)
        {
            cancel.ThrowIfCancellationRequested();
            var entry = new ChecksumFile { Path = path, Kind = "Log" };
            result.Files.Add(entry);
            result.LogsChecked++;
            using var f = IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: true);
            int got = DirectIo.Read(f, buffer.Slice(0, LogFormat.FileSize), 0);
            var data = buffer.Slice(0, got);
            var header = got >= LogFormat.Sector ? LogFormat.TryReadFileHeader(data) : null;
            if (header is not { } h)
            {
                result.BadLogs++;
                entry.Bad++;
                Problem(result, entry, $"{path}: not a valid ExchStorageTest log file header");
                continue;
            }
            bool bad = false;
            int offset = LogFormat.FileHeaderBytes;
            while (h.Generation > 0 && offset + LogFormat.Sector <= got)
            {
                var status = LogFormat.ReadBlock(data.Slice(offset), h.Generation, h.InstanceId, out int length, out _);
                if (status == LogFormat.BlockStatus.End)
                {
                    // The log is written in order: no block of this generation here means its end, unless one starts
                    // further on, and then the header here was damaged (a flipped magic or generation reads as an end).
                    int next = offset + LogFormat.Sector;
                    while (next + LogFormat.Sector <= got && !LogFormat.StartsBlockOf(data.Slice(next), h.Generation, h.InstanceId)) next += LogFormat.Sector;
                    if (next + LogFormat.Sector > got) break;
                    entry.Checked++;
                    bad = true;
                    Problem(result, entry, $"{path}: log block at offset {offset} (generation {h.Generation}): damaged block header (no block of the generation starts there, yet one starts at offset {next})");
                    break;
                }
                entry.Checked++;
                if (status != LogFormat.BlockStatus.Ok)
                {
                    bad = true;
                    Problem(result, entry, $"{path}: log block at offset {offset} (generation {h.Generation}): {DescribeBadBlock(data.Slice(offset), status, length)}");
                    break;
                }
                offset += length;
            }
            if (bad) { result.BadLogs++; entry.Bad++; }
            done += LogFormat.FileSize;
            Report(events, done, totalBytes, sw, path);
        }
        result.ElapsedSeconds = Math.Round(sw.Elapsed.TotalSeconds, 3);
        events.Progress("Checksum", 100, 0, $"{result.PagesChecked} pages, {result.LogsChecked} logs checked; {result.BadPages} bad pages, {result.BadLogs} bad logs");
        return result;
    }

    /// <summary>What is wrong with a log block, with the stored and computed CRC32C for a checksum mismatch.</summary>
    private static string DescribeBadBlock(ReadOnlySpan<byte> block, LogFormat.BlockStatus status, int length)
    {
        int sequence = System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(block.Slice(12));
        if (status != LogFormat.BlockStatus.BadChecksum)
            return $"malformed block header (sequence {sequence}, length {length}, record count {System.Buffers.Binary.BinaryPrimitives.ReadInt32LittleEndian(block.Slice(32))})";
        uint stored = System.Buffers.Binary.BinaryPrimitives.ReadUInt32LittleEndian(block);
        uint computed = Crc32C.Compute(block.Slice(4, length - 4));
        return $"checksum mismatch in block {sequence} of {length} bytes (stored 0x{stored:X8}, computed 0x{computed:X8})";
    }

    private static void Problem(ChecksumResult r, ChecksumFile f, string message)
    {
        if (r.Problems.Count < 1000) r.Problems.Add(message);
    }

    private static long _lastReport;
    private static void Report(EventWriter events, long done, long total, Stopwatch sw, string path)
    {
        long now = sw.ElapsedMilliseconds;
        if (now - Interlocked.Read(ref _lastReport) < 250 && done < total) return;
        Interlocked.Exchange(ref _lastReport, now);
        double rate = done / Math.Max(sw.Elapsed.TotalSeconds, 0.001);
        events.Progress("Checksum", 100.0 * done / Math.Max(1, total), rate > 0 ? (total - done) / rate : null, $"Verifying {Path.GetFileName(path)} ({rate / 1048576:F0} MB/s)");
    }
}
