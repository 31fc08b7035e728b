using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The ESRP "tested deployment" tables (the ESRP 4.0 template's rows) filled from what the hosts know
/// (profile, environment, volumes); every other row says <see cref="EsrpSummary.ToSupply"/> unless the
/// user supplied it. Each filled value states what it is when that differs from the row's wording
/// (a file system's size for a LUN size). Sizes are binary and say so (GiB).
/// </summary>
public static class EsrpDeployment
{
    public static IReadOnlyList<EsrpTable> Tables(IReadOnlyList<TestResults> hosts, IReadOnlyDictionary<string, string> supplied)
    {
        // Folders on one file system are one volume: counted once for capacities (per host: two hosts' "/" differ).
        var fileSystems = hosts.SelectMany(h => h.Environment.Volumes.Select(v => (Host: h, Volume: v)))
            .GroupBy(x => (x.Host.Environment.MachineName, Key: x.Volume.MountPoint ?? x.Volume.Device ?? x.Volume.Path))
            .Select(g => (g.First().Host, Volume: g.First().Volume, Folders: g.Select(x => x.Volume.Path).ToList()))
            .ToList();
        bool Holds((TestResults Host, VolumeReport Volume, List<string> Folders) fs, Func<InstanceResult, string> path) =>
            fs.Host.Instances.Any(i => fs.Folders.Any(folder => IsUnder(path(i), folder)));
        var dbVolumes = fileSystems.Where(fs => Holds(fs, i => i.DatabasePath)).ToList();
        var logVolumes = fileSystems.Where(fs => Holds(fs, i => i.LogPath)).ToList();
        long finalBytes = hosts.Sum(h => h.Sizing.FinalDatabaseSizeBytes);
        long formatted = fileSystems.Sum(fs => fs.Volume.TotalBytes ?? 0);
        long dbFormatted = dbVolumes.Sum(fs => fs.Volume.TotalBytes ?? 0);
        var volumes = fileSystems.Select(fs => fs.Volume).ToList();

        EsrpItem Item(string label, string? known) =>
            supplied.TryGetValue(label, out var s) ? new EsrpItem(label, s, true, Supplied: true)
            : known is null ? new EsrpItem(label, EsrpSummary.ToSupply, false)
            : new EsrpItem(label, known, true);

        string? LunSize(IEnumerable<VolumeReport> v) =>
            Distinct(v.Select(x => x.TotalBytes is long b ? Gib(b) + " (file system size)" : null));

        // Logs that share the databases' file systems have no LUN of their own (ESRP: "Included in Database LUN").
        string? logLun = logVolumes.Count > 0 && logVolumes.All(l => dbVolumes.Contains(l))
            ? "on the database volume (same file system)"
            : LunSize(logVolumes.Select(fs => fs.Volume));

        var profiles = hosts.Select(h => h.Profile).ToList();
        string headroom = Distinct(profiles.Select(p => JetFormat.Number(p.HeadroomPercent, 0) + "%")) ?? "0%";

        var simulated = new EsrpTable("Simulated Exchange Configuration", new[]
        {
            // Not an ESRP 4.0 template row: what the figures below were measured as (results "exchange").
            Item(ReportText.ExchangeModelledLabel, Distinct(hosts.Select(h => h.Exchange.Describe()))),
        }.Concat(profiles.Any(p => ReportText.CopiesPerVolume(p) is not null)
            ? new[] { Item(ReportText.CopiesPerVolumeLabel, Distinct(profiles.Select(p => ReportText.CopiesPerVolume(p) ?? "1 (1 active)"))) }
            : Array.Empty<EsrpItem>()).Concat(new[]
        {
            Item("Number of Exchange mailboxes simulated", JetFormat.Integer(hosts.Sum(h => (long)Mailboxes(h)))),
            Item("Number of Database Availability Groups (DAGs)", null),
            Item("Number of servers/DAG", null),
            Item("Number of servers tested", JetFormat.Integer(hosts.Count)),
            Item("Number of active mailboxes/server", Distinct(hosts.Select(h => JetFormat.Integer(Mailboxes(h))))),
            Item("Number of databases/host", Distinct(hosts.Select(h => JetFormat.Integer(Databases(h))))),
            Item("Number of copies/database", Distinct(profiles.Select(p => JetFormat.Integer(p.CopiesPerDatabase)))),
            Item("Number of mailboxes/database", Distinct(hosts.Select(MailboxesPerDatabase))),
            Item($"Simulated profile: I/O's per second per mailbox (IOPS, include {headroom} headroom)", Distinct(profiles.Select(IopsPerMailbox))),
            Item("Database LUN size", LunSize(dbVolumes.Select(fs => fs.Volume))),
            Item("Log LUN size", logLun),
            Item("Total database size for performance testing", finalBytes > 0 ? Gib(finalBytes) : null),
            Item("% storage capacity used by Exchange database", finalBytes > 0 && dbFormatted > 0 ? Percent(finalBytes, dbFormatted) : null),
            // Not an ESRP row: a data-reducing array's figures hold only for the data they were measured on.
            Item("Database page data (compression, deduplication)", Distinct(hosts.Select(ReportText.DataDescription))),
        }.Concat(hosts.Any(h => h.Capacity is not null)
            // Not an ESRP row: a capacity search's figures are one step's window, and the search's answer is its own.
            ? new[] { Item("Capacity search step shown", Distinct(hosts.Select(CapacityStep))) }
            : Array.Empty<EsrpItem>())).ToList());

        var hardware = new EsrpTable("Storage Hardware", new[]
        {
            Item("Storage Connectivity (Fiber Channel, SAS, SATA, iSCSI)", Distinct(volumes.Select(v => v.BusType))),
            Item("Storage model and OS/firmware revision", Distinct(volumes.Select(StorageModel.Describe))),
            Item("Storage cache", null),
            Item("Number of storage controllers", null),
            Item("Number of storage ports", null),
            Item("Maximum bandwidth of storage connectivity to host", null),
            Item("Switch type/model/firmware revision", null),
            Item("HBA model and firmware", Distinct(hosts.SelectMany(h => h.Environment.StorageSoftware?.HostBusAdapters ?? new List<string>()))),
            Item("Number of HBA's/host", null),
            Item("Host server type", Distinct(hosts.Select(h => h.Environment.ProcessorCount > 0
                ? $"{h.Environment.ProcessorCount} logical processors, {Gib(h.Environment.MemoryBytes)} RAM available to the test" : null))),
            Item("Total number of disks tested in solution", null),
            Item("Maximum number of spindles can be hosted in the storage", null),
        });

        var software = new EsrpTable("Storage Software", new[]
        {
            Item("HBA driver", null),
            Item("HBA QueueTarget Setting", null),
            Item("HBA QueueDepth Setting", null),
            Item("Multi-Pathing", Distinct(hosts.Select(h => h.Environment.StorageSoftware?.Multipathing)) ?? Multipathing(volumes)),
            Item("Host OS", Distinct(hosts.Select(h => h.Environment.OperatingSystem))),
            Item("ESE.dll file version", "not used (ExchStorageTest generates the I/O without ESE)"),
            Item("Replication solution name/version", null),
        });

        var disks = new EsrpTable("Storage Disk Configuration (Mailbox Store/Log Disks)", new[]
        {
            Item("Disk type, speed and firmware revision", null),
            Item("Raw capacity per disk (GB)", null),
            Item("Number of physical disks in test", null),
            Item("Total raw storage capacity (GB)", null),
            Item("Disk slice size (GB)", null),
            Item("Number of slices per LUN or number of disks per LUN", null),
            Item("RAID level", null),
            Item("File system and allocation unit", Distinct(volumes.Select(v => v.FileSystem is null ? null
                : v.ClusterSizeBytes is long c ? $"{v.FileSystem} {JetFormat.Kibibytes(c)}" : v.FileSystem))),
            Item("Total formatted capacity", formatted > 0 ? Gib(formatted) : null),
            Item("Storage capacity utilization", null),
            Item("Database capacity utilization", formatted > 0 && finalBytes > 0 ? Percent(finalBytes, formatted) : null),
        });

        return new[] { simulated, hardware, software, disks };
    }

    /// <summary>
    /// The mailboxes a host's measured window loaded: its profile's, or a capacity search's reported step's (the window
    /// its figures are, <see cref="CapacityResult.ReportedStep"/>), so the mailboxes and the IOPS of one table belong together.
    /// </summary>
    public static int Mailboxes(TestResults h) => h.Capacity?.Reported()?.Mailboxes ?? h.Profile.MailboxCount;

    /// <summary>Which step of a capacity search the figures are, and the search's answer beside it.</summary>
    private static string? CapacityStep(TestResults h)
    {
        if (h.Capacity is not { } c) return null;
        var a = c.Answer;
        string answer = a.Mailboxes > 0 ? $"the search's answer: {(a.LowerBound ? "at least " : "")}{JetFormat.Integer(a.Mailboxes)} mailboxes" : "no step passed";
        return c.Reported() is { } s
            ? $"step {JetFormat.Integer(s.Step)}, {JetFormat.Integer(s.Mailboxes)} mailboxes at a target of {JetFormat.Number(s.TargetIops)} IOPS ({(s.Passed ? "the answer's step" : "the first failing step")}); {answer}"
            : $"none: no step's window is in the results; {answer}";
    }

    private static int Databases(TestResults h) => h.Instances.Count > 0 ? h.Instances.Count : h.Profile.DatabaseCount;

    /// <summary>"50", or "281 or 282" when the mailboxes do not divide evenly (as ESRP documents write it).</summary>
    private static string? MailboxesPerDatabase(TestResults h)
    {
        int dbs = Databases(h);
        if (dbs <= 0) return null;
        int mailboxes = Mailboxes(h);
        int low = mailboxes / dbs;
        return mailboxes % dbs == 0 ? JetFormat.Integer(low) : $"{JetFormat.Integer(low)} or {JetFormat.Integer(low + 1)}";
    }

    /// <summary>"0.500 IOPS" without headroom; "0.100 (0.120 tested)" with it, as ESRP documents write ".10 (.12 tested)".</summary>
    private static string IopsPerMailbox(MailboxProfile p) => p.HeadroomPercent == 0
        ? JetFormat.Number(p.IopsPerMailbox, 3) + " IOPS"
        : $"{JetFormat.Number(p.IopsPerMailbox, 3)} ({JetFormat.Number(ReportText.TestedIopsPerMailbox(p), 3)} tested)";

    private static string? Multipathing(IEnumerable<VolumeReport> volumes) => Distinct(volumes.Select(v => v.Multipath is null ? null
        : $"{v.Multipath.Name ?? "multipath"} {v.Multipath.Policy ?? ""} ({Wording.Count(v.Multipath.PathCount, "path")})".Replace("  ", " ", StringComparison.Ordinal)));

    /// <summary>Gibibytes, with decimals enough to read small sizes: "252 GiB", "23.5 GiB", "0.98 GiB".</summary>
    private static string Gib(long bytes)
    {
        double gib = bytes / (double)JetFormat.GiB;
        return JetFormat.Gibibytes(bytes, gib >= 100 ? 0 : gib >= 10 ? 1 : 2);
    }

    /// <summary>A share with one decimal, so a small database on a large volume reads 0.4%, not 0%.</summary>
    private static string Percent(long part, long whole) => JetFormat.Number(100.0 * part / whole, 1) + "%";

    private static string? Distinct(IEnumerable<string?> values)
    {
        var list = values.Where(v => !string.IsNullOrWhiteSpace(v)).Select(v => v!).Distinct(StringComparer.Ordinal).ToList();
        return list.Count == 0 ? null : string.Join("; ", list);
    }

    /// <summary>True when <paramref name="path"/> is <paramref name="root"/> or inside it (".../DB1" does not hold ".../DB10").</summary>
    private static bool IsUnder(string path, string root)
    {
        if (string.IsNullOrEmpty(root)) return false;
        var comparison = root.Contains('\\') || root.Contains(':') ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal;
        string r = root.TrimEnd('/', '\\');
        return path.Equals(r, comparison)
            || (path.StartsWith(r, comparison) && path.Length > r.Length && path[r.Length] is '/' or '\\');
    }
}
