using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System.Text.RegularExpressions;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;

namespace ExchStorageTest.Profiles
{
    /// <summary>
    /// The one gate for every way a profile arrives: New-MailboxProfile's parameters, a saved profile file,
    /// a profile object (changed or not), one deserialized from a job or a remote session, or a
    /// JetstressConfig.xml import. It stops at the first problem with a stable ErrorId and a message naming
    /// the value and the rule; it writes nothing.
    /// </summary>
    internal static class ProfileReader
    {
        private static readonly Regex NamePattern = new Regex("^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$", RegexOptions.CultureInvariant);

        public static MailboxProfile Read(object? input)
        {
            input = SettingSource.Unwrap(input);
            if (input == null || input is string || input is ValueType || input is Array)
                throw StorageTestException.InvalidArgument("ProfileInvalid", "The profile must be an object with profile settings (from New-MailboxProfile or a saved profile file).", input);
            if (input is MailboxProfile typed) input = PSObject.AsPSObject(typed);
            var source = SettingSource.From(input);

            string name = Convert.ToString(source.Get("MailboxProfile", "Name"), System.Globalization.CultureInfo.InvariantCulture) ?? "";
            if (!NamePattern.IsMatch(name))
                throw StorageTestException.InvalidArgument("InvalidProfileName", $"Name '{name}' is not valid: a profile name must be 1 to 64 characters of letters, digits, spaces, '.', '_' or '-', starting with a letter or digit.", name);
            string description = Convert.ToString(source.Get("", "Description"), System.Globalization.CultureInfo.InvariantCulture) ?? "";
            if (description.Length > 1024)
                throw StorageTestException.InvalidArgument("InvalidDescription", $"Description is {description.Length} characters long: it must be at most 1024 characters.", description);

            var profile = new MailboxProfile { Name = name, Description = description };
            profile.MailboxCount = (int)new NumberRule("MailboxCount", 1, 1_000_000, "InvalidMailboxCount", integer: true).Check(source.Get(null, "MailboxCount"));
            profile.IopsPerMailbox = new NumberRule("IopsPerMailbox", 0, 100, "InvalidIopsPerMailbox", exclusiveMinimum: true, hint: "the tested IOPS per mailbox, for example 0.12").Check(source.Get(null, "IopsPerMailbox"));
            profile.HeadroomPercent = new NumberRule("HeadroomPercent", 0, 1000, "InvalidHeadroomPercent").Check(source.Get(0.0, "HeadroomPercent"));
            profile.MailboxSizeMB = (long)new NumberRule("MailboxSizeMB", 1, 1_048_576, "InvalidMailboxSize", integer: true, hint: "megabytes per mailbox, up to 1 TB").Check(source.Get(null, "MailboxSizeMB"));
            profile.DatabaseCount = (int)new NumberRule("DatabaseCount", 1, 256, "InvalidDatabaseCount", integer: true, hint: "the engine simulates at most 256 databases per host").Check(source.Get(1, "DatabaseCount"));
            if (profile.DatabaseCount > profile.MailboxCount)
                throw StorageTestException.InvalidArgument("InvalidDatabaseCount", $"DatabaseCount '{profile.DatabaseCount}' is not valid: it must not exceed MailboxCount ({profile.MailboxCount}), because every database holds at least one mailbox.", profile.DatabaseCount);
            profile.CopiesPerDatabase = (int)new NumberRule("CopiesPerDatabase", 1, 16, "InvalidCopiesPerDatabase", integer: true, hint: "a database availability group holds at most 16 copies").Check(source.Get(1, "CopiesPerDatabase"));

            object? threads = source.Get(null, "ThreadCount");
            if (threads != null && !(threads is string text && text.Length == 0))
                profile.ThreadCount = (int)new NumberRule("ThreadCount", 1, 1024, "InvalidThreadCount", integer: true, hint: "omit it for automatic tuning").Check(threads);

            profile.BackgroundMaintenance = ReadBoolean(source.Get(true, "BackgroundMaintenance"));
            profile.MinimumDatabaseCacheMB = (long)new NumberRule("MinimumDatabaseCacheMB", 1, 1_048_576, "InvalidDatabaseCache", integer: true).Check(source.Get(128, "MinimumDatabaseCacheMB"));
            profile.MaximumDatabaseCacheMB = (long)new NumberRule("MaximumDatabaseCacheMB", 1, 1_048_576, "InvalidDatabaseCache", integer: true).Check(source.Get(1024, "MaximumDatabaseCacheMB"));
            if (profile.MaximumDatabaseCacheMB < profile.MinimumDatabaseCacheMB)
                throw StorageTestException.InvalidArgument("InvalidDatabaseCache", $"MaximumDatabaseCacheMB '{profile.MaximumDatabaseCacheMB}' is not valid: it must be at least MinimumDatabaseCacheMB ({profile.MinimumDatabaseCacheMB}).", profile.MaximumDatabaseCacheMB);

            profile.DatabasePaths = PathInput.ToStrings(source.Get(null, "DatabasePaths", "DatabasePath", "Path")).ToArray();
            if (profile.DatabasePaths.Length == 0)
                throw StorageTestException.InvalidArgument("DatabasePathMissing", "The profile has no database path: give one root folder (each database gets a sub-folder) or one folder per database.", null);
            if (profile.DatabasePaths.Length != 1 && profile.DatabasePaths.Length != profile.DatabaseCount)
                throw StorageTestException.InvalidArgument("DatabasePathCountMismatch", $"{profile.DatabasePaths.Length} database paths were given for {profile.DatabaseCount} databases: give one root folder or exactly one folder per database.", profile.DatabasePaths);
            profile.LogPaths = PathInput.ToStrings(source.Get(null, "LogPaths", "LogPath")).ToArray();
            if (profile.LogPaths.Length > 1 && profile.LogPaths.Length != profile.DatabaseCount)
                throw StorageTestException.InvalidArgument("LogPathCountMismatch", $"{profile.LogPaths.Length} log paths were given for {profile.DatabaseCount} databases: give none (logs next to each database), one root folder, or exactly one folder per database.", profile.LogPaths);
            foreach (string path in profile.DatabasePaths.Concat(profile.LogPaths))
                if (!IsRooted(path))
                    throw StorageTestException.InvalidArgument("PathNotRooted", $"The path '{path}' is not valid: database and log paths must be absolute (for example D:\\ExchangeDatabases or /mnt/db).", path);
            return profile;
        }

