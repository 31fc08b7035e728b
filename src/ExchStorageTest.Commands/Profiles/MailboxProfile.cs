using System;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// The simulated deployment whose storage load a test generates (PSTypeName ExchStorageTest.MailboxProfile).
    /// Settings can be changed on the object; derived figures are always computed from them, and every command
    /// that takes a profile validates it again, so a changed value is checked before it is used.
    /// </summary>
    public sealed class MailboxProfile
    {
        public string Name { get; set; } = "MailboxProfile";
        public string Description { get; set; } = "";
        public int MailboxCount { get; set; }
        /// <summary>The tested IOPS per mailbox, as in Jetstress: already including the usual 20% headroom.</summary>
        public double IopsPerMailbox { get; set; }
        /// <summary>Extra headroom on top of <see cref="IopsPerMailbox"/>, in percent.</summary>
        public double HeadroomPercent { get; set; }
        public double TargetIops => Math.Round(MailboxCount * IopsPerMailbox * (1 + HeadroomPercent / 100), 3);
        public long MailboxSizeMB { get; set; }
        public int DatabaseCount { get; set; } = 1;
        public int MailboxesPerDatabase => DatabaseCount <= 0 ? 0 : (int)Math.Ceiling(MailboxCount / (double)DatabaseCount);
        public double DatabaseSizeMB => DatabaseCount <= 0 ? 0 : Math.Round(TotalCapacityMB / DatabaseCount, 2);
        public double TotalCapacityMB => (double)MailboxCount * MailboxSizeMB;
        public int CopiesPerDatabase { get; set; } = 1;
        public string[] DatabasePaths { get; set; } = Array.Empty<string>();
        public string[] LogPaths { get; set; } = Array.Empty<string>();
        /// <summary>Fixed session count; null for automatic tuning.</summary>
        public int? ThreadCount { get; set; }
        public bool BackgroundMaintenance { get; set; } = true;
        public long MinimumDatabaseCacheMB { get; set; } = 128;
        public long MaximumDatabaseCacheMB { get; set; } = 1024;

        /// <summary>The profile as the helper's request and the saved profile file spell it (docs/protocol.md): settings only.</summary>
        internal JsonObject ToJson() => new JsonObject()
            .Set("name", Name)
            .Set("description", Description)
            .Set("mailboxCount", MailboxCount)
            .Set("iopsPerMailbox", IopsPerMailbox)
            .Set("headroomPercent", HeadroomPercent)
            .Set("mailboxSizeMB", MailboxSizeMB)
            .Set("databaseCount", DatabaseCount)
            .Set("copiesPerDatabase", CopiesPerDatabase)
            .Set("databasePaths", DatabasePaths)
            .Set("logPaths", LogPaths)
            .Set("threadCount", ThreadCount)
            .Set("backgroundMaintenance", BackgroundMaintenance)
            .Set("minimumDatabaseCacheMB", MinimumDatabaseCacheMB)
            .Set("maximumDatabaseCacheMB", MaximumDatabaseCacheMB);

        public override string ToString() => Name;
    }
}
