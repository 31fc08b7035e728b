using System;
using System.Collections.Generic;

namespace ExchStorageTest
{
    /// <summary>
    /// What Microsoft's Exchange Server Role Requirements Calculator says one mailbox server of the design must sustain
    /// (its "Role Requirements" sheet, "/ Server" figures), kept on a <see cref="MailboxProfile"/> built from the
    /// calculator (New-MailboxProfile -CalculatorPath) so a run can be judged against the design it tests, not only
    /// against its own target. The profile's own settings (mailboxes, IOPS per mailbox, databases, size) are derived
    /// from these once; these stay as the calculator gave them, whatever the profile is changed to afterwards.
    /// Per DAG: x <see cref="ServersPerDag"/>; for the environment: x <see cref="Dags"/> as well (the calculator's own
    /// DAG and environment columns are these products). Shared by module and engine (PSTypeName
    /// ExchStorageTest.CalculatorTargets, hence this namespace).
    /// </summary>
    public sealed class CalculatorTargets
    {
        /// <summary>The calculator's title, for example "Exchange 2013 Server Role Requirements Calculator".</summary>
        public string Calculator { get; set; } = "";
        /// <summary>Its version as the workbook states it, for example "7.6".</summary>
        public string Version { get; set; } = "";
        /// <summary>The workbook's file name (not its folder: a profile travels to other hosts).</summary>
        public string Workbook { get; set; } = "";
        /// <summary>The server role these figures are for, in words.</summary>
        public string Role { get; set; } = "";
        /// <summary>"Calculated Total Number of Mailboxes / Server": active and passive copies, as the calculator counts them.</summary>
        public int MailboxesPerServer { get; set; }
        /// <summary>"Total Number of Database Copies per Server".</summary>
        public int DatabasesPerServer { get; set; }
        /// <summary>"Database Space Required" / Database, in GB (the calculator's GB: 1024 MB).</summary>
        public double DatabaseSizeGB { get; set; }
        /// <summary>"Total Number of Mailbox Servers / DAG".</summary>
        public int ServersPerDag { get; set; }
        /// <summary>"Total DAGs in the Environment".</summary>
        public int Dags { get; set; }
        /// <summary>"Total Database Required IOPS" / Server: transactional database reads and writes, the calculator's I/O overhead included.</summary>
        public double DatabaseIops { get; set; }
        /// <summary>"Total Log Required IOPS" / Server: log writes and log reads.</summary>
        public double LogIops { get; set; }
        /// <summary>"Database Read I/O Percentage" as a share (0.6 = 60% of the database I/O are reads).</summary>
        public double DatabaseReadShare { get; set; }
        /// <summary>"Background Database Maintenance Throughput Requirements" / Server, MB/s.</summary>
        public double MaintenanceMBPerSecond { get; set; }
        /// <summary>"DB Read Transfers/s / Server".</summary>
        public double DatabaseReadsPerSecond { get; set; }
        /// <summary>"DB Write Transfers/s / Server".</summary>
        public double DatabaseWritesPerSecond { get; set; }
        /// <summary>"Log Write Transfers/s /Server".</summary>
        public double LogWritesPerSecond { get; set; }
        /// <summary>"Log Read Transfers/s /Server".</summary>
        public double LogReadsPerSecond { get; set; }
        /// <summary>"Available Database Cache / Mailbox", MB: the ESE cache the design gives each mailbox (the test's cache model is not sized from it: the calculator's IOPS already count on it).</summary>
        public double DatabaseCachePerMailboxMB { get; set; }
        /// <summary>The servers the calculator's Servers.csv names for this role (empty without one).</summary>
        public string[] Servers { get; set; } = Array.Empty<string>();

