using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// Host entry point for Test-StorageVolume: one report per path. A path that cannot be inspected gets a
/// report with an Error finding instead of failing the others.
/// </summary>
public static class InspectCommand
{
    public const string InspectFailedCode = "InspectFailed";

    public static List<VolumeReport> Run(IEnumerable<string> paths, long plannedBytes) =>
        Run(paths, new VolumeCheckOptions { PlannedBytes = plannedBytes });

    public static List<VolumeReport> Run(IEnumerable<string> paths, VolumeCheckOptions options)
    {
        ArgumentNullException.ThrowIfNull(paths);
        var reports = new List<VolumeReport>();
        foreach (var path in paths)
        {
            try
            {
                reports.Add(VolumeInspector.Inspect(path, options));
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException or EngineException or ArgumentException)
            {
                reports.Add(new VolumeReport
                {
                    Path = path,
                    Findings =
                    {
                        new Finding
                        {
                            Severity = Severities.Error,
                            Code = e is EngineException ee ? ee.Code : InspectFailedCode,
                            Message = $"The volume under {path} could not be inspected: {e.Message}",
                        },
                    },
                });
            }
        }
        return reports;
    }
}
