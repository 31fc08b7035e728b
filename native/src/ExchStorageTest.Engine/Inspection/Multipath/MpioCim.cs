using System.Text.Json;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Inspection.Multipath;

/// <summary>MPIO_DRIVE_INFO from root\wmi MPIO_DISK_INFO: one MPIO pseudo-LUN and its path count.</summary>
public sealed record MpioDriveInfo(string Name, int NumberPaths, string? SerialNumber, string? DsmName);

/// <summary>One MPIO_DSM_Path_V2 of DSM_QueryLBPolicy_V2.</summary>
public sealed record MpioDsmPath(ulong DsmPathId, bool Primary, bool Optimized, bool Preferred, bool Failed, int Weight)
{
    /// <summary>Active/Optimized = primary and optimized; Standby = optimized but not primary (Microsoft DSM docs).</summary>
    public string State => Failed ? "Failed" : Primary && Optimized ? "Active/Optimized"
        : Primary ? "Active/Unoptimized" : Optimized ? "Standby" : "Unavailable";
}

/// <summary>DSM_QueryLBPolicy_V2 for one pseudo-LUN.</summary>
public sealed record MpioLbPolicy(string InstanceName, int PolicyValue, List<MpioDsmPath> Paths)
{
    public LoadBalancePolicy? Policy => LoadBalancePolicy.FromValue(PolicyValue);

    public string PolicyText => Policy?.ToString() ?? $"Policy {PolicyValue}";
}

/// <summary>
/// Parsers for `Get-CimInstance -Namespace root\wmi -ClassName ... | ConvertTo-Json -Depth 6` output.
/// ConvertTo-Json writes a single object or an array, numbers or booleans for the flag fields,
/// and CimClass/CimInstanceProperties noise that is ignored here.
/// </summary>
public static class MpioCim
{
    public static List<MpioDriveInfo> ParseDiskInfo(string json)
    {
        var list = new List<MpioDriveInfo>();
        using var doc = Parse(json, "MPIO_DISK_INFO");
        foreach (var inst in Instances(doc.RootElement))
        {
            if (!inst.TryGetProperty("DriveInfo", out var drives)) continue;
            foreach (var d in Instances(drives))
                list.Add(new MpioDriveInfo(Str(d, "Name") ?? "", (int)Num(d, "NumberPaths"), Str(d, "SerialNumber"), Str(d, "DsmName")));
        }
        return list;
    }

    public static List<MpioLbPolicy> ParseLbPolicy(string json)
    {
        var list = new List<MpioLbPolicy>();
        using var doc = Parse(json, "DSM_QueryLBPolicy_V2");
        foreach (var inst in Instances(doc.RootElement))
        {
            if (!inst.TryGetProperty("LoadBalancePolicy", out var lb) || lb.ValueKind != JsonValueKind.Object) continue;
            var paths = new List<MpioDsmPath>();
            if (lb.TryGetProperty("DSM_Paths", out var ps))
                foreach (var p in Instances(ps))
                    paths.Add(new MpioDsmPath(ULong(p, "DsmPathId"), Flag(p, "PrimaryPath"), Flag(p, "OptimizedPath"),
                        Flag(p, "PreferredPath"), Flag(p, "FailedPath"), (int)Num(p, "PathWeight")));
            list.Add(new MpioLbPolicy(Str(inst, "InstanceName") ?? "", (int)Num(lb, "LoadBalancePolicy"), paths));
        }
        return list;
    }

    /// <summary>Joins a drive (path count) with its policy when known (same order as WMI returns them, as PowerShell does).</summary>
    public static Results.MultipathReport ToReport(MpioDriveInfo drive, MpioLbPolicy? policy)
    {
        var r = new Results.MultipathReport
        {
            Name = drive.Name,
            Provider = drive.DsmName == null ? "Microsoft MPIO" : $"Microsoft MPIO ({drive.DsmName})",
            PathCount = drive.NumberPaths,
            Policy = policy?.PolicyText,
        };
        if (policy != null)
            foreach (var p in policy.Paths) r.PathStates.Add($"{p.DsmPathId:X16}: {p.State}");
        return r;
    }

    private static JsonDocument Parse(string json, string what)
    {
        try { return JsonDocument.Parse(json); }
        catch (JsonException e)
        {
            throw new EngineException("InvalidCimJson", ErrorCategories.InvalidData, $"{what} JSON could not be parsed: {e.Message}", null, e);
        }
    }

    private static IEnumerable<JsonElement> Instances(JsonElement e)
    {
        if (e.ValueKind == JsonValueKind.Array) { foreach (var x in e.EnumerateArray()) if (x.ValueKind == JsonValueKind.Object) yield return x; }
        else if (e.ValueKind == JsonValueKind.Object) yield return e;
    }

    private static string? Str(JsonElement e, string name) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String ? v.GetString()?.Trim() : null;

    private static double Num(JsonElement e, string name)
    {
        if (!e.TryGetProperty(name, out var v)) return 0;
        return v.ValueKind switch
        {
            JsonValueKind.Number => v.GetDouble(),
            JsonValueKind.True => 1,
            JsonValueKind.String when double.TryParse(v.GetString(), System.Globalization.NumberStyles.Float,
                System.Globalization.CultureInfo.InvariantCulture, out double d) => d,
            _ => 0,
        };
    }

    private static ulong ULong(JsonElement e, string name) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Number && v.TryGetUInt64(out ulong u) ? u : 0;

    private static bool Flag(JsonElement e, string name) => Num(e, name) != 0;
}
