namespace ExchStorageTest.Engine.Tests;

/// <summary>This process's view of the mount table (/proc/self/mountinfo), for rigs that mount and must unmount.</summary>
public static class MountTable
{
    /// <summary>The mount points at or under <paramref name="path"/> (none on a system without /proc).</summary>
    public static IReadOnlyList<string> Under(string path)
    {
        const string MountInfo = "/proc/self/mountinfo";
        if (!File.Exists(MountInfo)) return Array.Empty<string>();
        string root = Path.TrimEndingDirectorySeparator(Path.GetFullPath(path));
        var found = new List<string>();
        foreach (string line in File.ReadLines(MountInfo))
        {
            // Fields: id, parent id, major:minor, root, mount point, ... ; the kernel writes a space in a path as \040.
            string[] fields = line.Split(' ');
            if (fields.Length < 5) continue;
            string mountPoint = Unescape(fields[4]);
            if (mountPoint == root || mountPoint.StartsWith(root + "/", StringComparison.Ordinal)) found.Add(mountPoint);
        }
        return found;
    }

    public static bool IsMounted(string path) => Under(path).Contains(Path.TrimEndingDirectorySeparator(Path.GetFullPath(path)));

    private static string Unescape(string field)
    {
        if (!field.Contains('\\')) return field;
        var sb = new System.Text.StringBuilder(field.Length);
        for (int i = 0; i < field.Length; i++)
        {
            if (field[i] == '\\' && i + 3 < field.Length)
            {
                sb.Append((char)Convert.ToInt32(field.Substring(i + 1, 3), 8));
                i += 3;
            }
            else sb.Append(field[i]);
        }
        return sb.ToString();
    }
}
