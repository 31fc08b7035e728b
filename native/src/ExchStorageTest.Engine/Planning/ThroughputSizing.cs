using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// Throughput mode ("test disk subsystem throughput"): databases sized by CapacityPercent of the
/// free space of each database volume (files of ours already there count as free), instead of
/// mailboxes x quota. Part of planning, so -WhatIf shows the real sizes and a refusal comes before
/// anything is written.
/// </summary>
internal static class ThroughputSizing
{
    public static List<PlannedInstance> Apply(IReadOnlyList<PlannedInstance> planned, double pct, long reserveBytes)
    {
        // Databases sharing a volume share its free space.
        var perVolume = new Dictionary<string, (long Free, int Count)>();
        var volumeOf = new string[planned.Count];
        for (int i = 0; i < planned.Count; i++)
        {
            var inst = planned[i];
            string folder = Directory.Exists(inst.DatabaseFolder) ? inst.DatabaseFolder : Path.GetDirectoryName(inst.DatabaseFolder)!;
            var info = VolumeSpace.Of(folder);
            // A database's passive copies lie beside it, each the database's size: they share the volume as databases do.
            long existing = inst.PassiveCopies.Select(c => c.Database.DatabaseFile).Append(inst.DatabaseFile).Sum(f => File.Exists(f) ? new FileInfo(f).Length : 0);
            int databases = 1 + inst.PassiveCopies.Count;
            volumeOf[i] = info.VolumeId;
            perVolume[info.VolumeId] = perVolume.TryGetValue(info.VolumeId, out var v) ? (v.Free + existing, v.Count + databases) : (info.FreeBytes + existing, databases);
        }
        var instances = new List<PlannedInstance>();
        for (int i = 0; i < planned.Count; i++)
        {
            var inst = planned[i];
            var (free, count) = perVolume[volumeOf[i]];
            long logBytes = (long)inst.LogGenerations * TestPlan.LogFileSize;
            // Leave what TestPlanner.CheckSpace asks of the volume: need + need/64 + its fixed margin free, where need is
            // the databases, their logs and the results (reserveBytes = the fixed margin and the results). Solved for the
            // databases and logs: (free - reserve) x 64/65 - results/65 (reserve/65 covers it), less four pages a database
            // for the small files beside each (the checkpoint). Without the results' 1/64, 100% never planned.
            long usable = Math.Max(0, (free - reserveBytes) * 64 / 65 - reserveBytes / 65 - count * 4L * TestPlan.PageSize);
            long size = (long)(usable * pct / 100.0 / count) - logBytes;
            size = size / TestPlan.PageSize * TestPlan.PageSize;
            if (size < 64L * TestPlan.PageSize)
                throw EngineException.Refused(ErrorCodes.InsufficientSpace, $"CapacityPercent {pct}% of the free space under '{inst.DatabaseFolder}' leaves {size} bytes per database; at least {64 * TestPlan.PageSize} are needed.", inst.DatabaseFolder);
            instances.Add(new PlannedInstance
            {
                Index = inst.Index, DatabaseFolder = inst.DatabaseFolder, DatabaseFile = inst.DatabaseFile, LogFolder = inst.LogFolder, DatabaseSizeBytes = size, LogGenerations = inst.LogGenerations,
                PassiveCopies = inst.PassiveCopies.Select(c => c with { Database = Sized(c.Database, size) }).ToList(),
            });
        }
        return instances;
    }

    private static PlannedInstance Sized(PlannedInstance d, long size) => new()
    {
        Index = d.Index, DatabaseFolder = d.DatabaseFolder, DatabaseFile = d.DatabaseFile, LogFolder = d.LogFolder, DatabaseSizeBytes = size, LogGenerations = d.LogGenerations,
    };
}
