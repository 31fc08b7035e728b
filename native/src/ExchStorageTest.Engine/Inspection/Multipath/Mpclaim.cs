using System.Globalization;
using System.Text.RegularExpressions;

namespace ExchStorageTest.Engine.Inspection.Multipath;

/// <summary>A row of `mpclaim -s -d`: MPIO Disk / System Disk / LB Policy / DSM Name.</summary>
public sealed record MpclaimDisk(int MpioDisk, int? SystemDisk, string PolicyCode, string DsmName)
{
    public LoadBalancePolicy? Policy => LoadBalancePolicy.FromCode(PolicyCode);
}

/// <summary>A path line of `mpclaim -s -d N`.</summary>
public sealed record MpclaimPath(string PathId, string State, string ScsiAddress, int? Weight);

/// <summary>The detail of `mpclaim -s -d N`.</summary>
public sealed record MpclaimDiskDetail(
    int MpioDisk,
    int PathCount,
    string PolicyName,
    string? AccessMode,
    string? DsmName,
    string? SerialNumber,
    List<string> SupportedPolicies,
    List<MpclaimPath> Paths)
{
    public LoadBalancePolicy? Policy => LoadBalancePolicy.FromName(PolicyName);

    public Results.MultipathReport ToReport()
    {
        var r = new Results.MultipathReport
        {
            Name = $"MPIO Disk{MpioDisk}",
            Provider = DsmName == null ? "Microsoft MPIO" : $"Microsoft MPIO ({DsmName})",
            PathCount = PathCount,
            Policy = Policy?.ToString() ?? PolicyName,
        };
        foreach (var p in Paths) r.PathStates.Add($"{p.PathId}: {p.State}");
        return r;
    }
}

/// <summary>
/// Parsers for mpclaim.exe text. The column text is localised and loosely formatted, so the parsers
/// key on shapes (numbers, "|"-separated SCSI addresses) and skip lines they do not recognise.
/// </summary>
public static partial class Mpclaim
{
    [GeneratedRegex(@"^\s*MPIO Disk(\d+)\s+(?:Disk\s+(\d+)|\S+)\s+(\S+)\s+(.+?)\s*$")]
    private static partial Regex DiskRow();

    [GeneratedRegex(@"^\s*MPIO Disk(\d+):\s*(\d+)\s+Paths?,\s*([^,]+?)\s*(?:,\s*(.+?))?\s*$")]
    private static partial Regex DetailHeader();

    [GeneratedRegex(@"^\s*([0-9A-Fa-f]{8,})\s+(\S+(?:\s\S+)*?)\s+(\d+\|\d+\|\d+\|\d+)\s*(\d+)?\s*$")]
    private static partial Regex PathRow();

    public static List<MpclaimDisk> ParseDiskList(string text)
    {
        var list = new List<MpclaimDisk>();
        foreach (var line in Lines(text))
        {
            var m = DiskRow().Match(line);
            if (!m.Success) continue;
            list.Add(new MpclaimDisk(
                int.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture),
                m.Groups[2].Success ? int.Parse(m.Groups[2].Value, CultureInfo.InvariantCulture) : null,
                m.Groups[3].Value,
                m.Groups[4].Value));
        }
        return list;
    }

    /// <summary>Returns null when the text has no "MPIO DiskN: n Paths, policy" header.</summary>
    public static MpclaimDiskDetail? ParseDiskDetail(string text)
    {
        MpclaimDiskDetail? d = null;
        string? dsm = null, serial = null;
        var supported = new List<string>();
        var paths = new List<MpclaimPath>();
        foreach (var line in Lines(text))
        {
            var h = DetailHeader().Match(line);
            if (h.Success && d == null)
            {
                d = new MpclaimDiskDetail(int.Parse(h.Groups[1].Value, CultureInfo.InvariantCulture),
                    int.Parse(h.Groups[2].Value, CultureInfo.InvariantCulture), h.Groups[3].Value,
                    h.Groups[4].Success ? h.Groups[4].Value : null, null, null, supported, paths);
                continue;
            }
            string t = line.Trim();
            if (t.StartsWith("Controlling DSM:", StringComparison.OrdinalIgnoreCase)) dsm = t[16..].Trim();
            else if (t.StartsWith("SN:", StringComparison.OrdinalIgnoreCase)) serial = t[3..].Trim();
            else if (t.StartsWith("Supported Load Balance Policies:", StringComparison.OrdinalIgnoreCase))
                supported.AddRange(t[32..].Split(' ', StringSplitOptions.RemoveEmptyEntries));
            else if (PathRow().Match(line) is { Success: true } p)
                paths.Add(new MpclaimPath(p.Groups[1].Value, p.Groups[2].Value, p.Groups[3].Value,
                    p.Groups[4].Success ? int.Parse(p.Groups[4].Value, CultureInfo.InvariantCulture) : null));
        }
        return d == null ? null : d with { DsmName = dsm, SerialNumber = serial };
    }

    private static IEnumerable<string> Lines(string text) => text.Replace("\r", "").Split('\n');
}
