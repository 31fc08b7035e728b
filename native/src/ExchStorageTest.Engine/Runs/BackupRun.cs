using System.Diagnostics;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// DatabaseBackup: one sequential pass of 256 KiB reads over every database (a VSS-style backup
/// read), all databases at once, every page verified. MB/s per database and in total.
/// </summary>
internal static class BackupRun
{
    public static void Run(RunContext ctx)
    {
        var r = ctx.Results;
        ctx.BeginPhase("Backup");
        ctx.Log("Starting database backup read ...");
        using var phase = new LoadPhase(ctx, PhaseOptions.BackupRead(ctx.Instances.Count));
        r.Engine.WorkerCount = phase.WorkerCount;
        r.Timeline.CollectionStartUtc = DateTime.UtcNow;
        phase.Start(measuring: true);
        var end = WindowEnd.Elapsed;
        try
        {
            end = phase.Run(ctx.Plan.DurationSeconds, ctx.Plan.SampleIntervalSeconds, "Backup", () => Array.TrueForAll(phase.Backups, b => b is null || b.Done));
        }
        finally
        {
            r.Timeline.CollectionEndUtc = DateTime.UtcNow;
            phase.Stop();
            RunRecord.Collect(ctx, phase);
        }
        if (end == WindowEnd.Cancelled) r.Completion = Completions.Stopped;
        if (end == WindowEnd.Error) r.Completion = Completions.Failed;
        var backup = new BackupResult();
        for (int i = 0; i < ctx.Instances.Count; i++)
        {
            var src = phase.Backups[i]!;
            var w = ctx.Instances[i];
            long endTicks = src.FinishedTicks > 0 ? src.FinishedTicks : Stopwatch.GetTimestamp();
            double elapsed = (endTicks - phase.StartTicks) / (double)Stopwatch.Frequency;
            double mb = src.BytesRead / 1048576.0;
            backup.Instances.Add(new BackupInstance { Instance = $"Instance.{w.Index}", DatabaseSizeMB = Math.Round(w.PageCount * Storage.PageFormat.PageSize / 1048576.0, 3), ElapsedSeconds = Math.Round(elapsed, 3), MBPerSecond = elapsed > 0 ? Math.Round(mb / elapsed, 3) : 0 });
            ctx.Log(TestRunner.F($"Instance.{w.Index}: {mb:F1} MB read in {elapsed:F1} s ({(elapsed > 0 ? mb / elapsed : 0):F2} MB/s); {src.PagesChecked} pages verified."));
        }
        backup.AverageMBPerSecond = backup.Instances.Count > 0 ? Math.Round(backup.Instances.Average(b => b.MBPerSecond), 3) : 0;
        // The databases are read at once, so the host's rate is theirs added up: Jetstress's Sum row, ESRP's "MB read/sec total per server".
        backup.TotalMBPerSecond = Math.Round(backup.Instances.Sum(b => b.MBPerSecond), 3);
        backup.ElapsedSeconds = backup.Instances.Count > 0 ? backup.Instances.Max(b => b.ElapsedSeconds) : 0;
        r.Backup = backup;
        ctx.Log(TestRunner.F($"Database backup: {backup.AverageMBPerSecond:F2} MB/s per database, {backup.TotalMBPerSecond:F2} MB/s in total."));
    }
}
