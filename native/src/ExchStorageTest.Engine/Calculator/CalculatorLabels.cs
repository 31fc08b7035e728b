namespace ExchStorageTest.Engine.Calculator;

/// <summary>
/// The calculator's words the import reads, spelled once as the Exchange 2013 Server Role Requirements Calculator 7.6
/// spells them (docs/calculator.md lists every one with its cell in that version). Tests build their workbooks from
/// these, so a label changed here is a label changed in what is read.
/// </summary>
public static class CalculatorLabels
{
    /// <summary>The sheet that holds every figure read.</summary>
    public const string Sheet = "Role Requirements";
    /// <summary>The sheet that names the calculator and its version.</summary>
    public const string InputSheet = "Input";

    /// <summary>"Exchange 2013 Server Role Requirements Calculator": the title's words after the product's year.</summary>
    public const string TitleSuffix = "Server Role Requirements Calculator";
    /// <summary>"Version: 7.6".</summary>
    public const string VersionPrefix = "Version:";

    public const string MailboxesPerServer = "Calculated Total Number of Mailboxes / Server";
    public const string DatabasesPerServer = "Total Number of Database Copies per Server";
    public const string ServersPerDag = "Total Number of Mailbox Servers / DAG";
    public const string Dags = "Total DAGs in the Environment";
    public const string DatabaseReadsPerSecond = "DB Read Transfers/s / Server";
    public const string DatabaseWritesPerSecond = "DB Write Transfers/s / Server";
    public const string LogWritesPerSecond = "Log Write Transfers/s / Server";
    public const string LogReadsPerSecond = "Log Read Transfers/s / Server";
    public const string DatabaseCachePerMailbox = "Available Database Cache / Mailbox";
    public const string DedicatedDisasterRecoveryServers = "Dedicated Disaster Recovery Mailbox Servers in Secondary Datacenter";
    public const string DedicatedLaggedCopyServers = "Lagged Database Copies Hosted on Dedicated Servers";

    /// <summary>The table of I/O targets, with its columns "/ Database", "/ Server", "/ DAG", "/ Environment".</summary>
    public const string HostIoTable = "Host IO and Throughput Requirements";
    public const string DatabaseIops = "Total Database Required IOPS";
    public const string LogIops = "Total Log Required IOPS";
    public const string DatabaseReadPercentage = "Database Read I/O Percentage";
    public const string MaintenanceThroughput = "Background Database Maintenance Throughput Requirements";

    /// <summary>The table of space, with the same columns.</summary>
    public const string DiskSpaceTable = "Disk Space Requirements";
    public const string DatabaseSpace = "Database Space Required";

    /// <summary>The copies table of the results pane, with its columns "/ Datacenter 1", "/ Datacenter 2", "Total".</summary>
    public const string CopyInstanceTable = "Database Copy Instance Configuration";
    public const string CopyInstances = "Total Number of Database Copy Instances";

    public const string PerDatabase = "/ Database";
    public const string PerServer = "/ Server";
    public const string Total = "Total";
}
