namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// The mailbox profile as users describe it (and as New-MailboxProfile saves it): the simulated
/// Exchange deployment whose storage load the engine generates. Units are in the names.
/// </summary>
public sealed class MailboxProfile
{
    public string Name { get; set; } = "Default";
    public string? Description { get; set; }
    public int MailboxCount { get; set; }
    /// <summary>The tested IOPS per mailbox (already including the usual 20% headroom, as in Jetstress).</summary>
    public double IopsPerMailbox { get; set; }
    /// <summary>Optional extra headroom on top of <see cref="IopsPerMailbox"/>, in percent.</summary>
    public double HeadroomPercent { get; set; }
    public long MailboxSizeMB { get; set; }
    public int DatabaseCount { get; set; }
    public int CopiesPerDatabase { get; set; } = 1;
    /// <summary>One root (every database in its own sub-folder) or one path per database.</summary>
    public List<string> DatabasePaths { get; set; } = new();
    /// <summary>One root or one path per database; empty means next to each database.</summary>
    public List<string> LogPaths { get; set; } = new();
    /// <summary>Sessions (Jetstress "threads"); null means automatic tuning.</summary>
    public int? ThreadCount { get; set; }
    public bool BackgroundMaintenance { get; set; } = true;
    public long MinimumDatabaseCacheMB { get; set; } = 128;
    public long MaximumDatabaseCacheMB { get; set; } = 1024;

    /// <summary>Target transactional IOPS = mailboxes x IOPS per mailbox x (1 + headroom).</summary>
    public double TargetIops => MailboxCount * IopsPerMailbox * (1 + HeadroomPercent / 100.0);

    /// <summary>Database size = mailboxes x quota, split evenly over the databases.</summary>
    public long DatabaseSizeBytes => DatabaseCount <= 0 ? 0 : (long)MailboxCount * MailboxSizeMB * 1024 * 1024 / DatabaseCount;

    public int MailboxesPerDatabase => DatabaseCount <= 0 ? 0 : (int)Math.Ceiling(MailboxCount / (double)DatabaseCount);
}
