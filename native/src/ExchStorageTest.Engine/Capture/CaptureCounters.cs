using System.Text.RegularExpressions;

namespace ExchStorageTest.Engine.Capture;

/// <summary>
/// The counters a capture is read by, as Exchange 2013 to 2019 name them (docs/capture.md cites where each comes from):
/// ESE's per-database instance counters of "MSExchange Database ==> Instances" (ExPerfWiz records the whole object,
/// <c>\MSExchange Database ==&gt; Instances(*)\*</c>) and "MSExchangeIS Store(*)\Active mailboxes" (ExPerfWiz records
/// <c>\MSExchangeIS Store(*)\*</c>).
/// </summary>
public static class CaptureCounters
{
    public const string DatabaseObject = "MSExchange Database ==> Instances";
    public const string StoreObject = "MSExchangeIS Store";

    public const string Reads = "I/O Database Reads (Attached)/sec";
    public const string Writes = "I/O Database Writes (Attached)/sec";
    public const string ReadLatency = "I/O Database Reads (Attached) Average Latency";
    public const string LogWrites = "I/O Log Writes/sec";
    public const string RecoveryReads = "I/O Database Reads (Recovery)/sec";
    public const string LogWriteLatency = "I/O Log Writes Average Latency";
    public const string LogBytes = "Log Bytes Write/sec";
    public const string ReadBytes = "I/O Database Reads (Attached) Average Bytes";
    public const string WriteBytes = "I/O Database Writes (Attached) Average Bytes";
    public const string ActiveMailboxes = "Active mailboxes";

    /// <summary>What the derivation cannot do without, on every database of every server.</summary>
    public static readonly string[] Required = { Reads, Writes, ReadLatency, LogWrites };

    public static readonly string[] Optional = { RecoveryReads, LogWriteLatency, LogBytes, ReadBytes, WriteBytes };

    /// <summary>
    /// A database's instance of "MSExchange Database ==> Instances": since Exchange 2013 each database runs in its own
    /// store worker process, whose ESE instance PDH names "Information Store - &lt;database&gt;/_Total" (the
    /// database's total over its sub-instances). Everything else is not a database's: the object's "_Total" (the sum,
    /// counted twice if read), the sub-instances "Information Store - DB01/&lt;n&gt;", and other processes' ESE
    /// instances (edgetransport, the search and the replication services).
    /// </summary>
    private static readonly Regex DatabaseInstance = new(@"^Information Store - (.+)/_Total$", RegexOptions.CultureInvariant | RegexOptions.IgnoreCase);

    /// <summary>The database the instance is, or null when it is none (see <see cref="DatabaseInstance"/>).</summary>
    public static string? Database(string? instance) =>
        instance is not null && DatabaseInstance.Match(instance) is { Success: true } m ? m.Groups[1].Value : null;

    /// <summary>A database's instance of "MSExchangeIS Store": its name; "_Total" is the sum.</summary>
    public static string? StoreDatabase(string? instance) =>
        instance is null || instance.Equals("_Total", StringComparison.OrdinalIgnoreCase) ? null : instance;
}
