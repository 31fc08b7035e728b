using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;

namespace ExchStorageTest.Profiles
{
    /// <summary>
    /// Every way a profile arrives — New-MailboxProfile's parameters, a saved profile file, a profile object
    /// (changed or not), one deserialized from a job or a remote session, a JetstressConfig.xml import — is read
    /// here into a <see cref="MailboxProfile"/> and checked with the contract's <see cref="ProfileRules"/>, the
    /// rules the engine's plan checks again: the first broken rule stops it with the engine's code and message.
    /// What is PowerShell's stays here: reading settings by name from any object, numbers from text, paths
    /// from Exchange's path objects. It writes nothing.
    /// </summary>
    internal static class ProfileReader
    {
        public static MailboxProfile Read(object? input)
        {
            input = SettingSource.Unwrap(input);
            if (input == null || input is string || input is ValueType || input is Array)
                throw new StorageTestException(ErrorCodes.ProfileInvalid, "The profile must be an object with profile settings (from New-MailboxProfile or a saved profile file).", input);
            if (input is MailboxProfile typed) input = PSObject.AsPSObject(typed);
            var source = SettingSource.From(input);
            var defaults = new MailboxProfile();

            var profile = new MailboxProfile
            {
                Name = Convert.ToString(source.Get(defaults.Name, ProfileFields.Name), CultureInfo.InvariantCulture) ?? "",
                Description = Convert.ToString(source.Get(defaults.Description, ProfileFields.Description), CultureInfo.InvariantCulture) ?? "",
            };
            Refuse(ProfileRules.CheckName(profile.Name) ?? ProfileRules.CheckDescription(profile.Description));
            profile.MailboxCount = (int)NumberInput.Read(ProfileRules.MailboxCount, source.Get(null, ProfileFields.MailboxCount));
            profile.IopsPerMailbox = NumberInput.Read(ProfileRules.IopsPerMailbox, source.Get(null, ProfileFields.IopsPerMailbox));
            profile.HeadroomPercent = NumberInput.Read(ProfileRules.HeadroomPercent, source.Get(defaults.HeadroomPercent, ProfileFields.HeadroomPercent));
            profile.MailboxSizeMB = (long)NumberInput.Read(ProfileRules.MailboxSizeMB, source.Get(null, ProfileFields.MailboxSizeMB));
            profile.DatabaseCount = (int)NumberInput.Read(ProfileRules.DatabaseCount, source.Get(defaults.DatabaseCount, ProfileFields.DatabaseCount));
            Refuse(ProfileRules.CheckDatabasesHoldMailboxes(profile));
            profile.CopiesPerDatabase = (int)NumberInput.Read(ProfileRules.CopiesPerDatabase, source.Get(defaults.CopiesPerDatabase, ProfileFields.CopiesPerDatabase));
            profile.CopiesPerVolume = (int)NumberInput.Read(ProfileRules.CopiesPerVolume, source.Get(defaults.CopiesPerVolume, ProfileFields.CopiesPerVolume));
            profile.ActiveCopiesPerVolume = (int)NumberInput.Read(ProfileRules.ActiveCopiesPerVolume, source.Get(defaults.ActiveCopiesPerVolume, ProfileFields.ActiveCopiesPerVolume));
            profile.LaggedCopiesPerVolume = (int)NumberInput.Read(ProfileRules.LaggedCopiesPerVolume, source.Get(defaults.LaggedCopiesPerVolume, ProfileFields.LaggedCopiesPerVolume));
            object? threads = source.Get(null, ProfileFields.ThreadCount);
            if (threads != null && !(threads is string text && text.Length == 0))
                profile.ThreadCount = (int)NumberInput.Read(ProfileRules.ThreadCount, threads);
            profile.BackgroundMaintenance = ReadBoolean(source.Get(defaults.BackgroundMaintenance, ProfileFields.BackgroundMaintenance));
            profile.MinimumDatabaseCacheMB = (long)NumberInput.Read(ProfileRules.MinimumDatabaseCacheMB, source.Get(defaults.MinimumDatabaseCacheMB, ProfileFields.MinimumDatabaseCacheMB));
            profile.MaximumDatabaseCacheMB = (long)NumberInput.Read(ProfileRules.MaximumDatabaseCacheMB, source.Get(defaults.MaximumDatabaseCacheMB, ProfileFields.MaximumDatabaseCacheMB));
            // New-MailboxProfile's -Path and an object's DatabasePath/Path are the profile's database paths too.
            profile.DatabasePaths = PathInput.ToStrings(source.Get(null, ProfileFields.DatabasePaths, "DatabasePath", "Path")).ToArray();
            profile.LogPaths = PathInput.ToStrings(source.Get(null, ProfileFields.LogPaths, "LogPath")).ToArray();
            profile.Servers = ProfileParts.ReadServers(source.Get(null, ProfileFields.Servers));
            profile.Calculator = ProfileParts.ReadCalculator(source.Get(null, ProfileFields.Calculator));
            profile.Capture = ProfileParts.ReadCapture(source.Get(null, ProfileFields.Capture));
            Refuse(ProfileRules.Check(profile));
            return profile;
        }

        /// <summary>
        /// Replaces the profile's folders with those piped from Get-MailboxDatabase: the test then simulates
        /// exactly the databases of that server (their count follows), and is validated again.
        /// </summary>
        public static MailboxProfile WithDatabases(MailboxProfile profile, IReadOnlyList<string> databasePaths, IReadOnlyList<string> logPaths)
        {
            if (databasePaths.Count == 0 && logPaths.Count == 0) return profile;
            // The profile's log folders belonged to its own databases, not to the piped ones.
            MailboxProfile piped = profile.WithPaths(databasePaths.Count > 0 ? databasePaths.ToArray() : profile.DatabasePaths,
                logPaths.Count > 0 ? logPaths.ToArray() : databasePaths.Count > 0 ? new string[0] : profile.LogPaths);
            if (databasePaths.Count > 0)
            {
                piped.DatabaseCount = databasePaths.Count;
                // Databases given for this run replace any per-server layout: they are the host's own.
                piped.Servers = new ServerLayout[0];
            }
            Refuse(ProfileRules.Check(piped));
            return piped;
        }

        private static void Refuse(Violation? violation)
        {
            if (violation != null) throw StorageTestException.From(violation);
        }

        private static bool ReadBoolean(object? value)
        {
            value = SettingSource.Unwrap(value);
            if (value is bool b) return b;
            if (value is SwitchParameter sw) return sw.IsPresent;
            string text = (Convert.ToString(value, CultureInfo.InvariantCulture) ?? "").Trim();
            if (string.Equals(text, "true", StringComparison.OrdinalIgnoreCase)) return true;
            if (string.Equals(text, "false", StringComparison.OrdinalIgnoreCase)) return false;
            throw new StorageTestException(ErrorCodes.InvalidBackgroundMaintenance, $"BackgroundMaintenance '{value}' is not valid: it must be true or false.", value);
        }
    }
}
