using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// The reseed a fault window carries (docs/failure-mode.md, "A reseed during the load"): its source — the run's first
/// database, on its volume — and the spare folder its copy is streamed onto, checked before anything is written: the
/// folder exists and can be written, it is a spare (no volume of the run's databases or logs: a copy seeded onto the
/// volume it is read from is no AutoReseed and measures the source volume twice), and it has room for the copy.
/// </summary>
internal static class ReseedPlan
{
    /// <summary>The database the reseed copies: the first, the one every run has.</summary>
    public static PlannedInstance Source(TestPlan plan) => plan.Instances[0];

    /// <summary>The copy's full path on the spare folder.</summary>
    public static string Target(TestPlan plan, string spare) => Path.Combine(spare, ReseedRules.TargetFileName(plan.TestId));

    /// <summary>Refuses a plan whose reseed cannot run as declared; nothing when it declares none.</summary>
    public static void Check(TestPlan plan)
    {
        if (plan.Fault?.ReseedPath is not string spare) return;
        if (File.Exists(spare))
            throw EngineException.Refused(ErrorCodes.ReseedPathInvalid, $"ReseedPath '{spare}' is a file: give the spare volume's folder the copy is seeded into.", spare);
        if (!Directory.Exists(spare))
            throw EngineException.Refused(ErrorCodes.ReseedPathNotFound, $"The reseed's spare folder '{spare}' does not exist: create it on the spare volume (an AutoReseed spare is mounted and empty).", spare);
        if (!VolumeSpace.CanWrite(spare))
            throw EngineException.Refused(ErrorCodes.ReseedPathNotWritable, $"The reseed's spare folder '{spare}' cannot be written to.", spare);
        if (IoFileOpener.IsMemoryFileSystem(spare) && !plan.Request.AllowBufferedIo)
            throw EngineException.Refused(ErrorCodes.ReseedPathInvalid, IoFileOpener.MemoryFileSystemRefusal(spare), spare);
        var spareVolume = VolumeSpace.Of(spare);
        foreach (var i in plan.Instances)
            foreach (string folder in new[] { i.DatabaseFolder, i.LogFolder })
                if (VolumeSpace.Of(TestPlanner.ExistingAncestor(folder)).VolumeId == spareVolume.VolumeId)
                    throw EngineException.Refused(ErrorCodes.ReseedPathInvalid,
                        $"ReseedPath '{spare}' is on the volume of '{folder}', which the run's databases and logs use: a reseed is streamed onto a spare volume (AutoReseed's), not onto the volume it is read from. Give a folder on another volume.", spare);
        if (SpaceShort(Source(plan).DatabaseSizeBytes, spareVolume.FreeBytes) is string why)
            throw EngineException.Refused(ErrorCodes.ReseedSpaceInsufficient, $"The spare volume under '{spare}' {why} (the database '{Source(plan).DatabaseFile}').", spare);
    }

    /// <summary>
    /// Why a volume with <paramref name="freeBytes"/> free cannot take a copy of <paramref name="copyBytes"/> — the copy
    /// and the metadata margin every planned file keeps (<see cref="TestPlanner.Margin"/>); null when it can. The plan
    /// checks the planned size; the seed checks again at its start, against the database as it has grown.
    /// </summary>
    public static string? SpaceShort(long copyBytes, long freeBytes)
    {
        long margin = TestPlanner.Margin(copyBytes);
        return copyBytes + margin > freeBytes
            ? $"has {freeBytes:N0} bytes free; a copy of the database needs {copyBytes:N0} bytes plus {margin:N0} bytes kept free for file-system metadata"
            : null;
    }
}