        /// <summary>
        /// Replaces the profile's folders with those piped from Get-MailboxDatabase: the test then simulates
        /// exactly the databases of that server (their count follows), and is validated again.
        /// </summary>
        public static MailboxProfile WithDatabases(MailboxProfile profile, IReadOnlyList<string> databasePaths, IReadOnlyList<string> logPaths)
        {
            if (databasePaths.Count == 0 && logPaths.Count == 0) return profile;
            var settings = new System.Collections.Hashtable(StringComparer.OrdinalIgnoreCase);
            foreach (var property in PSObject.AsPSObject(profile).Properties) settings[property.Name] = property.Value;
            if (databasePaths.Count > 0)
            {
                settings["DatabasePaths"] = databasePaths.ToArray();
                settings["DatabaseCount"] = databasePaths.Count;
                // The profile's log folders belonged to its own databases, not to the piped ones.
                if (logPaths.Count == 0) settings["LogPaths"] = new string[0];
            }
            if (logPaths.Count > 0) settings["LogPaths"] = logPaths.ToArray();
            return Read(settings);
        }

        // Absolute on either OS: a profile may be planned on one for hosts of the other (D:\DB on Linux, /mnt/db on Windows).
        private static bool IsRooted(string path) =>
            path.StartsWith("/", StringComparison.Ordinal) || path.StartsWith("\\\\", StringComparison.Ordinal)
            || (path.Length >= 3 && char.IsLetter(path[0]) && path[1] == ':' && (path[2] == '\\' || path[2] == '/'));

        private static bool ReadBoolean(object? value)
        {
            value = SettingSource.Unwrap(value);
            if (value is bool b) return b;
            if (value is SwitchParameter sw) return sw.IsPresent;
            string text = (Convert.ToString(value, System.Globalization.CultureInfo.InvariantCulture) ?? "").Trim();
            if (string.Equals(text, "true", StringComparison.OrdinalIgnoreCase)) return true;
            if (string.Equals(text, "false", StringComparison.OrdinalIgnoreCase)) return false;
            throw StorageTestException.InvalidArgument("InvalidBackgroundMaintenance", $"BackgroundMaintenance '{value}' is not valid: it must be true or false.", value);
        }
    }
}
