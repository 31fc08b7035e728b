namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>Host counter names as the Jetstress "Host System Performance" table shows them (SPEC section 5).</summary>
public static class HostCounterNames
{
    public const string ProcessorTime = "% Processor Time";
    public const string AvailableMBytes = "Available MBytes";
    public const string FreeSystemPageTableEntries = "Free System Page Table Entries";
    public const string TransitionPagesRePurposed = "Transition Pages RePurposed/sec";
    public const string PoolNonpagedBytes = "Pool Nonpaged Bytes";
    public const string PoolPagedBytes = "Pool Paged Bytes";
    /// <summary>Linux only: page-table memory, reported because there is no PTE-exhaustion counter to map.</summary>
    public const string PageTablesBytes = "Page Tables Bytes";

    public const string AvgDiskSecRead = "Avg. Disk sec/Read";
    public const string AvgDiskSecWrite = "Avg. Disk sec/Write";
    public const string DiskReadsPerSec = "Disk Reads/sec";
    public const string DiskWritesPerSec = "Disk Writes/sec";
    public const string AvgDiskQueueLength = "Avg. Disk Queue Length";

    public static readonly string[] DiskCounters =
        { AvgDiskSecRead, AvgDiskSecWrite, DiskReadsPerSec, DiskWritesPerSec, AvgDiskQueueLength };

    /// <summary>"\LogicalDisk(sdb)\Avg. Disk sec/Read".</summary>
    public static string Disk(string instance, string counter) => $@"\LogicalDisk({instance})\{counter}";

    public const string SourceProc = "/proc";
    public const string SourcePdh = "PDH";
}
