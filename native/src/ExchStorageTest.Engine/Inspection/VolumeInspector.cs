using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Inspection.Linux;
using ExchStorageTest.Engine.Inspection.Windows;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>Probes the volume under a path on this OS and judges it against Exchange best practice.</summary>
public static class VolumeInspector
{
    public static VolumeReport Inspect(string path, VolumeCheckOptions? options = null)
    {
        options ??= new VolumeCheckOptions();
        var facts = Probe(path, options);
        if (options.DirectIoInUse)
        {
            facts.Volume.DirectIoSupported = true;
            facts.DirectIoDetail = "the run opened its files here unbuffered";
        }
        return VolumeRules.ToReport(facts, VolumeRules.Evaluate(facts, options));
    }

    public static VolumeReport Inspect(string path, long plannedBytes) =>
        Inspect(path, new VolumeCheckOptions { PlannedBytes = plannedBytes });

    public static VolumeFacts Probe(string path, VolumeCheckOptions options)
    {
        if (string.IsNullOrWhiteSpace(path))
            throw EngineException.InvalidArgument("InvalidVolumePath", "A volume path is required.");
        if (OperatingSystem.IsLinux()) return LinuxVolumeProbe.Probe(path, options.ProbeDirectIo);
        if (OperatingSystem.IsWindows()) return WindowsVolumeProbe.Probe(path);
        throw new EngineException("PlatformNotSupported", ErrorCategories.NotImplemented,
            "Volume inspection is implemented for Linux and Windows only.", path);
    }
}
