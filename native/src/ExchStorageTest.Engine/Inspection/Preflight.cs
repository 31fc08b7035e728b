using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// The platform pre-flight of a run, before anything is created: the volumes under its database and log folders are
/// probed (no probe file is written) and a feature Microsoft does not support under Exchange's data
/// (<see cref="SupportRules.Refusing"/>) refuses the run with <c>PlatformUnsupported</c>, naming each, unless the
/// request allows an unsupported platform (labs that know). Doubts are warned about when the run inspects its volumes.
/// </summary>
public static class Preflight
{
    /// <summary>The unsupported findings of <paramref name="volumes"/>, with their folder.</summary>
    public static List<(string Path, Finding Finding)> Unsupported(IEnumerable<VolumeReport> volumes) =>
        volumes.SelectMany(v => v.Findings.Where(SupportRules.Refuses).Select(f => (v.Path, f))).ToList();

    public static void Check(IEnumerable<string> folders, bool allowUnsupported)
    {
        if (allowUnsupported) return;
        Refuse(InspectCommand.Run(folders, new VolumeCheckOptions { ProbeDirectIo = false }));
    }

    /// <summary>Throws <c>PlatformUnsupported</c> naming every unsupported finding of <paramref name="volumes"/>; returns when there is none.</summary>
    public static void Refuse(IEnumerable<VolumeReport> volumes)
    {
        var unsupported = Unsupported(volumes);
        if (unsupported.Count == 0) return;
        throw EngineException.Refused(ErrorCodes.PlatformUnsupported, RefusalMessage(unsupported), unsupported[0].Path);
    }

    public static string RefusalMessage(IReadOnlyList<(string Path, Finding Finding)> unsupported) =>
        "The storage is configured in a way Microsoft does not support for Exchange: " +
        string.Join(" ", unsupported.Select(u => $"{u.Finding.Code}: {u.Finding.Message}")) +
        " Correct it, or, in a lab that knows, run anyway with -AllowUnsupportedPlatform (the results and reports then carry these findings).";
}
