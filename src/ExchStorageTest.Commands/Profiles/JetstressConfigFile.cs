using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Management.Automation;
using System.Text.RegularExpressions;
using System.Xml;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Profiles
{
    /// <summary>
    /// Reads the profile settings of a Jetstress 2013 JetstressConfig.xml, so existing Jetstress automation
    /// carries over: MailboxCount, MailboxIops, MailboxQuota (MB), DatabaseCopyCount, ThreadCount (only when
    /// SuppressTuning is true, as Jetstress does), RunDatabaseMaintenancePerformance, and one database per
    /// EseInstance with its first DatabasePaths/Path and its LogPath. Elements are found by local name anywhere,
    /// so namespaces and the nesting of Jetstress versions do not matter; external entities are never resolved.
    /// The settings then go through <see cref="ProfileReader"/> like any other profile input.
    /// </summary>
    internal static class JetstressConfigFile
    {
        public static Hashtable Read(string path)
        {
            if (!File.Exists(path))
                throw new StorageTestException(ErrorCodes.JetstressConfigNotFound, $"The Jetstress configuration file '{path}' does not exist.", path);
            var document = new XmlDocument { XmlResolver = null };
            try
            {
                using var reader = XmlReader.Create(new StringReader(File.ReadAllText(path)), new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null });
                document.Load(reader);
            }
            catch (Exception ex) when (ex is XmlException || ex is IOException)
            {
                throw new StorageTestException(ErrorCodes.JetstressConfigMalformed, $"The Jetstress configuration file '{path}' is not valid XML: {ex.GetBaseException().Message}", path, ex);
            }

            var settings = new Hashtable(StringComparer.OrdinalIgnoreCase) { [ProfileFields.Name] = "Jetstress" };
            string baseName = Regex.Replace(Path.GetFileNameWithoutExtension(path), "[^A-Za-z0-9 ._-]", "-");
            if (baseName.Length > 0 && char.IsLetterOrDigit(baseName[0]) && baseName[0] < 128)
                settings[ProfileFields.Name] = baseName.Substring(0, Math.Min(ProfileRules.NameMaxLength, baseName.Length));

            foreach (var (element, setting) in new[] { ("MailboxCount", ProfileFields.MailboxCount), ("MailboxIops", ProfileFields.IopsPerMailbox), ("MailboxQuota", ProfileFields.MailboxSizeMB) })
            {
                string? text = Text(document, element);
                if (string.IsNullOrWhiteSpace(text))
                    throw new StorageTestException(ErrorCodes.JetstressConfigMalformed, $"The Jetstress configuration file '{path}' has no <{element}> value; it is required to build a mailbox profile.", path);
                settings[setting] = text;
            }
            string? copies = Text(document, "DatabaseCopyCount");
            if (!string.IsNullOrWhiteSpace(copies)) settings[ProfileFields.CopiesPerDatabase] = copies;
            string? threads = Text(document, "ThreadCount");
            if (Text(document, "SuppressTuning") == "true" && !string.IsNullOrWhiteSpace(threads)) settings[ProfileFields.ThreadCount] = threads;
            string? maintenance = Text(document, "RunDatabaseMaintenancePerformance");
            if (!string.IsNullOrWhiteSpace(maintenance)) settings[ProfileFields.BackgroundMaintenance] = maintenance!.ToLowerInvariant();

            var databasePaths = new List<string>();
            var logPaths = new List<string>();
            foreach (XmlNode instance in document.SelectNodes("//*[local-name()='EseInstance']")!)
            {
                var databasePath = instance.SelectSingleNode(".//*[local-name()='DatabasePaths']/*[local-name()='Path']");
                if (databasePath == null || string.IsNullOrWhiteSpace(databasePath.InnerText))
                    throw new StorageTestException(ErrorCodes.JetstressConfigMalformed, $"The Jetstress configuration file '{path}' has an <EseInstance> without <DatabasePaths><Path>.", path);
                databasePaths.Add(databasePath.InnerText.Trim());
                var logPath = instance.SelectSingleNode(".//*[local-name()='LogPath']");
                if (logPath != null && !string.IsNullOrWhiteSpace(logPath.InnerText)) logPaths.Add(logPath.InnerText.Trim());
            }
            if (databasePaths.Count > 0)
            {
                settings[ProfileFields.DatabaseCount] = databasePaths.Count;
                settings[ProfileFields.DatabasePaths] = databasePaths.ToArray();
            }
            if (logPaths.Count > 0) settings[ProfileFields.LogPaths] = logPaths.ToArray();
            return settings;
        }

        private static string? Text(XmlDocument document, string localName) =>
            document.SelectSingleNode($"//*[local-name()='{localName}']")?.InnerText.Trim();
    }
}