        /// <summary>The figures by their field names (<see cref="Contract.CalculatorFields"/>): what a request and a saved profile hold.</summary>
        public IEnumerable<KeyValuePair<string, object?>> Settings()
        {
            yield return Setting(Contract.CalculatorFields.Calculator, Calculator);
            yield return Setting(Contract.CalculatorFields.Version, Version);
            yield return Setting(Contract.CalculatorFields.Workbook, Workbook);
            yield return Setting(Contract.CalculatorFields.Role, Role);
            yield return Setting(Contract.CalculatorFields.MailboxesPerServer, MailboxesPerServer);
            yield return Setting(Contract.CalculatorFields.DatabasesPerServer, DatabasesPerServer);
            yield return Setting(Contract.CalculatorFields.DatabaseSizeGB, DatabaseSizeGB);
            yield return Setting(Contract.CalculatorFields.ServersPerDag, ServersPerDag);
            yield return Setting(Contract.CalculatorFields.Dags, Dags);
            yield return Setting(Contract.CalculatorFields.DatabaseIops, DatabaseIops);
            yield return Setting(Contract.CalculatorFields.LogIops, LogIops);
            yield return Setting(Contract.CalculatorFields.DatabaseReadShare, DatabaseReadShare);
            yield return Setting(Contract.CalculatorFields.MaintenanceMBPerSecond, MaintenanceMBPerSecond);
            yield return Setting(Contract.CalculatorFields.DatabaseReadsPerSecond, DatabaseReadsPerSecond);
            yield return Setting(Contract.CalculatorFields.DatabaseWritesPerSecond, DatabaseWritesPerSecond);
            yield return Setting(Contract.CalculatorFields.LogWritesPerSecond, LogWritesPerSecond);
            yield return Setting(Contract.CalculatorFields.LogReadsPerSecond, LogReadsPerSecond);
            yield return Setting(Contract.CalculatorFields.DatabaseCachePerMailboxMB, DatabaseCachePerMailboxMB);
            yield return Setting(Contract.CalculatorFields.Servers, Servers);
        }

        private static KeyValuePair<string, object?> Setting(string name, object? value) => new KeyValuePair<string, object?>(name, value);

        public override string ToString() =>
            string.Format(System.Globalization.CultureInfo.InvariantCulture, "{0} {1}: {2:0.###} database IOPS, {3:0.###} log IOPS per server", Calculator, Version, DatabaseIops, LogIops);
    }

    /// <summary>
    /// One server's own databases (PSTypeName ExchStorageTest.ServerLayout): where a design's servers hold different
    /// databases (the calculator's Servers.csv DbMap), the host whose machine name is <see cref="Name"/> tests these
    /// paths instead of the profile's. Its rules are the profile's (<see cref="Contract.ProfileRules"/>).
    /// </summary>
    public sealed class ServerLayout
    {
        /// <summary>The server's name: matched against the machine name of the host that runs the test (case ignored, first DNS label).</summary>
        public string Name { get; set; } = "";
        /// <summary>One root or one folder per database, as the profile's DatabasePaths.</summary>
        public string[] DatabasePaths { get; set; } = Array.Empty<string>();
        /// <summary>None, one root or one folder per database, as the profile's LogPaths.</summary>
        public string[] LogPaths { get; set; } = Array.Empty<string>();

        /// <summary>The layout by its field names (<see cref="Contract.ServerLayoutFields"/>).</summary>
        public IEnumerable<KeyValuePair<string, object?>> Settings()
        {
            yield return new KeyValuePair<string, object?>(Contract.ServerLayoutFields.Name, Name);
            yield return new KeyValuePair<string, object?>(Contract.ServerLayoutFields.DatabasePaths, DatabasePaths);
            yield return new KeyValuePair<string, object?>(Contract.ServerLayoutFields.LogPaths, LogPaths);
        }

        /// <summary>
        /// Whether <paramref name="machineName"/> is this server: names compare without case, and only their first DNS
        /// label (the calculator names servers, a host may report its FQDN, Windows its NetBIOS name in capitals).
        /// </summary>
        public bool Is(string? machineName) =>
            machineName != null && string.Equals(ShortName(Name), ShortName(machineName), StringComparison.OrdinalIgnoreCase);

        private static string ShortName(string name)
        {
            string trimmed = name.Trim();
            int dot = trimmed.IndexOf('.');
            return dot > 0 ? trimmed.Substring(0, dot) : trimmed;
        }

        public override string ToString() => Name;
    }
}
