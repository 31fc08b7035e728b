namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// How far one database may grow: this run's limit, and the room its file has been extended by, which new pages
/// wait for. ESE grows a database file ahead of the pages that fill it, <see cref="ExtensionPages"/> at a time
/// (JET_paramDbExtensionSize, 256 pages by default), so the page writes that fill the new space overwrite blocks
/// the file already holds. Writing each new page past the end of the file instead is the costly path of every file
/// system: ext4 drains the file's direct I/O and, for a write-through file, commits its journal once per such write
/// (a closed-loop run's first 2.3 s: 691 such writes, 1,328 journal commits, single database writes of 10-65 ms on
/// a RAM-backed volume); NTFS completes an unbuffered write past the valid data length synchronously, inside the
/// submitting thread.
/// </summary>
/// <remarks>
/// The worker that owns the database asks (<see cref="Allows"/>); a <see cref="Storage.DatabaseExtender"/>
/// extends the file on its own thread and moves <see cref="End"/>. An insert that finds no room is an
/// ordinary insert into an existing page, and the records it adds make a new page once the room is
/// there, so waiting for an extension stalls nothing.
/// </remarks>
public sealed class GrowthRoom
{
    /// <summary>Pages per extension: ESE's default database extension size (JET_paramDbExtensionSize, 256 pages).</summary>
    public const int ExtensionPages = 256;

    private long _end;
    private int _asked;
    private readonly Action<GrowthRoom>? _ask;

    /// <param name="end">The first page the file does not yet hold written.</param>
    /// <param name="limit">The most pages the file may be extended to (the database's pages plus its growth limit).</param>
    /// <param name="ask">Called, at most once per extension, when the room left falls under half an extension.</param>
    public GrowthRoom(long end, long limit, Action<GrowthRoom>? ask)
    {
        _end = end;
        Limit = limit;
        _ask = ask;
    }

    /// <summary>
    /// Growth up to page <paramref name="limit"/> with nothing extending the file ahead of it: the pages themselves
    /// extend it (for tests that drive a source with no file; a limit of the database's own pages is no growth).
    /// </summary>
    public static GrowthRoom WithoutExtension(long limit) => new(limit, limit, null);

    /// <summary>The first page the file does not yet hold written: new pages up to it overwrite the file's own blocks.</summary>
    public long End => Volatile.Read(ref _end);

    /// <summary>The first page past this run's growth limit (the database's pages plus the most it may grow by).</summary>
    public long Limit { get; }

    /// <summary>Whether the database may still grow by page <paramref name="next"/> this run (room or not).</summary>
    public bool UnderLimit(long next) => next < Limit;

    // Written by the extender's thread, read on the run's, which may not have joined it (an extension stuck on a frozen device).
    private int _extensions;
    private volatile string? _failure;

    /// <summary>Extensions done (read after the run).</summary>
    public int Extensions => Volatile.Read(ref _extensions);

    /// <summary>Why extending stopped (null while it works): the database grows no further this run.</summary>
    public string? Failure => _failure;

    /// <summary>
    /// Whether page <paramref name="next"/> may be written as a new page now; asks for the next extension
    /// when less than half of one is left. Called on the database's worker thread.
    /// </summary>
    public bool Allows(long next)
    {
        long end = Volatile.Read(ref _end);
        if (_ask is not null && end - next < ExtensionPages / 2 && end < Limit && Volatile.Read(ref _asked) == 0 && Interlocked.Exchange(ref _asked, 1) == 0)
            _ask(this);
        return next < end;
    }

    /// <summary>The extension the extender should make next: from <see cref="End"/> by one extension, within the limit.</summary>
    public long NextEnd() => Math.Min(Limit, End + ExtensionPages);

    /// <summary>The file now holds pages up to <paramref name="end"/> written (the extender's thread).</summary>
    public void Extended(long end)
    {
        Interlocked.Increment(ref _extensions);
        Volatile.Write(ref _end, end);
        Volatile.Write(ref _asked, 0);
    }

    /// <summary>Extending failed (a full volume, an I/O error): the database grows no further, and nobody asks again.</summary>
    public void Failed(string why)
    {
        _failure = why;
        Volatile.Write(ref _asked, 1);
    }
}
