namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// How the engine compares and hands over the paths it is given, per OS. Windows file names do not differ by case:
/// "C:\Exchange\DB1" and "c:\exchange\db1" are one folder (as a database folder and a log folder typed two ways, one
/// run took its own lock twice and refused itself as FolderInUse). Linux names do.
/// </summary>
public static class PathNames
{
    /// <summary>Equal paths on this OS: case ignored on Windows, exact elsewhere.</summary>
    public static StringComparer Comparer => OperatingSystem.IsWindows() ? StringComparer.OrdinalIgnoreCase : StringComparer.Ordinal;

    /// <summary>The comparison for prefixes (one folder under another) on this OS.</summary>
    public static StringComparison Comparison => OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;

    /// <summary>
    /// A full Windows path as CreateFileW must get it when it is long: with the \\?\ prefix (\\?\UNC\ for a share), which
    /// lifts the 260-character MAX_PATH limit of the Win32 calls the engine makes itself (.NET's own file calls add it
    /// alone; ours do not, and Windows Server refuses a longer path without it unless LongPathsEnabled is set). Short
    /// paths, and paths already in the device namespace (\\?\, \\.\), go as given. The path must be full and normalized
    /// (the plan's paths are: Path.GetFullPath), because the prefix turns normalization off.
    /// </summary>
    public static string ForWin32(string path)
    {
        const int MaxPathForDirectories = 248; // MAX_PATH (260) less room for an 8.3 file name, as .NET counts
        if (path.Length < MaxPathForDirectories) return path;
        if (path.StartsWith(@"\\?\", StringComparison.Ordinal) || path.StartsWith(@"\\.\", StringComparison.Ordinal)) return path;
        if (path.StartsWith(@"\\", StringComparison.Ordinal)) return @"\\?\UNC\" + path[2..];
        if (path.Length >= 3 && char.IsAsciiLetter(path[0]) && path[1] == ':' && path[2] == '\\') return @"\\?\" + path;
        return path;
    }

    /// <summary>
    /// A drive path without its \\?\ prefix ("\\?\C:\x" is "C:\x"): for names Windows shows without it, such as a
    /// LogicalDisk counter instance ("C:", not "\\?\C:"), when the user gave the prefixed form.
    /// </summary>
    public static string WithoutExtendedPrefix(string path) =>
        path.Length >= 6 && path.StartsWith(@"\\?\", StringComparison.Ordinal) && char.IsAsciiLetter(path[4]) && path[5] == ':' ? path[4..] : path;
}
