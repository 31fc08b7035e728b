using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Databases grow during a run as Jetstress's do: inserts that outnumber deletes fill new pages at
/// the end of the file. After the clean shutdown has written every new page, each header records
/// the new page count, so the checksum pass covers the new pages and the next run attaches the
/// grown database. Without a clean shutdown the header keeps its count and the extra pages are
/// unused (the next run writes them again).
/// </summary>
internal static class DatabaseGrowth
{
    private static string Times(int n) => n == 1 ? "once" : $"{n} times";

    public static void Record(RunContext ctx, bool everyNewPageWritten)
    {
        foreach (var w in ctx.Instances)
        {
            if (w.GrownPages <= 0) continue;
            var prepared = ctx.Prepared.First(p => p.Plan.Index == w.Index);
            string size = RunContext.Mb(w.GrownPages * PageFormat.PageSize);
            if (!everyNewPageWritten)
            {
                ctx.Log($"Instance.{w.Index} grew by {w.GrownPages} pages ({size}), but the shutdown did not write them all: the database keeps its {w.PageCount} pages.");
                continue;
            }
            try
            {
                DatabaseSet.RecordGrowth(ctx.Files[w.DatabaseFileIndex], prepared.Header, w.NextNewPage);
                ctx.Log($"Instance.{w.Index} grew by {w.GrownPages} pages ({size}) to {w.NextNewPage} pages; its file was extended ahead of the new pages {Times(w.Room.Extensions)}, by up to {Workload.GrowthRoom.ExtensionPages} pages each.");
            }
            catch (Protocol.EngineException ex)
            {
                ctx.Log($"Instance.{w.Index} grew by {w.GrownPages} pages ({size}), but its header could not record it: {ex.Message}");
            }
        }
    }
}
