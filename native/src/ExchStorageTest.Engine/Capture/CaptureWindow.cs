using System.Globalization;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Capture;

/// <summary>
/// The window a capture is sized by (docs/capture.md): the hour with the most attached database IOPS over all
/// servers together, sliding over every sample time of the capture, or the window the admin names. A window counts
/// only where every server's samples cover it: its first sample ends within 1.5 sample intervals of the window's
/// start, its last within half an interval of its end, and no two follow more than two intervals apart (a pause of
/// the collector, or the hour the spring clock change skips). Each sample of a rate counter is the rate over the
/// interval ending at its time, so the window [start, end] is the samples of (start, end]. Figures are the window's
/// averages; latencies and sizes are weighted by their operations.
/// </summary>
public sealed class CaptureWindow
{
    public DateTime Start { get; init; }
    public DateTime End { get; init; }
    public bool Named { get; init; }
    public required IReadOnlyList<ServerFigures> Servers { get; init; }

    public double DatabaseIops => Servers.Sum(s => s.Reads + s.Writes);

    /// <summary>The busiest window of <paramref name="minutes"/> (60 unless a shorter one is named), or the one starting at <paramref name="namedStart"/>.</summary>
    public static CaptureWindow Find(IReadOnlyList<CaptureServer> servers, DateTime? namedStart, int minutes)
    {
        var length = TimeSpan.FromMinutes(minutes);
        if (namedStart is { } start)
        {
            foreach (var s in servers)
                if (!Covers(s, start, length))
                    throw EngineException.Refused(ErrorCodes.CaptureTooShort,
                        F($"The window named, {start:yyyy-MM-dd HH:mm} for {minutes} minutes, is not covered by server '{s.Name}''s samples ({Span(s)}): name a window inside the capture of every server."), s.Name);
            return Measure(servers, start, length, named: true);
        }
        DateTime? best = null;
        double bestIops = -1;
        foreach (var candidate in servers.SelectMany(s => s.RowTimes).Distinct().OrderBy(t => t))
        {
            if (!servers.All(s => Covers(s, candidate, length))) continue;
            double iops = servers.Sum(s => InWindow(s, candidate, length).Select(x => x.DatabaseIops).DefaultIfEmpty(0).Average());
            if (iops > bestIops) { bestIops = iops; best = candidate; }
        }
        if (best is null)
        {
            var shortest = servers.OrderBy(s => s.RowTimes.Count == 0 ? TimeSpan.Zero : s.RowTimes[^1] - s.RowTimes[0]).First();
            throw EngineException.Refused(ErrorCodes.CaptureTooShort,
                F($"The capture has no {minutes}-minute window every server's samples cover: server '{shortest.Name}' has {Span(shortest)}. Capture at least an hour of the busy day (ExPerfWiz's default is 8 hours), or name a shorter window explicitly (-CaptureWindow with its start and length) and accept that it is not an hour."),
                shortest.Name);
        }
        return Measure(servers, best.Value, length, named: false);
    }

    private static IEnumerable<CaptureServer.Sample> InWindow(CaptureServer s, DateTime start, TimeSpan length) =>
        s.Samples.Where(x => x.Time > start && x.Time <= start + length);

    internal static bool Covers(CaptureServer s, DateTime start, TimeSpan length)
    {
        var inside = InWindow(s, start, length).Select(x => x.Time).ToList();
        if (inside.Count == 0 || s.IntervalSeconds <= 0) return false;
        double interval = s.IntervalSeconds;
        if ((inside[0] - start).TotalSeconds > 1.5 * interval + 0.001) return false;
        if ((start + length - inside[^1]).TotalSeconds > 0.5 * interval + 0.001) return false;
        for (int i = 1; i < inside.Count; i++)
            if ((inside[i] - inside[i - 1]).TotalSeconds > 2 * interval + 0.001) return false;
        return true;
    }

    private static CaptureWindow Measure(IReadOnlyList<CaptureServer> servers, DateTime start, TimeSpan length, bool named) => new()
    {
        Start = start, End = start + length, Named = named,
        Servers = servers.Select(s => ServerFigures.Of(s, InWindow(s, start, length).ToList())).ToList(),
    };

