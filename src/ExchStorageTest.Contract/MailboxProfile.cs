using System;
using System.Collections.Generic;
using ExchStorageTest.Contract;

namespace ExchStorageTest
{
    /// <summary>
    /// The simulated Exchange deployment whose storage load a test generates: what New-MailboxProfile returns
    /// (PSTypeName ExchStorageTest.MailboxProfile, hence this namespace), what a request's <c>profile</c> and a saved
    /// profile file hold, and what the engine plans from. One type for both halves, so the defaults and the sizing
    /// math cannot drift apart; its rules are <see cref="ProfileRules"/>. Settings can be changed on the object:
    /// derived figures are always computed from them, and every command that takes a profile checks it again.
    /// </summary>
    public sealed class MailboxProfile
    {
        /// <summary>The name a profile gets when none is given (New-MailboxProfile documents it).</summary>
        public const string DefaultName = "MailboxProfile";

        public string Name { get; set; } = DefaultName;
        public string Description { get; set; } = "";
        public int MailboxCount { get; set; }
        /// <summary>The tested IOPS per mailbox, as in Jetstress: already including the usual 20% headroom.</summary>
        public double IopsPerMailbox { get; set; }
        /// <summary>Extra headroom on top of <see cref="IopsPerMailbox"/>, in percent.</summary>
        public double HeadroomPercent { get; set; }
        public long MailboxSizeMB { get; set; }
        public int DatabaseCount { get; set; } = 1;
        public int CopiesPerDatabase { get; set; } = 1;
        /// <summary>
        /// Database copies on each volume, active and passive (docs/load-model.md, "Passive copies on a volume"). 1 with
        /// one active: the Jetstress model, no passive copy on the storage.
        /// </summary>
        public int CopiesPerVolume { get; set; } = 1;
        /// <summary>Of <see cref="CopiesPerVolume"/>, the active ones: the profile's own databases.</summary>
        public int ActiveCopiesPerVolume { get; set; } = 1;
        /// <summary>Of the passive copies on a volume, those whose replay is lagged: they receive the log and hold it.</summary>
        public int LaggedCopiesPerVolume { get; set; }
        /// <summary>One root (every database in its own sub-folder) or one folder per database.</summary>
        public PathList DatabasePaths { get; set; } = new PathList();
        /// <summary>None (logs next to each database), one root, or one folder per database.</summary>
        public PathList LogPaths { get; set; } = new PathList();
        /// <summary>Sessions (Jetstress "threads"); null for automatic tuning.</summary>
        public int? ThreadCount { get; set; }
        public bool BackgroundMaintenance { get; set; } = true;
        public long MinimumDatabaseCacheMB { get; set; } = 128;
        public long MaximumDatabaseCacheMB { get; set; } = 1024;
        /// <summary>
        /// Per-server databases where a design's servers hold different ones (the calculator's Servers.csv): the host
        /// whose machine name is one of these tests that server's paths instead of <see cref="DatabasePaths"/> and
        /// <see cref="LogPaths"/>, and a host that is none of them is refused (ServerLayoutNotFound). Empty: every host
        /// tests the profile's own paths.
        /// </summary>
        public ServerLayout[] Servers { get; set; } = Array.Empty<ServerLayout>();
        /// <summary>The sizing calculator's figures this profile was built from (New-MailboxProfile -CalculatorPath); null otherwise. A run is judged against them too.</summary>
        public CalculatorTargets? Calculator { get; set; }
        /// <summary>The PerfMon capture's busiest hour and the target made of it (New-MailboxProfile -CapturePath); null otherwise. A run is judged against it too.</summary>
        public CaptureTargets? Capture { get; set; }

        /// <summary>Target transactional IOPS = mailboxes x IOPS per mailbox x (1 + headroom), to 3 decimals.</summary>
        public double TargetIops => Math.Round(MailboxCount * IopsPerMailbox * (1 + HeadroomPercent / 100.0), 3);

        public int MailboxesPerDatabase => DatabaseCount <= 0 ? 0 : (int)Math.Ceiling(MailboxCount / (double)DatabaseCount);

