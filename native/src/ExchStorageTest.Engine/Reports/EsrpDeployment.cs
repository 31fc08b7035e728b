using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The ESRP "tested deployment" tables filled from what the hosts know (profile, environment,
/// volumes); every other row says <see cref="EsrpSummary.ToSupply"/> unless the user supplied it.
/// </summary>
public static class EsrpDeployment
{
    private const double GiB = 1024.0 * 1024 * 1024;

    public static IReadOnlyList<EsrpTable> Tables(IReadOnlyList<TestResults> hosts, IReadOnlyDictionary<string, string> supplied)
    {
        var first = hosts.FirstOrDefault() ?? new TestResults();
        var profile = first.Profile;
        var volumes = hosts.SelectMany(h => h.Environment.Volumes).ToList();
        var dbVolumes = volumes.Where(v => hosts.Any(h => h.Instances.Any(i => IsUnder(i.DatabasePath, v.Path)))).ToList();
        var logVolumes = volumes.Where(v => hosts.Any(h => h.Instances.Any(i => IsUnder(i.LogPath, v.Path)))).ToList();
        long finalBytes = hosts.Sum(h => h.Sizing.FinalDatabaseSizeBytes);
        long formatted = volumes.GroupBy(v => v.Path).Sum(g => g.First().TotalBytes ?? 0);

        EsrpItem Item(string label, string? known) =>
            supplied.TryGetValue(label, out var s) ? new EsrpItem(label, s, true)
            : known is null ? new EsrpItem(label, EsrpSummary.ToSupply, false)
            : new EsrpItem(label, known, true);

        string? Distinct(IEnumerable<string?> values)
        {
            var list = values.Where(v => !string.IsNullOrWhiteSpace(v)).Select(v => v!).Distinct().ToList();
            return list.Count == 0 ? null : string.Join("; ", list);
        }

        string? LunSize(List<VolumeReport> v) => Distinct(v.Select(x => x.TotalBytes is long b ? JetFormat.Number(b / GiB, 0) + " GB" : null));

        var multipath = Distinct(volumes.Select(v => v.Multipath is null ? null
            : $"{v.Multipath.Name ?? "multipath"} {v.Multipath.Policy ?? ""} ({v.Multipath.PathCount} paths)".Replace("  ", " ", StringComparison.Ordinal)));

        var simulated = new EsrpTable("Simulated Exchange Configuration", new[]
        {
            Item("Number of Exchange mailboxes simulated", JetFormat.Integer(hosts.Sum(h => (long)h.Profile.MailboxCount))),
            Item("Number of Database Availability Groups (DAGs)", null),
            Item("Number of servers/DAG", null),
            Item("Number of servers tested", JetFormat.Integer(hosts.Count)),
            Item("Number of active mailboxes/server", Distinct(hosts.Select(h => JetFormat.Integer(h.Profile.MailboxCount)))),
            Item("Number of databases/host", Distinct(hosts.Select(h => JetFormat.Integer(h.Instances.Count > 0 ? h.Instances.Count : h.Profile.DatabaseCount)))),
            Item("Number of copies/database", JetFormat.Integer(profile.CopiesPerDatabase)),
            Item("Number of mailboxes/database", JetFormat.Integer(profile.MailboxesPerDatabase)),
            Item("Simulated profile: I/O's per second per mailbox (IOPS, include 20% headroom)",
                JetFormat.Number(profile.IopsPerMailbox * (1 + profile.HeadroomPercent / 100.0), 3) + " IOPS"),
            Item("Database LUN size", LunSize(dbVolumes)),
            Item("Log LUN size", LunSize(logVolumes)),
            Item("Total database size for performance testing", finalBytes > 0 ? JetFormat.Number(finalBytes / GiB, 1) + " GB" : null),
            Item("Database capacity used (GB)", finalBytes > 0 ? JetFormat.Number(finalBytes / GiB, 3) : null),
        });

        var hardware = new EsrpTable("Storage Hardware", new[]
        {
            Item("Storage Connectivity (Fiber Channel, SAS, SATA, iSCSI)", null),
            Item("Storage model and OS/firmware revision", Distinct(volumes.Select(v => v.Vendor is null && v.Model is null ? null : $"{v.Vendor} {v.Model}".Trim()))),
            Item("Storage cache", null),
            Item("Number of storage controllers", null),
            Item("Number of storage ports", null),
            Item("Maximum bandwidth of storage connectivity to host", null),
            Item("Switch type/model/firmware revision", null),
            Item("HBA model and firmware", null),
            Item("Number of HBA's/host", null),
            Item("Host server type", Distinct(hosts.Select(h => h.Environment.ProcessorCount > 0
                ? $"{h.Environment.ProcessorCount} logical processors, {JetFormat.Number(h.Environment.MemoryBytes / GiB, 0)} GB RAM" : null))),
            Item("Total number of disks tested in solution", null),
            Item("Maximum number of spindles can be hosted in the storage", null),
        });

        var software = new EsrpTable("Storage Software", new[]
        {
            Item("HBA driver", null),
            Item("HBA QueueTarget Setting", null),
            Item("HBA QueueDepth Setting", null),
            Item("Multi-Pathing", multipath),
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
                : v.ClusterSizeBytes is long c ? $"{v.FileSystem} {JetFormat.Integer(c / 1024)} KB" : v.FileSystem))),
            Item("Total formatted capacity", formatted > 0 ? JetFormat.Number(formatted / GiB, 0) + " GB" : null),
            Item("Storage capacity utilization", null),
            Item("Database capacity utilization", formatted > 0 && finalBytes > 0 ? JetFormat.Number(100.0 * finalBytes / formatted, 0) + "%" : null),
        });

        return new[] { simulated, hardware, software, disks };
    }

    private static bool IsUnder(string path, string root) =>
        !string.IsNullOrEmpty(root) && path.StartsWith(root, root.Contains('\\') || root.Contains(':') ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal);
}
