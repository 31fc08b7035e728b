using System.Globalization;
using ExchStorageTest.Engine.Calculator;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Capture;

/// <summary>
/// A PerfMon capture of the servers being replaced made into a mailbox profile (docs/capture.md): the busiest hour's
/// attached database IOPS of all servers x the growth factor is the target, spread evenly over as many servers (a DAG
/// spreads its active copies so); with the calculator's design given too, the profile is the design's (its
/// databases, sizes and layout) and aims at the higher of the two targets, both kept on it. The derivation says where
/// each figure came from.
/// </summary>
public sealed class CaptureImport
{
    public required MailboxProfile Profile { get; init; }
    public required IReadOnlyList<string> Derivation { get; init; }
    public required CaptureWindow Window { get; init; }

    public sealed record Options(double GrowthFactor = CaptureRules.DefaultGrowthFactor, DateTime? WindowStart = null, int? WindowMinutes = null,
        int? MailboxCount = null, string? CalculatorPath = null, string? ServersCsvPath = null);

    public static CaptureImport Read(IReadOnlyList<string> paths, Options options)
    {
        foreach (string path in paths)
            if (!File.Exists(path)) throw EngineException.Refused(ErrorCodes.CaptureNotFound, $"The capture '{path}' does not exist.", path);
        var logs = paths.Select(p => Path.GetExtension(p).Equals(".blg", StringComparison.OrdinalIgnoreCase) ? PdhLog.Read(p) : PerfmonCsv.Read(p)).ToList();
        var calculator = options.CalculatorPath is null ? null : CalculatorImport.Read(options.CalculatorPath, options.ServersCsvPath);
        return Build(logs, options, calculator?.Profiles[0]);
    }

