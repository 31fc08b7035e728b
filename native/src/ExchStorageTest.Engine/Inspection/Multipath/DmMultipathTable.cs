using System.Globalization;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Inspection.Multipath;

/// <summary>One priority group of a multipath table: its path selector and its paths (major:minor).</summary>
public sealed record DmPathGroup(string Selector, List<string> SelectorArgs, List<string> Paths);

/// <summary>
/// A `dmsetup table` line of the multipath target (kernel device-mapper docs):
/// start length multipath #features features.. #hwargs hw.. #groups initialGroup
/// { selector #selargs selargs.. #paths #pathargs { path pathargs.. }.. }..
/// </summary>
public sealed record DmMultipathTable(
    string? MapName,
    List<string> Features,
    List<string> HardwareHandler,
    int InitialGroup,
    List<DmPathGroup> Groups)
{
    public string? Selector => Groups.Count > 0 ? Groups[0].Selector : null;

    /// <summary>
    /// multipath.conf's path_grouping_policy seen from the table: one group holding every path is "multibus"
    /// (I/O spread over all paths, Windows RR-like); one path per group is "failover" (Windows FOO-like).
    /// </summary>
    public string Grouping
    {
        get
        {
            int paths = Groups.Sum(g => g.Paths.Count);
            if (Groups.Count == 1) return paths > 1 ? "multibus" : "single path";
            if (Groups.All(g => g.Paths.Count == 1)) return "failover";
            return "group_by_prio";
        }
    }

    public string? PolicyDescription => Selector == null ? null : $"{Selector} ({Grouping})";

    public static DmMultipathTable Parse(string line)
    {
        string? name = null;
        line = line.Trim();
        int colon = line.IndexOf(": ", StringComparison.Ordinal);
        if (colon > 0 && !char.IsDigit(line[0])) { name = line[..colon]; line = line[(colon + 2)..]; }
        var t = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        int i = 0;
        string Next()
        {
            if (i >= t.Length) throw Invalid(line, "the line ends early");
            return t[i++];
        }
        int NextInt()
        {
            string s = Next();
            if (!int.TryParse(s, NumberStyles.None, CultureInfo.InvariantCulture, out int v))
                throw Invalid(line, $"\"{s}\" is not a count");
            return v;
        }
        List<string> Take(int n) { var l = new List<string>(n); for (int k = 0; k < n; k++) l.Add(Next()); return l; }

        Next(); Next();
        string target = Next();
        if (target != "multipath") throw Invalid(line, $"target is \"{target}\", not multipath");
        var features = Take(NextInt());
        var hw = Take(NextInt());
        int groupCount = NextInt();
        int initial = NextInt();
        var groups = new List<DmPathGroup>(groupCount);
        for (int g = 0; g < groupCount; g++)
        {
            string selector = Next();
            var selArgs = Take(NextInt());
            int pathCount = NextInt();
            int pathArgs = NextInt();
            var paths = new List<string>(pathCount);
            for (int p = 0; p < pathCount; p++) { paths.Add(Next()); Take(pathArgs); }
            groups.Add(new DmPathGroup(selector, selArgs, paths));
        }
        return new DmMultipathTable(name, features, hw, initial, groups);
    }

    private static EngineException Invalid(string line, string why) =>
        new("InvalidMultipathTable", ErrorCategories.InvalidData, $"Not a multipath table line ({why}): {line}");
}
