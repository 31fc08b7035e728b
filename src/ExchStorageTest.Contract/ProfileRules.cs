using System;
using System.Linq;
using System.Text.RegularExpressions;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The rules of a mailbox profile, defined once: New-MailboxProfile checks them without an engine (it only
    /// computes sizes), every cmdlet that takes a profile checks them again, and the engine's plan checks them on
    /// the profile of every request. <see cref="Check"/> answers with the first rule broken, in a fixed order, so
    /// the same profile gets the same code from either half.
    /// </summary>
    public static class ProfileRules
    {
        public const int NameMaxLength = 64;
        public const int DescriptionMaxLength = 1024;

        private static readonly Regex NamePattern = new Regex("^[A-Za-z0-9][A-Za-z0-9 ._-]{0," + (NameMaxLength - 1) + "}$", RegexOptions.CultureInvariant);

        public static readonly NumberRule MailboxCount = new NumberRule("MailboxCount", Field(ProfileFields.MailboxCount), ErrorCodes.MailboxCountOutOfRange, 1, 1_000_000, integer: true);
        public static readonly NumberRule IopsPerMailbox = new NumberRule("IopsPerMailbox", Field(ProfileFields.IopsPerMailbox), ErrorCodes.IopsPerMailboxOutOfRange, 0, 100,
            exclusiveMinimum: true, hint: "the tested IOPS per mailbox, for example 0.12");
        public static readonly NumberRule HeadroomPercent = new NumberRule("HeadroomPercent", Field(ProfileFields.HeadroomPercent), ErrorCodes.HeadroomOutOfRange, 0, 1000);
        public static readonly NumberRule MailboxSizeMB = new NumberRule("MailboxSizeMB", Field(ProfileFields.MailboxSizeMB), ErrorCodes.MailboxSizeOutOfRange, 1, 1_048_576,
            integer: true, hint: "megabytes per mailbox, up to 1 TB");
        public static readonly NumberRule DatabaseCount = new NumberRule("DatabaseCount", Field(ProfileFields.DatabaseCount), ErrorCodes.DatabaseCountOutOfRange, 1, 256,
            integer: true, hint: "the engine simulates at most 256 databases per host");
        public static readonly NumberRule CopiesPerDatabase = new NumberRule("CopiesPerDatabase", Field(ProfileFields.CopiesPerDatabase), ErrorCodes.CopiesOutOfRange, 1, 16,
            integer: true, hint: "a database availability group holds at most 16 copies");
        public static readonly NumberRule CopiesPerVolume = new NumberRule("CopiesPerVolume", Field(ProfileFields.CopiesPerVolume), ErrorCodes.CopiesPerVolumeOutOfRange, 1, 16,
            integer: true, hint: "the database copies on each volume, active and passive; the Preferred Architecture puts up to 4 on a disk");
        public static readonly NumberRule ActiveCopiesPerVolume = new NumberRule("ActiveCopiesPerVolume", Field(ProfileFields.ActiveCopiesPerVolume), ErrorCodes.ActiveCopiesPerVolumeOutOfRange, 1, 16,
            integer: true, hint: "the active copies (the profile's own databases) on each volume; the Preferred Architecture has 1");
        public static readonly NumberRule LaggedCopiesPerVolume = new NumberRule("LaggedCopiesPerVolume", Field(ProfileFields.LaggedCopiesPerVolume), ErrorCodes.LaggedCopiesPerVolumeOutOfRange, 0, 15,
            integer: true, hint: "the passive copies on each volume whose replay is lagged");
        public static readonly NumberRule ThreadCount = new NumberRule("ThreadCount", Field(ProfileFields.ThreadCount), ErrorCodes.ThreadCountOutOfRange, 1, 1024,
            integer: true, hint: "omit it for automatic tuning");
        public static readonly NumberRule MinimumDatabaseCacheMB = new NumberRule("MinimumDatabaseCacheMB", Field(ProfileFields.MinimumDatabaseCacheMB), ErrorCodes.CacheSizeInvalid, 1, 1_048_576, integer: true);
        public static readonly NumberRule MaximumDatabaseCacheMB = new NumberRule("MaximumDatabaseCacheMB", Field(ProfileFields.MaximumDatabaseCacheMB), ErrorCodes.CacheSizeInvalid, 1, 1_048_576, integer: true);

        /// <summary>Every number rule of a profile, for readers that meet the values one by one.</summary>
        public static readonly NumberRule[] Numbers =
        {
            MailboxCount, IopsPerMailbox, HeadroomPercent, MailboxSizeMB, DatabaseCount, CopiesPerDatabase, CopiesPerVolume, ActiveCopiesPerVolume, LaggedCopiesPerVolume,
            ThreadCount, MinimumDatabaseCacheMB, MaximumDatabaseCacheMB,
        };

        /// <summary>The first rule <paramref name="p"/> breaks, or null when it keeps them all.</summary>
        public static Violation? Check(MailboxProfile p)
        {
            return CheckName(p.Name)
                ?? CheckDescription(p.Description)
                ?? MailboxCount.Check(p.MailboxCount)
                ?? IopsPerMailbox.Check(p.IopsPerMailbox)
                ?? HeadroomPercent.Check(p.HeadroomPercent)
                ?? MailboxSizeMB.Check(p.MailboxSizeMB)
                ?? DatabaseCount.Check(p.DatabaseCount)
                ?? CheckDatabasesHoldMailboxes(p)
                ?? CopiesPerDatabase.Check(p.CopiesPerDatabase)
                ?? ActiveCopiesPerVolume.Check(p.ActiveCopiesPerVolume)
                ?? CheckCopiesPerVolume(p)
                ?? CheckLaggedCopiesPerVolume(p)
                ?? ThreadCount.Check(p.ThreadCount)
                ?? MinimumDatabaseCacheMB.Check(p.MinimumDatabaseCacheMB)
                ?? MaximumDatabaseCacheMB.Check(p.MaximumDatabaseCacheMB)
                ?? CheckCacheOrder(p)
                ?? CheckPaths(p)
                ?? CheckServers(p);
        }

        public static Violation? CheckName(string? name) =>
            name != null && NamePattern.IsMatch(name) ? null
            : new Violation(ErrorCodes.ProfileNameInvalid, $"Name '{name}' is not valid: a profile name must be 1 to {NameMaxLength} characters of letters, digits, spaces, '.', '_' or '-', starting with a letter or digit.", name);

        public static Violation? CheckDescription(string? description) =>
            (description ?? "").Length <= DescriptionMaxLength ? null
            : new Violation(ErrorCodes.DescriptionTooLong, $"Description is {description!.Length} characters long: it must be at most {DescriptionMaxLength} characters.");

        /// <summary>Every database holds at least one mailbox.</summary>
        public static Violation? CheckDatabasesHoldMailboxes(MailboxProfile p) =>
            p.DatabaseCount <= p.MailboxCount ? null
            : new Violation(ErrorCodes.DatabaseCountOutOfRange, $"DatabaseCount '{p.DatabaseCount}' is not valid: it must not exceed MailboxCount ({p.MailboxCount}), because every database holds at least one mailbox.", Show(p.DatabaseCount));

        /// <summary>
        /// The copies on a volume: at least its active ones, and a whole number of passive copies beside each active
        /// database (the engine places them so: docs/load-model.md); passive copies are copies of replicated databases.
        /// </summary>
        public static Violation? CheckCopiesPerVolume(MailboxProfile p)
        {
            if (CopiesPerVolume.Check(p.CopiesPerVolume) is Violation bad) return bad;
            int copies = p.CopiesPerVolume, active = p.ActiveCopiesPerVolume;
            string shown = Show(copies);
            if (copies < active)
                return new Violation(ErrorCodes.CopiesPerVolumeOutOfRange, $"CopiesPerVolume '{copies}' is not valid: a volume's copies include its active ones, so it must be at least ActiveCopiesPerVolume ({active}).", shown);
            if (copies % active != 0)
                return new Violation(ErrorCodes.CopiesPerVolumeOutOfRange, $"CopiesPerVolume '{copies}' is not valid: it must be a multiple of ActiveCopiesPerVolume ({active}), so that each active database has the same number of passive copies beside it.", shown);
            if (copies > active && p.CopiesPerDatabase < 2)
                return new Violation(ErrorCodes.CopiesPerVolumeOutOfRange, $"CopiesPerVolume '{copies}' is not valid with CopiesPerDatabase 1: passive copies on a volume are copies of replicated databases, so give CopiesPerDatabase 2 or more (the Preferred Architecture has 4).", shown);
            return null;
        }

        /// <summary>Lagged copies are some of the volume's passive copies, spread evenly over its active databases.</summary>
        public static Violation? CheckLaggedCopiesPerVolume(MailboxProfile p)
        {
            if (LaggedCopiesPerVolume.Check(p.LaggedCopiesPerVolume) is Violation bad) return bad;
            int lagged = p.LaggedCopiesPerVolume, passive = p.CopiesPerVolume - p.ActiveCopiesPerVolume;
            string shown = Show(lagged);
            if (lagged > passive)
                return new Violation(ErrorCodes.LaggedCopiesPerVolumeOutOfRange, $"LaggedCopiesPerVolume '{lagged}' is not valid: a lagged copy is a passive one, and the volume has {passive} passive copies (CopiesPerVolume {p.CopiesPerVolume} less ActiveCopiesPerVolume {p.ActiveCopiesPerVolume}).", shown);
            if (lagged % p.ActiveCopiesPerVolume != 0)
                return new Violation(ErrorCodes.LaggedCopiesPerVolumeOutOfRange, $"LaggedCopiesPerVolume '{lagged}' is not valid: it must be a multiple of ActiveCopiesPerVolume ({p.ActiveCopiesPerVolume}), so that each active database has the same number of lagged copies beside it.", shown);
            return null;
        }

        private static Violation? CheckCacheOrder(MailboxProfile p) =>
            p.MaximumDatabaseCacheMB >= p.MinimumDatabaseCacheMB ? null
            : new Violation(ErrorCodes.CacheSizeInvalid, $"MaximumDatabaseCacheMB '{p.MaximumDatabaseCacheMB}' is not valid: it must be at least MinimumDatabaseCacheMB ({p.MinimumDatabaseCacheMB}).", Show(p.MaximumDatabaseCacheMB));

        /// <summary>One root (each database in its own sub-folder) or one folder per database; logs: none (beside each database), one root, or one per database; all absolute.</summary>
        private static Violation? CheckPaths(MailboxProfile p) => CheckPaths(p.DatabasePaths, p.LogPaths, p.DatabaseCount, "The profile");

        /// <summary>The same rules for the paths of <paramref name="owner"/> (the profile, or one of its servers).</summary>
        private static Violation? CheckPaths(string[]? databasePaths, string[]? logPaths, int databaseCount, string owner)
        {
            string[] databases = databasePaths ?? Array.Empty<string>();
            string[] logs = logPaths ?? Array.Empty<string>();
            string whose = owner == "The profile" ? "" : " for t" + owner.Substring(1);
            if (databases.Length == 0)
                return new Violation(ErrorCodes.DatabasePathMissing, $"{owner} has no database path: give one root folder (each database gets a sub-folder) or one folder per database.");
            if (databases.Length != 1 && databases.Length != databaseCount)
                return new Violation(ErrorCodes.PathCountMismatch, $"{databases.Length} database paths were given{whose} for {databaseCount} databases: give one root folder or exactly one folder per database.");
            if (logs.Length > 1 && logs.Length != databaseCount)
                return new Violation(ErrorCodes.PathCountMismatch, $"{logs.Length} log paths were given{whose} for {databaseCount} databases: give none (logs next to each database), one root folder, or exactly one folder per database.");
            string? relative = databases.Concat(logs).FirstOrDefault(path => !IsAbsolute(path));
            return relative == null ? null
                : new Violation(ErrorCodes.PathNotAbsolute, $"The path '{relative}' is not valid: database and log paths must be absolute (for example D:\\ExchangeDatabases or /mnt/db).", relative);
        }

        /// <summary>Each per-server layout: a name of its own, and paths by the profile's rules for its database count.</summary>
        public static Violation? CheckServers(MailboxProfile p)
        {
            var seen = new System.Collections.Generic.HashSet<string>(StringComparer.OrdinalIgnoreCase);
            foreach (ServerLayout? server in p.Servers ?? Array.Empty<ServerLayout>())
            {
                if (server == null || string.IsNullOrWhiteSpace(server.Name))
                    return new Violation(ErrorCodes.ServerLayoutInvalid, "A server of the profile's Servers has no name: each names the host (its machine name) that tests its databases.");
                if (!seen.Add(server.Name.Trim()))
                    return new Violation(ErrorCodes.ServerLayoutInvalid, $"The server '{server.Name}' is in the profile's Servers twice: give each server once.", server.Name);
                if (CheckPaths(server.DatabasePaths, server.LogPaths, p.DatabaseCount, $"The server '{server.Name}'") is Violation bad) return bad;
            }
            return null;
        }

        /// <summary>
        /// Absolute on either OS: a profile may be planned on one for hosts of the other (D:\DB on Linux, /mnt/db on
        /// Windows), so this is not the local Path.IsPathRooted.
        /// </summary>
        public static bool IsAbsolute(string? path) =>
            path != null && (path.StartsWith("/", StringComparison.Ordinal) || path.StartsWith("\\\\", StringComparison.Ordinal)
            || (path.Length >= 3 && char.IsLetter(path[0]) && path[1] == ':' && (path[2] == '\\' || path[2] == '/')));

        private static string Field(string name) => RequestFields.Profile + "." + name;

        private static string Show(long value) => value.ToString(System.Globalization.CultureInfo.InvariantCulture);
    }
}
