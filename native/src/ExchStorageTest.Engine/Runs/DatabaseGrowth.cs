using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Databases grow during a run as Jetstress's do: inserts that outnumber deletes fill new pages at
/// the end of the file, into the room the file was extended by ahead of them (<see cref="GrowthRoom"/>).
/// After the clean shutdown has written every new page, each header records the new page count, so
/// the checksum pass covers the new pages and the next run attaches the grown database, and the room
/// left unfilled is cut off, so the file ends at its last page as it began. Without a clean shutdown
/// the header keeps its count and the extra pages are unused (the next run writes them again).
/// </summary>
internal static class DatabaseGrowth
{
    public static void Record(RunContext ctx, bool everyNewPageWritten)
    {
        ctx.StopExtending();
        foreach (var w in ctx.Instances)
        {
            long pages = w.PageCount;
            if (w.GrownPages > 0) pages = RecordGrowth(ctx, w, everyNewPageWritten);
            // Extended, or tried to (a full volume fails part-way, past the old end): the file ends at the header's last page.
            if (everyNewPageWritten && (w.Room.Extensions > 0 || w.Room.Failure is not null)) CutUnusedRoom(ctx, w, pages);
        }
    }

    /// <summary>The header's page count after the run: the grown count where every new page was written and recorded.</summary>
    private static long RecordGrowth(RunContext ctx, InstanceWorkload w, bool everyNewPageWritten)
    {
        var prepared = ctx.Prepared.First(p => p.Plan.Index == w.Index);
        string size = RunContext.Mb(w.GrownPages * PageFormat.PageSize);
        if (!everyNewPageWritten)
        {
            ctx.Log($"Instance.{w.Index} grew by {w.GrownPages} pages ({size}), but the shutdown did not write them all: the database keeps its {w.PageCount} pages.");
            return w.PageCount;
        }
        try
        {
            DatabaseSet.RecordGrowth(ctx.Files[w.DatabaseFileIndex], prepared.Header, w.NextNewPage);
            ctx.Log($"Instance.{w.Index} grew by {w.GrownPages} pages ({size}) to {w.NextNewPage} pages; its file was extended ahead of the new pages {Times(w.Room.Extensions)}, by up to {GrowthRoom.ExtensionPages} pages each.");
            return w.NextNewPage;
        }
        catch (Protocol.EngineException ex)
        {
            ctx.Log($"Instance.{w.Index} grew by {w.GrownPages} pages ({size}), but its header could not record it: {ex.Message}");
            return w.PageCount;
        }
    }

    /// <summary>Cuts the room the file was extended by and the growth did not fill: the file ends at the header's last page.</summary>
    private static void CutUnusedRoom(RunContext ctx, InstanceWorkload w, long pages)
    {
        var file = ctx.Files[w.DatabaseFileIndex];
        try
        {
            if (file.Length > pages * PageFormat.PageSize) DirectIo.Truncate(file, pages * PageFormat.PageSize);
        }
        catch (Protocol.EngineException ex)
        {
            ctx.Warn($"Instance.{w.Index}: the room its file was extended by could not be cut off ({ex.Message}); the file stays longer than its {pages} pages.");
        }
    }

    private static string Times(int n) => n == 1 ? "once" : $"{n} times";
}