    public static CaptureImport Build(IReadOnlyList<PerfmonLog> logs, Options options, MailboxProfile? design = null)
    {
        if (!(options.GrowthFactor >= 1 && options.GrowthFactor <= 10))
            throw EngineException.Refused(ErrorCodes.CaptureValueInvalid, F($"The growth factor {options.GrowthFactor} is not one a target can be made of: give 1 (today's load) to 10."));
        int minutes = options.WindowMinutes ?? CaptureRules.DefaultWindowMinutes;
        if (minutes < 1 || minutes > 24 * 60 || (minutes != CaptureRules.DefaultWindowMinutes && options.WindowStart is null))
            throw EngineException.Refused(ErrorCodes.CaptureValueInvalid, F($"A window of {minutes} minutes: the busiest hour is an hour; another length needs its start named too (1 to 1440 minutes)."));
        if (options.MailboxCount is <= 0)
            throw EngineException.Refused(ErrorCodes.CaptureValueInvalid, F($"The mailbox count {options.MailboxCount} is not one a profile can take: give 1 or more."));

        var servers = CaptureServer.From(logs);
        var window = CaptureWindow.Find(servers, options.WindowStart, minutes);
        int n = servers.Count;
        var figures = window.Servers;
        double reads = figures.Sum(s => s.Reads), writes = figures.Sum(s => s.Writes), iops = reads + writes;
        if (iops <= 0)
            throw EngineException.Refused(ErrorCodes.CaptureValueInvalid, F($"The capture's {(window.Named ? "named window" : "busiest hour")} has no database I/O at all (0 reads and writes per second on {n} servers): no target can be made of it."));
        bool mailboxesCaptured = figures.All(s => s.Mailboxes is not null);
        int activeMailboxes = mailboxesCaptured ? (int)Math.Round(figures.Sum(s => s.Mailboxes!.Value), MidpointRounding.AwayFromZero) : 0;
        double target = Round(iops * options.GrowthFactor);
        double calculatorIops = design?.Calculator is { } t ? Round(t.DatabaseIops * n) : 0;
        double tested = Math.Max(target, calculatorIops);

        var capture = new CaptureTargets
        {
            Captures = logs.Select(l => Path.GetFileName(l.File)).ToArray(),
            Servers = servers.Select(s => s.Name).ToArray(),
            TimeZone = logs[0].TimeZone,
            WindowStart = window.Start.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture),
            WindowEnd = window.End.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture),
            WindowNamed = window.Named,
            GrowthFactor = options.GrowthFactor,
            DatabaseIops = Round(iops), DatabaseReadsPerSecond = Round(reads), DatabaseWritesPerSecond = Round(writes),
            RecoveryReadsPerSecond = Round(figures.Sum(s => s.RecoveryReads)), PeakDatabaseIops = Round(figures.Sum(s => s.PeakIops)),
            LogWritesPerSecond = Round(figures.Sum(s => s.LogWrites)), LogBytesPerSecond = Round(figures.Sum(s => s.LogBytes)),
            ReadLatencyMs = Round(ServerFigures.Weighted(figures, s => s.ReadLatencyMs, s => s.Reads)), LogWriteLatencyMs = Round(ServerFigures.Weighted(figures, s => s.LogWriteLatencyMs, s => s.LogWrites)),
            ReadBytes = Round(ServerFigures.Weighted(figures, s => s.ReadBytes, s => s.Reads)), WriteBytes = Round(ServerFigures.Weighted(figures, s => s.WriteBytes, s => s.Writes)),
            ActiveMailboxes = activeMailboxes, TargetIops = target, CalculatorIops = calculatorIops, TestedIops = tested,
        };

        // Mailboxes per server: the admin's, else the calculator's design (the new servers' layout), else the capture's Active mailboxes.
        string mailboxSource;
        int mailboxes;
        if (options.MailboxCount is { } given) { mailboxes = given; mailboxSource = "-MailboxCount"; }
        else if (design is not null) { mailboxes = design.MailboxCount; mailboxSource = "the calculator's design"; }
        else if (mailboxesCaptured && activeMailboxes > 0) { mailboxes = Math.Max(1, (int)Math.Round(activeMailboxes / (double)n, MidpointRounding.AwayFromZero)); mailboxSource = F($"the capture's Active mailboxes ({activeMailboxes} on {n} servers)"); }
        else throw EngineException.Refused(ErrorCodes.CaptureFigureMissing,
            $"The capture has no '\\{CaptureCounters.StoreObject}(*)\\{CaptureCounters.ActiveMailboxes}' on {string.Join(", ", servers.Where((s, i) => figures[i].Mailboxes is null).Select(s => s.Name))}: give the mailboxes per server with -MailboxCount (or the calculator's design with -CalculatorPath).");

        double perServer = tested / n;
        var profile = design ?? new MailboxProfile
        {
            DatabaseCount = Math.Max(1, (int)Math.Round(servers.Average(s => s.Databases.Count), MidpointRounding.AwayFromZero)),
        };
        // "EX01-EX04 capture": the first and last server, as a profile name may spell them (no commas).
        profile.Name = design?.Name ?? CalculatorImport.ProfileName(capture.Servers[0] + (n > 1 ? "-" + capture.Servers[^1] : "") + " capture");
        // The tested IOPS per server over the mailboxes: the design's own IOPS per mailbox when its target is the higher.
        profile.MailboxCount = mailboxes;
        profile.IopsPerMailbox = perServer / mailboxes;
        profile.HeadroomPercent = 0;
        profile.Capture = capture;
        profile.Description = F($"PerfMon capture of {capture.ServerNames()} ({string.Join(", ", capture.Captures)}): {(window.Named ? "named window" : "busiest hour")} {capture.WindowText()}, {capture.DatabaseIops:0.#} database IOPS x {capture.GrowthFactor:0.##}")
                              + (calculatorIops > 0 ? F($"; the calculator's design {calculatorIops:0.#} for {n} servers") : "") + F($": {tested:0.#} tested, {perServer:0.###} per server.");

        var lines = Describe(logs, servers, window, capture, options, design, profile, mailboxSource);
        return new CaptureImport { Profile = profile, Derivation = lines, Window = window };
    }

    private static List<string> Describe(IReadOnlyList<PerfmonLog> logs, IReadOnlyList<CaptureServer> servers, CaptureWindow window, CaptureTargets c,
        Options options, MailboxProfile? design, MailboxProfile profile, string mailboxSource)
    {
        int n = servers.Count;
        var lines = new List<string>();
        foreach (var log in logs)
            lines.Add(F($"Capture '{log.File}': {log.Times.Count} samples from {log.Times.FirstOrDefault():yyyy-MM-dd HH:mm:ss} to {log.Times.LastOrDefault():yyyy-MM-dd HH:mm:ss}, clock '{log.TimeZone}' (bias {log.BiasMinutes} min), numbers and dates read as {log.Locale}."));
        foreach (var s in servers.Where(s => s.Absent.Count > 0))
            lines.Add($"Server {s.Name} has no {string.Join(", ", s.Absent.Select(a => $"'{a}'"))}: those figures are 0 (not captured).");
        lines.Add(F($"{(window.Named ? "Named window" : "Busiest hour")} of {c.ServerNames()}: {c.WindowText()} ({c.TimeZone}): {c.DatabaseIops:0.#} attached database IOPS ({c.DatabaseReadsPerSecond:0.#} reads, {c.DatabaseWritesPerSecond:0.#} writes/s, {Share(c.DatabaseReadsPerSecond, c.DatabaseIops)} reads); each server's busiest sample summed: {c.PeakDatabaseIops:0.#}."));
        foreach (var s in window.Servers)
        {
            lines.Add(F($"  {s.Name}: {s.DatabaseIops:0.#} database IOPS ({s.Reads:0.#} reads at {s.ReadLatencyMs:0.#} ms, {s.Writes:0.#} writes/s; reads {s.ReadBytes / 1024:0.#} KiB, writes {s.WriteBytes / 1024:0.#} KiB), {s.LogWrites:0.#} log writes/s ({s.LogBytes / 1048576:0.##} MB/s) at {s.LogWriteLatencyMs:0.#} ms, recovery reads {s.RecoveryReads:0.#}/s (not in the target), {(s.Mailboxes is { } m ? F($"{m:0} active mailboxes") : "active mailboxes not captured")}; {s.Samples} samples."));
            foreach (var d in s.Databases)
                lines.Add(F($"    {d.Name}: {d.DatabaseIops:0.#} IOPS ({d.Reads:0.#} r, {d.Writes:0.#} w) at {d.ReadLatencyMs:0.#} ms read, {d.LogWrites:0.#} log writes/s{(d.Mailboxes is { } dm ? F($", {dm:0} mailboxes") : "")}{(d.Mailboxes is { } mm && mm > 0 ? F($", {d.DatabaseIops / mm:0.####} IOPS per mailbox") : "")}."));
        }
        if (c.ActiveMailboxes > 0) lines.Add(F($"IOPS per active mailbox in that hour: {c.DatabaseIops / c.ActiveMailboxes:0.####} ({c.DatabaseIops:0.#} / {c.ActiveMailboxes})."));
        lines.Add(F($"Target: {c.DatabaseIops:0.#} x {c.GrowthFactor:0.##} (growth factor{(options.GrowthFactor == CaptureRules.DefaultGrowthFactor ? ", the default: the calculator's 20% I/O overhead" : "")}) = {c.TargetIops:0.#} database IOPS for {n} servers, {c.TargetIops / n:0.###} per server."));
        if (design?.Calculator is { } t)
            lines.Add(F($"The calculator's design ({t.Workbook}): {t.DatabaseIops:0.###} database IOPS per server, {c.CalculatorIops:0.#} for {n} servers: the {(c.CalculatorIops > c.TargetIops ? "calculator's" : "capture's")} is higher and is tested ({c.TestedIops:0.#}, {c.TestedIops / n:0.###} per server)."));
        lines.Add(F($"Profile '{profile.Name}': {profile.MailboxCount} mailboxes per server (from {mailboxSource}) at {profile.IopsPerMailbox:0.####} IOPS each = {profile.TargetIops:0.###} per server; {profile.DatabaseCount} databases per server (from {(design is not null ? "the calculator's design" : "the capture")}); mailbox size {(design is not null ? F($"{profile.MailboxSizeMB} MB from the calculator's design") : "from -MailboxSizeMB (a capture cannot know it)")}; paths from {(design?.DatabasePaths.Length > 0 ? "the calculator's Servers.csv" : "-Path")}."));
        return lines;
    }

    private static string Share(double part, double whole) => whole > 0 ? F($"{part / whole * 100:0.#}%") : "0%";
    private static double Round(double value) => Math.Round(value, 3);
    private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
