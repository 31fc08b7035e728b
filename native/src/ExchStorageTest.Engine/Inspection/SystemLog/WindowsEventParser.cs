using System.Globalization;
using System.Text.Json;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Inspection.SystemLog;

/// <summary>
/// Parses `Get-WinEvent ... | Select-Object ProviderName,Id,Level,TimeCreated,Message | ConvertTo-Json`
/// (one object or an array; TimeCreated as ISO 8601 from PowerShell 7 or "/Date(ms)/" from 5.1) and
/// classifies the storage failures (research/windows.md section 5).
/// </summary>
public static class WindowsEventParser
{
    private static readonly int[] DiskIds = { 7, 9, 11, 15, 51, 153, 157 };
    private static readonly int[] NtfsIds = { 55, 98 };
    private static readonly int[] MpioIds = { 16, 17, 20, 22, 23, 32 };

    /// <summary>Storport miniports log 129 under their own names; these prefixes cover the common ones.</summary>
    private static readonly string[] MiniportPrefixes =
    {
        "storport", "stornvme", "storahci", "iaStor", "LSI_", "lsi_", "megasas", "percsas", "SmartPqi", "HpSAMD", "HpCISSs",
        "arcsas", "ql2300", "ql2xxx", "qlfcoe", "elxstor", "elxfc", "elxcna", "mpt3sas", "vhdmp", "storvsc", "iScsiPrt", "msisadrv", "vmscsi", "pvscsi",
    };

    public static List<SystemLogEvent> Parse(string json, DateTime? fromUtc = null, DateTime? toUtc = null)
    {
        var list = new List<SystemLogEvent>();
        if (string.IsNullOrWhiteSpace(json)) return list;
        JsonDocument doc;
        try { doc = JsonDocument.Parse(json); }
        catch (JsonException e)
        {
            throw new EngineException("InvalidEventJson", ErrorCategories.InvalidData, $"Get-WinEvent JSON could not be parsed: {e.Message}", null, e);
        }
        using (doc)
        {
            var items = doc.RootElement.ValueKind == JsonValueKind.Array ? doc.RootElement.EnumerateArray().ToList() : new List<JsonElement> { doc.RootElement };
            foreach (var e in items)
            {
                if (e.ValueKind != JsonValueKind.Object) continue;
                string provider = Str(e, "ProviderName") ?? Str(e, "Provider") ?? "";
                int id = (int)Num(e, "Id");
                var time = Time(e);
                if (!KernelLogParser.InWindow(time, fromUtc, toUtc)) continue;
                string level = SystemLogLevels.FromWindowsLevel((int)Num(e, "Level"));
                string message = Str(e, "Message") ?? "";
                string? reason = Classify(provider, id);
                list.Add(new SystemLogEvent(time, provider, id, level, message, reason != null, null, reason));
            }
        }
        return list;
    }

    /// <summary>The storage-failure reason for a provider and event id, or null.</summary>
    public static string? Classify(string provider, int id)
    {
        string p = provider.Trim();
        if (Is(p, "disk") && DiskIds.Contains(id)) return id switch
        {
            7 => "bad block",
            9 => "device timeout",
            11 => "controller error",
            15 => "device not ready",
            51 => "paging operation error",
            153 => "I/O retried (miniport timeout)",
            _ => "surprise removal",
        };
        if ((Is(p, "Ntfs") || Is(p, "Microsoft-Windows-Ntfs")) && NtfsIds.Contains(id)) return "NTFS corruption";
        if (Is(p, "mpio") && MpioIds.Contains(id)) return id switch
        {
            16 => "MPIO fail-over",
            17 => "MPIO pseudo-LUN degraded",
            20 => "MPIO path verification failed",
            22 => "MPIO fail-over attempt failed",
            23 => "MPIO all paths failed",
            _ => "MPIO DSM failed to return a path",
        };
        if (id == 129 && MiniportPrefixes.Any(m => p.StartsWith(m, StringComparison.OrdinalIgnoreCase))) return "storport reset to device (timeout)";
        return null;
    }

    private static bool Is(string a, string b) => string.Equals(a, b, StringComparison.OrdinalIgnoreCase);

    private static string? Str(JsonElement e, string name) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;

    private static double Num(JsonElement e, string name) =>
        e.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Number ? v.GetDouble() : 0;

    private static DateTime Time(JsonElement e)
    {
        if (!e.TryGetProperty("TimeCreated", out var t)) return DateTime.UnixEpoch;
        if (t.ValueKind == JsonValueKind.Object && t.TryGetProperty("value", out var inner)) t = inner;
        if (t.ValueKind != JsonValueKind.String) return DateTime.UnixEpoch;
        string s = t.GetString() ?? "";
        // Windows PowerShell 5.1: "/Date(1700000000000)/" (milliseconds since the epoch, UTC).
        if (s.StartsWith("/Date(", StringComparison.Ordinal))
        {
            string digits = new(s.Skip(6).TakeWhile(c => char.IsDigit(c) || c == '-').ToArray());
            return long.TryParse(digits, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long ms)
                ? DateTime.UnixEpoch.AddMilliseconds(ms) : DateTime.UnixEpoch;
        }
        return DateTimeOffset.TryParse(s, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var dto)
            ? dto.UtcDateTime : DateTime.UnixEpoch;
    }
}
