using System;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// A reseed during the load (docs/failure-mode.md, "A reseed during the load"): at a failure-mode window's start the
    /// engine streams a whole copy of one of the run's databases onto a spare folder, as AutoReseed seeds a database copy
    /// onto a spare volume while the server's other copies carry their load. The one setting (ReseedPath), its rules and
    /// the model's figures, defined once for the module and the engine.
    /// </summary>
    public static class ReseedRules
    {
        /// <summary>
        /// The rate the seed is paced at: the line rate of a 1 Gb/s replication network (125,000,000 bytes a second). Our
        /// model, not a figure Exchange publishes: Update-MailboxDatabaseCopy takes no rate (only -NoThrottle and
        /// -MaximumSeedsInParallel), and a seed is reported to run as fast as the network between the servers carries it
        /// (600 GB in about 13 hours over 100 Mb/s, slowed only by an OS QoS policy on msexchangerepl.exe). A faster
        /// network, or several seeds at once (AutoReseed reseeds every copy of a failed disk), load the storage more.
        /// </summary>
        public const double TargetBytesPerSecond = 125000000;

        /// <summary>
        /// The seed's reads of the source database and writes to the spare: large and sequential, 256 KiB each — the
        /// engine's model of a backup read of the database (DatabaseBackup), which the seed's source side is: Exchange
        /// seeds through the database's streaming backup interface.
        /// </summary>
        public const int IoSizeBytes = 256 * 1024;

        /// <summary>The copy's file name on the spare folder: the run's own, so it never overwrites a file the run did not create.</summary>
        public static string TargetFileName(string testId) => "ExchStorageTest-Reseed-" + testId + ".edb";

        /// <summary>A reseed streams during a failure-mode window: ReseedPath needs FaultAt. Null when the request is well formed.</summary>
        public static Violation? Check(string? reseedPath, double? faultAtSeconds)
        {
            if (string.IsNullOrWhiteSpace(reseedPath) || faultAtSeconds.HasValue) return null;
            return new Violation(ErrorCodes.ReseedPathInvalid,
                "ReseedPath needs FaultAt: the reseed streams during a failure-mode window, from its start until the copy is complete or the window ends.", reseedPath);
        }
    }
}
