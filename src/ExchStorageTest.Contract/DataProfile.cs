using System;
using System.Globalization;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// What the database pages hold, as a data-reducing array sees it: the share of each page's content a
    /// general compressor removes, and the share of the file's <see cref="BlockBytes"/> blocks that repeat another block.
    /// The default (0, 0) is incompressible, unique pages: the worst case for an array that compresses or deduplicates,
    /// and what every database was before the profile existed. Recorded in each database's header, so a database is only
    /// re-used or attached by a run that asks for the data it holds.
    /// </summary>
    /// <remarks>
    /// Duplicates are counted in 4 KiB blocks, the block most arrays deduplicate (4 to 32 KiB); all-flash arrays that
    /// deduplicate 512-byte sectors find the same share, since every sector of a unique block holds random bytes of its
    /// own (the engine's DatabaseContent lays each sector out as random bytes then the compressible run). The first block of each page carries the
    /// page's identity and checksum and is never a duplicate, so at most 7 of a page's 8 blocks can be; the rule stops at 75%.
    /// Arrays deduplicate first and compress what is left: together the two targets reduce the data about
    /// 1 / ((1 - compressibility) x (1 - duplicates)) to 1.
    /// </remarks>
    public readonly struct DataProfile : IEquatable<DataProfile>
    {
        /// <summary>The block duplicates are counted in, and each page's content is laid out by.</summary>
        public const int BlockBytes = 4096;

        /// <summary>Incompressible, unique pages.</summary>
        public static readonly DataProfile Default = new DataProfile(0, 0);

        public DataProfile(int compressibilityPercent, int duplicatePercent)
        {
            CompressibilityPercent = compressibilityPercent;
            DuplicatePercent = duplicatePercent;
        }

        /// <summary>The share (0-90) of each page's content bytes a general compressor removes: 50 is about 2:1.</summary>
        public int CompressibilityPercent { get; }

        /// <summary>The share (0-75) of the database file's 4 KiB blocks that repeat another block.</summary>
        public int DuplicatePercent { get; }

        public bool IsDefault => CompressibilityPercent == 0 && DuplicatePercent == 0;

        /// <summary>The reduction an array that deduplicates and compresses would reach: 1 for the default.</summary>
        public double ReductionRatio => 1.0 / ((1 - CompressibilityPercent / 100.0) * (1 - DuplicatePercent / 100.0));

        /// <summary>The assumption in words, as every report and -Verbose states it.</summary>
        public string Describe() => IsDefault
            ? "incompressible, unique pages (the worst case for data-reducing arrays)"
            : string.Format(CultureInfo.InvariantCulture,
                "{0}% compressible, {1}% duplicate {2} KiB blocks and 512-byte sectors (about {3:0.0}:1 on an array that deduplicates and compresses)",
                CompressibilityPercent, DuplicatePercent, BlockBytes / 1024, ReductionRatio);

        public bool Equals(DataProfile other) => CompressibilityPercent == other.CompressibilityPercent && DuplicatePercent == other.DuplicatePercent;
        public override bool Equals(object? obj) => obj is DataProfile other && Equals(other);
        public override int GetHashCode() => CompressibilityPercent * 397 ^ DuplicatePercent;
        public static bool operator ==(DataProfile a, DataProfile b) => a.Equals(b);
        public static bool operator !=(DataProfile a, DataProfile b) => !a.Equals(b);
        public override string ToString() => Describe();
    }
}
