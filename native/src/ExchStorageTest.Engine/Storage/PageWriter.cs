using System.ComponentModel;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Writes every data page of a new database (pages 1..n-1) in 1 MiB chunks, <see cref="WritesInFlight"/>
/// of them in flight, through the engine's own I/O backend on one thread: io_uring with registered
/// buffers on Linux, a completion port on Windows (the thread-pool fallback where neither exists).
/// Each chunk is stamped (<see cref="PageFormat.StampRun"/>) while the others are at the device, so
/// the device never waits for the CPU as long as stamping outruns it.
/// </summary>
internal static class PageWriter
{
    public const int ChunkBytes = 1024 * 1024;
    /// <summary>As fio's sequential-write comparison (1 MiB at QD8): enough to keep a LUN's queue full.</summary>
    public const int WritesInFlight = 8;

    /// <summary>
    /// Writes and stamps every page after the header; <paramref name="written"/> is told each chunk's bytes
    /// as it completes. Throws WriteFailed on the first failed or short write (after the others in flight
    /// have finished), or OperationCanceledException when <paramref name="cancel"/> stops it.
    /// </summary>
    public static void WriteAll(IoFile file, DatabaseHeader header, Action<long> written, CancellationToken cancel)
    {
        const int pagesPerChunk = ChunkBytes / PageFormat.PageSize;
        long chunks = (header.PageCount + pagesPerChunk - 1) / pagesPerChunk;
        using var buffers = new AlignedBuffer(WritesInFlight * ChunkBytes, file.Alignment);
        using var backend = IoBackendFactory.Create(WritesInFlight);
        var content = new DatabaseContent(header.InstanceId, header.DataProfile);
        backend.Attach([file], buffers);
        Span<IoCompletion> done = stackalloc IoCompletion[WritesInFlight];
        Span<long> slotOffset = stackalloc long[WritesInFlight];
        Span<int> slotLength = stackalloc int[WritesInFlight];
        Span<int> free = stackalloc int[WritesInFlight];
        int freeCount = 0, inFlight = 0;
        for (int s = WritesInFlight - 1; s >= 0; s--) free[freeCount++] = s;
        long next = 0;
        string? failure = null;
        while (true)
        {
            while (freeCount > 0 && next < chunks && failure is null && !cancel.IsCancellationRequested)
            {
                int slot = free[--freeCount];
                long first = Math.Max(next * pagesPerChunk, 1); // page 0 is the header, written apart
                long last = Math.Min(header.PageCount, (next + 1) * pagesPerChunk);
                next++;
                int length = (int)((last - first) * PageFormat.PageSize);
                if (length == 0) { free[freeCount++] = slot; continue; }
                var chunk = buffers.Slice(slot * ChunkBytes, length);
                PageFormat.StampRun(chunk, first, content, 1, 0);
                slotOffset[slot] = first * PageFormat.PageSize;
                slotLength[slot] = length;
                var request = new IoRequest(file.RawHandle, IoOperation.Write, slotOffset[slot], length, buffers.Address + slot * ChunkBytes, (ulong)slot, fileIndex: 0);
                if (!backend.TryQueue(request)) throw new InvalidOperationException($"Backend {backend.Name} refused a write within its depth.");
                backend.Submit();
                inFlight++;
            }
            if (inFlight == 0) break;
            backend.Submit(); // retries anything the kernel was too short of resources to take
            int n = backend.Reap(done, 1, 1000);
            for (int i = 0; i < n; i++)
            {
                int slot = (int)done[i].UserData;
                int result = done[i].Result;
                if (result == slotLength[slot]) written(result);
                else failure ??= Describe(file, slotOffset[slot], slotLength[slot], result);
                free[freeCount++] = slot;
                inFlight--;
            }
        }
        if (failure is not null) throw new EngineException("WriteFailed", ErrorCategories.WriteError, failure, file.Path);
        cancel.ThrowIfCancellationRequested();
    }

    private static string Describe(IoFile file, long offset, int length, int result) => result < 0
        ? $"Writing {length} bytes at offset {offset} of '{file.Path}' failed: {new Win32Exception(-result).Message} ({IoErrors.Name(-result)})."
        : $"Writing {length} bytes at offset {offset} of '{file.Path}' failed: only {result} bytes were written.";
}