        /// <summary>Every mailbox at its quota: mailboxes x MailboxSizeMB.</summary>
        public double TotalCapacityMB => (double)MailboxCount * MailboxSizeMB;

        /// <summary>The total capacity split evenly over the databases.</summary>
        public double DatabaseSizeMB => DatabaseCount <= 0 ? 0 : Math.Round(TotalCapacityMB / DatabaseCount, 2);

        /// <summary>The same in bytes, as the engine sizes each database file (before rounding down to whole pages).</summary>
        public long DatabaseSizeBytes => DatabaseCount <= 0 ? 0 : (long)MailboxCount * MailboxSizeMB * 1024 * 1024 / DatabaseCount;

        /// <summary>The settings by their field names (<see cref="ProfileFields"/>): what a request and a saved profile file hold, derived figures left out.</summary>
        public IEnumerable<KeyValuePair<string, object?>> Settings()
        {
            yield return Setting(ProfileFields.Name, Name);
            yield return Setting(ProfileFields.Description, Description);
            yield return Setting(ProfileFields.MailboxCount, MailboxCount);
            yield return Setting(ProfileFields.IopsPerMailbox, IopsPerMailbox);
            yield return Setting(ProfileFields.HeadroomPercent, HeadroomPercent);
            yield return Setting(ProfileFields.MailboxSizeMB, MailboxSizeMB);
            yield return Setting(ProfileFields.DatabaseCount, DatabaseCount);
            yield return Setting(ProfileFields.CopiesPerDatabase, CopiesPerDatabase);
            yield return Setting(ProfileFields.CopiesPerVolume, CopiesPerVolume);
            yield return Setting(ProfileFields.ActiveCopiesPerVolume, ActiveCopiesPerVolume);
            yield return Setting(ProfileFields.LaggedCopiesPerVolume, LaggedCopiesPerVolume);
            yield return Setting(ProfileFields.DatabasePaths, DatabasePaths);
            yield return Setting(ProfileFields.LogPaths, LogPaths);
            yield return Setting(ProfileFields.ThreadCount, ThreadCount);
            yield return Setting(ProfileFields.BackgroundMaintenance, BackgroundMaintenance);
            yield return Setting(ProfileFields.MinimumDatabaseCacheMB, MinimumDatabaseCacheMB);
            yield return Setting(ProfileFields.MaximumDatabaseCacheMB, MaximumDatabaseCacheMB);
            yield return Setting(ProfileFields.Servers, Servers);
            yield return Setting(ProfileFields.Calculator, Calculator);
            yield return Setting(ProfileFields.Capture, Capture);
        }

        /// <summary>
        /// The profile as the host named <paramref name="machineName"/> tests it: that server's paths when
        /// <see cref="Servers"/> names it (the list then holds it alone, so results say which server a host was), the
        /// profile itself when the list is empty, and null when the list names other servers only.
        /// </summary>
        public MailboxProfile? ForServer(string? machineName)
        {
            if (Servers == null || Servers.Length == 0) return this;
            ServerLayout? own = Array.Find(Servers, s => s != null && s.Is(machineName));
            if (own == null) return null;
            var copy = (MailboxProfile)MemberwiseClone();
            copy.DatabasePaths = own.DatabasePaths;
            copy.LogPaths = own.LogPaths;
            copy.Servers = new[] { own };
            return copy;
        }

        /// <summary>
        /// The same profile on other folders: a host's own paths in a multi-host run, or the databases piped from
        /// Get-MailboxDatabase (whose count the caller sets). Every other setting is kept; the copy is a new object, so
        /// the caller's profile is never changed. Callers check it again (<see cref="ProfileRules.Check"/>).
        /// </summary>
        public MailboxProfile WithPaths(string[] databasePaths, string[] logPaths)
        {
            var copy = (MailboxProfile)MemberwiseClone();
            copy.DatabasePaths = new PathList(databasePaths);
            copy.LogPaths = new PathList(logPaths);
            return copy;
        }

        private static KeyValuePair<string, object?> Setting(string name, object? value) => new KeyValuePair<string, object?>(name, value);

        public override string ToString() => Name;
    }
}