    private static string Span(CaptureServer s)
    {
        if (s.RowTimes.Count == 0) return "no samples";
        var longestGap = s.RowTimes.Zip(s.RowTimes.Skip(1), (a, b) => b - a).DefaultIfEmpty(TimeSpan.Zero).Max();
        return F($"{s.RowTimes.Count} samples from {s.RowTimes[0]:yyyy-MM-dd HH:mm:ss} to {s.RowTimes[^1]:yyyy-MM-dd HH:mm:ss}, {(s.RowTimes[^1] - s.RowTimes[0]).TotalMinutes:0.#} minutes, every {s.IntervalSeconds:0.#} s")
               + (longestGap.TotalSeconds > 2 * s.IntervalSeconds ? F($", with a gap of {longestGap.TotalMinutes:0.#} minutes") : "");
    }

    private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}

/// <summary>A server's (or one database's) averages over a window.</summary>
public sealed record ServerFigures(string Name, double Reads, double Writes, double RecoveryReads, double LogWrites, double LogBytes,
    double ReadLatencyMs, double LogWriteLatencyMs, double ReadBytes, double WriteBytes, double? Mailboxes, double PeakIops, int Samples,
    IReadOnlyList<ServerFigures> Databases)
{
    public double DatabaseIops => Reads + Writes;

    public static ServerFigures Of(CaptureServer server, IReadOnlyList<CaptureServer.Sample> samples)
    {
        var databases = server.Databases.Select((name, d) => Database(name, samples.Select(x => (x.Values[d], x.Mailboxes[d])).ToList())).ToList();
        double reads = databases.Sum(x => x.Reads), writes = databases.Sum(x => x.Writes), logWrites = databases.Sum(x => x.LogWrites);
        return new ServerFigures(server.Name, reads, writes, databases.Sum(x => x.RecoveryReads), logWrites, databases.Sum(x => x.LogBytes),
            Weighted(databases, x => x.ReadLatencyMs, x => x.Reads), Weighted(databases, x => x.LogWriteLatencyMs, x => x.LogWrites),
            Weighted(databases, x => x.ReadBytes, x => x.Reads), Weighted(databases, x => x.WriteBytes, x => x.Writes),
            server.HasMailboxes ? databases.Sum(x => x.Mailboxes ?? 0) : null,
            samples.Select(x => x.DatabaseIops).DefaultIfEmpty(0).Max(), samples.Count, databases);
    }

    private static ServerFigures Database(string name, IReadOnlyList<(double[] V, double Mailboxes)> samples)
    {
        double Mean(int slot) => samples.Select(x => x.V[slot]).Where(v => !double.IsNaN(v)).DefaultIfEmpty(0).Average();
        double ByOps(int slot, int ops)
        {
            double weight = 0, sum = 0;
            foreach (var (v, _) in samples)
                if (!double.IsNaN(v[slot])) { weight += v[ops]; sum += v[slot] * v[ops]; }
            return weight > 0 ? sum / weight : 0;
        }
        var mailboxes = samples.Select(x => x.Mailboxes).Where(v => !double.IsNaN(v)).ToList();
        return new ServerFigures(name, Mean(CaptureServer.Reads), Mean(CaptureServer.Writes), Mean(CaptureServer.RecoveryReads), Mean(CaptureServer.LogWrites),
            Mean(CaptureServer.LogBytes), ByOps(CaptureServer.ReadLatency, CaptureServer.Reads), ByOps(CaptureServer.LogWriteLatency, CaptureServer.LogWrites),
            ByOps(CaptureServer.ReadBytes, CaptureServer.Reads), ByOps(CaptureServer.WriteBytes, CaptureServer.Writes),
            mailboxes.Count > 0 ? mailboxes.Average() : null, samples.Select(x => x.V[CaptureServer.Reads] + x.V[CaptureServer.Writes]).DefaultIfEmpty(0).Max(),
            samples.Count, Array.Empty<ServerFigures>());
    }

    /// <summary>The parts' <paramref name="value"/> weighted by their operations, over the parts that have it (an absent counter is 0 and left out).</summary>
    internal static double Weighted(IReadOnlyList<ServerFigures> parts, Func<ServerFigures, double> value, Func<ServerFigures, double> weight)
    {
        double w = parts.Where(p => value(p) > 0).Sum(weight);
        return w > 0 ? parts.Where(p => value(p) > 0).Sum(p => value(p) * weight(p)) / w : 0;
    }
}
