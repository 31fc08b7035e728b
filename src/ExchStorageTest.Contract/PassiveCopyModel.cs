using System;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// What the passive database copies on a volume add to its I/O, defined once (docs/load-model.md, "Passive copies
    /// on a volume", cites each figure and marks which are this project's model rather than Exchange's measured I/O).
    /// Each active database of a profile has <see cref="PassivePerDatabase"/> passive copies beside it on its volume, each
    /// driven by that database's own activity as the run measures it.
    /// </summary>
    public static class PassiveCopyModel
    {
        /// <summary>
        /// A passive copy's replay database I/O as a share of its active copy's transactional database I/O: "IOPS for a
        /// passive copy is about 50 percent of the active copy IOPS in Exchange 2013" (Microsoft's storage guidance).
        /// </summary>
        public const double ReplayShareOfActiveIops = 0.5;

        /// <summary>
        /// The copied log is written in whole log generations: the passive copy builds its own log file from the shipped
        /// log buffer (block mode) and writes it as one 1 MiB write per generation. The write size is our model.
        /// </summary>
        public const int CopiedLogWriteBytes = 1024 * 1024;

        /// <summary>A replay read is one 32 KiB page (no user reads; our model: no prefetch coalescing).</summary>
        public const int ReplayReadBytes = 32 * 1024;

        /// <summary>The passive copies beside each active database (lagged ones included); 0 in the Jetstress model.</summary>
        public static int PassivePerDatabase(MailboxProfile p) =>
            p.ActiveCopiesPerVolume <= 0 ? 0 : Math.Max(0, p.CopiesPerVolume - p.ActiveCopiesPerVolume) / p.ActiveCopiesPerVolume;

        /// <summary>Of <see cref="PassivePerDatabase"/>, the lagged ones: they write the copied log and hold it, replaying nothing.</summary>
        public static int LaggedPerDatabase(MailboxProfile p) =>
            p.ActiveCopiesPerVolume <= 0 ? 0 : Math.Min(p.LaggedCopiesPerVolume / p.ActiveCopiesPerVolume, PassivePerDatabase(p));

        /// <summary>The passive copies beside each active database that replay their log.</summary>
        public static int ReplayingPerDatabase(MailboxProfile p) => PassivePerDatabase(p) - LaggedPerDatabase(p);

        /// <summary>Which Exchange a run of <paramref name="p"/> models: the Preferred Architecture when passive copies are on its volumes.</summary>
        public static ModelledExchange Modelled(MailboxProfile p) =>
            PassivePerDatabase(p) > 0 ? ModelledExchange.PreferredArchitecture2019 : ModelledExchange.Jetstress;

        /// <summary>
        /// One replaying passive copy's database writes per second, for an active copy making <paramref name="activeWrites"/>:
        /// the same pages modified, written back as the active's are (our split of Microsoft's 50%).
        /// </summary>
        public static double ReplayWrites(double activeReads, double activeWrites) =>
            Math.Min(activeWrites, ReplayShareOfActiveIops * (activeReads + activeWrites));

        /// <summary>One replaying passive copy's database reads per second: the rest of the 50% after its writes.</summary>
        public static double ReplayReads(double activeReads, double activeWrites) =>
            Math.Max(0, ReplayShareOfActiveIops * (activeReads + activeWrites) - ReplayWrites(activeReads, activeWrites));

        /// <summary>
        /// The database IOPS a volume carries per unit of its active databases' transactional IOPS: 1 in the Jetstress
        /// model, 2.5 with 4 copies and 1 active. Storage limited by its database IOPS carries 1 / this many of the
        /// mailboxes a Jetstress-shaped test gives it.
        /// </summary>
        public static double DatabaseIopsFactor(MailboxProfile p) => 1 + ReplayingPerDatabase(p) * ReplayShareOfActiveIops;

        /// <summary>
        /// The mailboxes storage carries with the profile's passive copies on its volumes, when a test without them (the
        /// Jetstress model) found it carries <paramref name="mailboxesWithoutPassiveCopies"/> and its database IOPS are what
        /// limits it: 1,000 of 2,500 with 4 copies and 1 active. Whole mailboxes, rounded down.
        /// </summary>
        public static int MailboxesCarried(int mailboxesWithoutPassiveCopies, MailboxProfile p) =>
            (int)Math.Floor(mailboxesWithoutPassiveCopies / DatabaseIopsFactor(p) + 1e-9);

        /// <summary>The copied log bytes a volume carries per byte its active databases log: 1 + every passive copy's.</summary>
        public static double LogBytesFactor(MailboxProfile p) => 1 + PassivePerDatabase(p);
    }
}
