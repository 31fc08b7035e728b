using System.Globalization;
using System.Text;
using System.Text.Json;

namespace ExchStorageTest.Engine.Inspection.SystemLog;

/// <summary>
/// Pure parsers for the two Linux kernel-log sources: `journalctl -k -o json` (one JSON object a line)
/// and /dev/kmsg records ("prio,seq,usec,flags;message" with continuation lines starting with a space).
/// </summary>
public static class KernelLogParser
{
    public static List<SystemLogEvent> ParseJournalJson(string text, DateTime? fromUtc = null, DateTime? toUtc = null)
    {
        var list = new List<SystemLogEvent>();
        foreach (var raw in text.Split('\n'))
        {
            var line = raw.Trim();
            if (line.Length == 0 || line[0] != '{') continue;
            JsonDocument doc;
            try { doc = JsonDocument.Parse(line); }
            catch (JsonException) { continue; }
            using (doc)
            {
                var root = doc.RootElement;
                string? message = MessageOf(root);
                if (message == null) continue;
                DateTime time = DateTime.UnixEpoch;
                if (root.TryGetProperty("__REALTIME_TIMESTAMP", out var ts) && long.TryParse(ts.ValueKind == JsonValueKind.String ? ts.GetString() : ts.GetRawText(),
                        NumberStyles.None, CultureInfo.InvariantCulture, out long usec))
                    time = DateTime.UnixEpoch.AddTicks(usec * 10);
                if (!InWindow(time, fromUtc, toUtc)) continue;
                int priority = 6;
                if (root.TryGetProperty("PRIORITY", out var pr) && int.TryParse(pr.ValueKind == JsonValueKind.String ? pr.GetString() : pr.GetRawText(),
                        NumberStyles.None, CultureInfo.InvariantCulture, out int p))
                    priority = p;
                string provider = root.TryGetProperty("SYSLOG_IDENTIFIER", out var id) && id.ValueKind == JsonValueKind.String ? id.GetString()! : "kernel";
                list.Add(Make(time, provider, priority, message));
            }
        }
        return list;
    }

    /// <summary>/dev/kmsg timestamps are microseconds since boot; <paramref name="bootTimeUtc"/> anchors them.</summary>
    public static List<SystemLogEvent> ParseKmsg(string text, DateTime bootTimeUtc, DateTime? fromUtc = null, DateTime? toUtc = null)
    {
        var list = new List<SystemLogEvent>();
        foreach (var line in text.Split('\n'))
        {
            if (line.Length == 0 || line[0] == ' ') continue;
            int semi = line.IndexOf(';');
            if (semi < 0) continue;
            var head = line[..semi].Split(',');
            if (head.Length < 3
                || !int.TryParse(head[0], NumberStyles.None, CultureInfo.InvariantCulture, out int prio)
                || !long.TryParse(head[2], NumberStyles.None, CultureInfo.InvariantCulture, out long usec))
                continue;
            var time = bootTimeUtc.AddTicks(usec * 10);
            if (!InWindow(time, fromUtc, toUtc)) continue;
            list.Add(Make(time, "kernel", prio, line[(semi + 1)..]));
        }
        return list;
    }

    private static SystemLogEvent Make(DateTime time, string provider, int priority, string message)
    {
        var c = KernelLogClassifier.Classify(message);
        return new SystemLogEvent(time, provider, null, SystemLogLevels.FromSyslogPriority(priority), message,
            c != null, c?.Device, c?.Reason, c?.FileSystem);
    }

    /// <summary>journald stores non-UTF-8 messages as an array of byte values.</summary>
    private static string? MessageOf(JsonElement root)
    {
        if (!root.TryGetProperty("MESSAGE", out var m)) return null;
        if (m.ValueKind == JsonValueKind.String) return m.GetString();
        if (m.ValueKind != JsonValueKind.Array) return null;
        var bytes = new List<byte>();
        foreach (var b in m.EnumerateArray())
            if (b.ValueKind == JsonValueKind.Number && b.TryGetByte(out byte v)) bytes.Add(v);
        return Encoding.UTF8.GetString(bytes.ToArray());
    }

    internal static bool InWindow(DateTime t, DateTime? from, DateTime? to) =>
        (from == null || t >= from.Value) && (to == null || t <= to.Value);
}
