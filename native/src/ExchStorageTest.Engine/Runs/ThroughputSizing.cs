using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Throughput mode ("test disk subsystem throughput"): databases sized by CapacityPercent of the
/// free space of each database volume (files of ours already there count as free), instead of
/// mailboxes x quota. Re-plans the instances; everything else in the plan stays.
/// </summary>
internal static class ThroughputSizing
{
    public static TestPlan Apply(TestPlan plan)
    {
        double pct = plan.Request.CapacityPercent;
        if (!(pct > 0) || pct > 100) throw EngineException.InvalidArgument("CapacityPercentOutOfRange", $"CapacityPercent {pct} is out of range: it must be greater than 0 and at most 100.");
        // Databases sharing a volume share its free space.
        var perVolume = new Dictionary<string, (long Free, int Count)>();
        var volumeOf = new string[plan.Instances.Count];
        for (int i = 0; i < plan.Instances.Count; i++)
        {
            var inst = plan.Instances[i];
            string folder = Directory.Exists(inst.DatabaseFolder) ? inst.DatabaseFolder : Path.GetDirectoryName(inst.DatabaseFolder)!;
            var info = VolumeSpace.Of(folder);
            long existing = File.Exists(inst.DatabaseFile) ? new FileInfo(inst.DatabaseFile).Length : 0;
            volumeOf[i] = info.VolumeId;
            perVolume[info.VolumeId] = perVolume.TryGetValue(info.VolumeId, out var v) ? (v.Free + existing, v.Count + 1) : (info.FreeBytes + existing, 1);
        }
        var instances = new List<PlannedInstance>();
        for (int i = 0; i < plan.Instances.Count; i++)
        {
            var inst = plan.Instances[i];
            var (free, count) = perVolume[volumeOf[i]];
            long logBytes = (long)inst.LogGenerations * TestPlan.LogFileSize;
            long size = (long)(free * pct / 100.0 / count) - logBytes;
            size = size / TestPlan.PageSize * TestPlan.PageSize;
            if (size < 64L * TestPlan.PageSize)
                throw new EngineException("InsufficientSpace", ErrorCategories.ResourceUnavailable, $"CapacityPercent {pct}% of the free space under '{inst.DatabaseFolder}' leaves {size} bytes per database; at least {64 * TestPlan.PageSize} are needed.", inst.DatabaseFolder);
            instances.Add(new PlannedInstance { Index = inst.Index, DatabaseFolder = inst.DatabaseFolder, DatabaseFile = inst.DatabaseFile, LogFolder = inst.LogFolder, DatabaseSizeBytes = size, LogGenerations = inst.LogGenerations });
        }
        return new TestPlan
        {
            Request = plan.Request, Profile = plan.Profile, TestType = plan.TestType, Instances = instances,
            DurationSeconds = plan.DurationSeconds, SampleIntervalSeconds = plan.SampleIntervalSeconds,
            Thresholds = plan.Thresholds, OutputPath = plan.OutputPath, ThreadCount = plan.ThreadCount,
        };
    }
}
