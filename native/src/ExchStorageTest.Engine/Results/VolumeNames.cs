using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// The name a volume goes by in the failure-mode figures (stalls, per-second series, I/O errors of a window): the mount
/// point of the environment's volume report whose folder holds the path, else that folder. One rule for the live run
/// and for a re-judgement of its stored results, so both name a file's volume alike.
/// </summary>
public static class VolumeNames
{
    public static string Of(IReadOnlyList<VolumeReport> volumes, string path)
    {
        VolumeReport? best = null;
        foreach (var v in volumes)
        {
            if (string.IsNullOrEmpty(v.Path) || !Holds(v.Path, path)) continue;
            if (best is null || v.Path.Length > best.Path.Length) best = v;
        }
        if (best is null) return Path.GetDirectoryName(path) ?? path;
        return string.IsNullOrEmpty(best.MountPoint) ? best.Path : best.MountPoint!;
    }

    /// <summary>The volume of an I/O error: the one recorded with it, or (results written before it was) its file's.</summary>
    public static string Of(TestResults r, IoErrorRecord error) => error.Volume ?? Of(r.Environment.Volumes, error.File);

    private static bool Holds(string folder, string path)
    {
        if (string.Equals(folder, path, PathNames.Comparison)) return true;
        string withSeparator = folder.EndsWith(Path.DirectorySeparatorChar) || folder.EndsWith('/') ? folder : folder + Path.DirectorySeparatorChar;
        return path.StartsWith(withSeparator, PathNames.Comparison);
    }
}
