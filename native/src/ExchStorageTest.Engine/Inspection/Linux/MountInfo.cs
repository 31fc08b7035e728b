using System.Globalization;
using System.Text;

namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>One line of /proc/self/mountinfo (proc(5)).</summary>
public sealed record MountInfoEntry(
    int MountId,
    int ParentId,
    int Major,
    int Minor,
    string Root,
    string MountPoint,
    string MountOptions,
    string FileSystemType,
    string Source,
    string SuperOptions)
{
    public string DeviceNumber => $"{Major}:{Minor}";

    /// <summary>
    /// The mount's compression: btrfs "compress=zstd:3" / "compress-force=..." in its options (btrfs(5)); null
    /// when it names none.
    /// </summary>
    public string? Compression()
    {
        foreach (var option in (MountOptions + "," + SuperOptions).Split(','))
            if (option.StartsWith("compress", StringComparison.Ordinal) && option != "compress=no" && !option.StartsWith("compress-force=no", StringComparison.Ordinal))
                return $"{FileSystemType} mount option {option} on {MountPoint}";
        return null;
    }
}

/// <summary>Pure parser of /proc/self/mountinfo and the longest-prefix lookup that maps a path to its mount.</summary>
public static class MountInfo
{
    public const string ProcPath = "/proc/self/mountinfo";

    public static List<MountInfoEntry> Parse(string text)
    {
        var list = new List<MountInfoEntry>();
        foreach (var raw in text.Split('\n'))
        {
            var line = raw.TrimEnd('\r');
            if (line.Length == 0) continue;
            var entry = ParseLine(line);
            if (entry != null) list.Add(entry);
        }
        return list;
    }

    /// <summary>Returns null for a malformed line: one odd line must not hide every other mount.</summary>
    public static MountInfoEntry? ParseLine(string line)
    {
        var f = line.Split(' ');
        // Fields: id parent major:minor root mountpoint options [optional fields...] - fstype source superoptions
        if (f.Length < 10) return null;
        int sep = Array.IndexOf(f, "-", 6);
        if (sep < 0 || sep + 3 > f.Length) return null;
        var mm = f[2].Split(':');
        if (mm.Length != 2
            || !int.TryParse(f[0], NumberStyles.None, CultureInfo.InvariantCulture, out int id)
            || !int.TryParse(f[1], NumberStyles.None, CultureInfo.InvariantCulture, out int parent)
            || !int.TryParse(mm[0], NumberStyles.None, CultureInfo.InvariantCulture, out int major)
            || !int.TryParse(mm[1], NumberStyles.None, CultureInfo.InvariantCulture, out int minor))
            return null;
        return new MountInfoEntry(id, parent, major, minor, Unescape(f[3]), Unescape(f[4]), f[5],
            Unescape(f[sep + 1]), Unescape(f[sep + 2]), sep + 3 < f.Length ? f[sep + 3] : "");
    }

    /// <summary>
    /// The mount that holds <paramref name="absolutePath"/> (already free of symlinks): the longest mount
    /// point that is a whole-component prefix; the later line wins when a mount point is mounted over.
    /// </summary>
    public static MountInfoEntry? FindForPath(IReadOnlyList<MountInfoEntry> entries, string absolutePath)
    {
        MountInfoEntry? best = null;
        foreach (var e in entries)
        {
            if (!IsUnder(absolutePath, e.MountPoint)) continue;
            if (best == null || e.MountPoint.Length >= best.MountPoint.Length) best = e;
        }
        return best;
    }

    private static bool IsUnder(string path, string mountPoint)
    {
        if (mountPoint == "/") return path.StartsWith('/');
        if (!path.StartsWith(mountPoint, StringComparison.Ordinal)) return false;
        return path.Length == mountPoint.Length || path[mountPoint.Length] == '/';
    }

    /// <summary>The kernel escapes space, tab, newline and backslash as \ooo octal.</summary>
    public static string Unescape(string s)
    {
        if (!s.Contains('\\')) return s;
        var bytes = new List<byte>(s.Length);
        for (int i = 0; i < s.Length; i++)
        {
            if (s[i] == '\\' && IsOctal(s, i + 1))
            {
                bytes.Add((byte)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 + (s[i + 3] - '0')));
                i += 3;
            }
            else
            {
                bytes.AddRange(Encoding.UTF8.GetBytes(s[i].ToString()));
            }
        }
        return Encoding.UTF8.GetString(bytes.ToArray());
    }

    private static bool IsOctal(string s, int start)
    {
        if (start + 3 > s.Length) return false;
        for (int i = start; i < start + 3; i++)
            if (s[i] < '0' || s[i] > '7') return false;
        return true;
    }
}
