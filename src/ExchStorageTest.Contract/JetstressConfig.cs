using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using System.Xml;

namespace ExchStorageTest.Contract
{
    /// <summary>One <c>EseInstance</c> of a JetstressConfig.xml: its first database path and its log path, as written.</summary>
    public sealed class JetstressInstance
    {
        public JetstressInstance(string databasePath, string? logPath)
        {
            DatabasePath = databasePath;
            LogPath = logPath;
        }

        public string DatabasePath { get; }
        /// <summary>Null or empty: none given.</summary>
        public string? LogPath { get; }
    }

    /// <summary>
    /// A Jetstress 2013 JetstressConfig.xml as read: the one reader of it, for New-MailboxProfile -JetstressConfig (the
    /// profile) and JetstressCmd /c (the whole test). Elements are found by local name anywhere, so namespaces, the xsd/xsi
    /// declarations some editors drop and the nesting of Jetstress versions do not matter; external entities and DTDs are
    /// never processed. Values are kept as written (null: the element is absent) and turned into settings by
    /// <see cref="ToProfile"/>, whose numbers the profile's own rules then check — in the module and in the engine alike.
    /// Where each element goes, and the files that prove it: docs/jetstress.md.
    /// </summary>
    public sealed class JetstressConfig
    {
        /// <summary>
        /// The test types a configuration's <c>Type</c> may name (ExchangeDsc's ValidateSet, Jetstress's types): ours that are a
        /// Jetstress test of the same name (<see cref="TestTypeTraits.JetstressName"/>).
        /// </summary>
        public static readonly string[] TestTypes =
            Contract.TestTypes.All.Where(t => t.JetstressName == t.Type.ToString()).Select(t => t.JetstressName!).ToArray();

        private JetstressConfig(string path) => FilePath = path;

        public string FilePath { get; }
        public string? Type { get; private set; }
        public string? Description { get; private set; }
        public string? Duration { get; private set; }
        public string? OutputPath { get; private set; }
        public string? SuppressTuning { get; private set; }
        public string? RunDatabaseMaintenancePerformance { get; private set; }
        public string? RunDatabaseMaintenanceSoftRecovery { get; private set; }
        public string? ContinueOnErrors { get; private set; }
        public string? LogFilesToReplay { get; private set; }
        public string? RestoreBackupPath { get; private set; }
        public string? ThreadCount { get; private set; }
        public string? DatabaseSource { get; private set; }
        public string? DatabaseSizing { get; private set; }
        public string? CapacityPercentage { get; private set; }
        public string? ThroughputPercentage { get; private set; }
        public string? MailboxCount { get; private set; }
        public string? MailboxQuota { get; private set; }
        public string? MailboxIops { get; private set; }
        public string? DatabaseCopyCount { get; private set; }
        public IReadOnlyList<JetstressInstance> Instances { get; private set; } = Array.Empty<JetstressInstance>();

        /// <summary>The latency limits the configuration gives, by set ("Strict", "Lenient") and element ("AverageDatabaseReadLatency" ...), as written.</summary>
        public IReadOnlyDictionary<string, IReadOnlyDictionary<string, string>> Thresholds { get; private set; } =
            new Dictionary<string, IReadOnlyDictionary<string, string>>();

        /// <summary>The four latency limits of a <c>Thresholds</c> set, in milliseconds.</summary>
        public static readonly string[] ThresholdElements = { "AverageDatabaseReadLatency", "MaximumDatabaseReadLatency", "AverageLogWriteLatency", "MaximumLogWriteLatency" };

        /// <summary>Reads <paramref name="path"/>; null with <paramref name="violation"/> when it is missing or not XML.</summary>
        public static JetstressConfig? Read(string path, out Violation? violation)
        {
            violation = null;
            if (!File.Exists(path))
            {
                violation = new Violation(ErrorCodes.JetstressConfigNotFound, $"The Jetstress configuration file '{path}' does not exist.", path);
                return null;
            }
            var document = new XmlDocument { XmlResolver = null };
            try
            {
                using var reader = XmlReader.Create(new StringReader(File.ReadAllText(path)), new XmlReaderSettings { DtdProcessing = DtdProcessing.Prohibit, XmlResolver = null });
                document.Load(reader);
            }
            catch (Exception ex) when (ex is XmlException || ex is IOException || ex is UnauthorizedAccessException)
            {
                violation = Malformed(path, $"is not valid XML: {ex.GetBaseException().Message}");
                return null;
            }

            var config = new JetstressConfig(path)
            {
                Type = Text(document, "Type"),
                Description = Text(document, "Description"),
                Duration = Text(document, "Duration"),
                OutputPath = Text(document, "OutputPath"),
                SuppressTuning = Text(document, "SuppressTuning"),
                RunDatabaseMaintenancePerformance = Text(document, "RunDatabaseMaintenancePerformance"),
                RunDatabaseMaintenanceSoftRecovery = Text(document, "RunDatabaseMaintenanceSoftRecovery"),
                ContinueOnErrors = Text(document, "ContinueOnErrors"),
                LogFilesToReplay = Text(document, "LogFilesToReplay"),
                RestoreBackupPath = Text(document, "RestoreBackupPath"),
                ThreadCount = Text(document, "ThreadCount"),
                DatabaseSource = Text(document, "DatabaseSource"),
                DatabaseSizing = Text(document, "DatabaseSizing"),
                CapacityPercentage = Text(document, "CapacityPercentage"),
                ThroughputPercentage = Text(document, "ThroughputPercentage"),
                MailboxCount = Text(document, "MailboxCount"),
                MailboxQuota = Text(document, "MailboxQuota"),
                MailboxIops = Text(document, "MailboxIops"),
                DatabaseCopyCount = Text(document, "DatabaseCopyCount"),
            };
            var instances = new List<JetstressInstance>();
            foreach (XmlNode instance in document.SelectNodes("//*[local-name()='EseInstance']")!)
            {
                var databasePath = instance.SelectSingleNode(".//*[local-name()='DatabasePaths']/*[local-name()='Path']");
                if (databasePath == null || string.IsNullOrWhiteSpace(databasePath.InnerText))
                {
                    violation = Malformed(path, "has an <EseInstance> without <DatabasePaths><Path>");
                    return null;
                }
                var logPath = instance.SelectSingleNode(".//*[local-name()='LogPath']");
                instances.Add(new JetstressInstance(databasePath.InnerText.Trim(), logPath?.InnerText.Trim()));
            }
            config.Instances = instances;
            var thresholds = new Dictionary<string, IReadOnlyDictionary<string, string>>(StringComparer.OrdinalIgnoreCase);
            foreach (XmlNode set in document.SelectNodes("//*[local-name()='Thresholds']")!)
            {
                string name = set.Attributes?["Name"]?.Value ?? "";
                var limits = new Dictionary<string, string>(StringComparer.Ordinal);
                foreach (var element in ThresholdElements)
                    if (set.SelectSingleNode($"*[local-name()='{element}']") is XmlNode limit) limits[element] = limit.InnerText.Trim();
                if (name.Length > 0 && !thresholds.ContainsKey(name)) thresholds[name] = limits;
            }
            config.Thresholds = thresholds;
            return config;
        }

        /// <summary>
        /// The mailbox profile the configuration describes: MailboxCount, MailboxIops (the tested IOPS, so no headroom on
        /// top), MailboxQuota (MB), DatabaseCopyCount, ThreadCount only when SuppressTuning is true (otherwise Jetstress
        /// tunes, and so do we), RunDatabaseMaintenancePerformance, the Description, and one database per EseInstance
        /// with its first database path and its log path. A folder named by several instances holds each of them in a
        /// DB&lt;n&gt; folder of its own (the engine's rule for a shared root, docs/jetstress.md). The profile's rules are
        /// not checked here: the caller checks them, as for every profile.
        /// </summary>
        public MailboxProfile? ToProfile(out Violation? violation)
        {
            violation = null;
            var profile = new MailboxProfile { Name = ProfileName(FilePath), Description = (Description ?? "").Trim() };
            foreach (var (element, value) in new[] { ("MailboxCount", MailboxCount), ("MailboxIops", MailboxIops), ("MailboxQuota", MailboxQuota) })
                if (string.IsNullOrWhiteSpace(value))
                {
                    violation = Malformed(FilePath, $"has no <{element}> value; it is required to build a mailbox profile");
                    return null;
                }
            violation = Number(ProfileRules.MailboxCount, MailboxCount, v => profile.MailboxCount = (int)v)
                ?? Number(ProfileRules.IopsPerMailbox, MailboxIops, v => profile.IopsPerMailbox = v)
                ?? Number(ProfileRules.MailboxSizeMB, MailboxQuota, v => profile.MailboxSizeMB = (long)v)
                ?? (string.IsNullOrWhiteSpace(DatabaseCopyCount) ? null : Number(ProfileRules.CopiesPerDatabase, DatabaseCopyCount, v => profile.CopiesPerDatabase = (int)v))
                ?? (IsTrue(SuppressTuning) && !string.IsNullOrWhiteSpace(ThreadCount) ? Number(ProfileRules.ThreadCount, ThreadCount, v => profile.ThreadCount = (int)v) : null)
                ?? Boolean("RunDatabaseMaintenancePerformance", RunDatabaseMaintenancePerformance, v => profile.BackgroundMaintenance = v);
            if (violation != null) return null;
            if (Instances.Count > 0)
            {
                profile.DatabaseCount = Instances.Count;
                profile.DatabasePaths = Instances.Select(i => i.DatabasePath).ToArray();
                if (Instances.Any(i => !string.IsNullOrWhiteSpace(i.LogPath)))
                {
                    if (Instances.Any(i => string.IsNullOrWhiteSpace(i.LogPath)))
                    {
                        violation = Malformed(FilePath, "gives a <LogPath> to some <EseInstance>s and not to others; give every instance its log path, or none");
                        return null;
                    }
                    profile.LogPaths = Instances.Select(i => i.LogPath!).ToArray();
                }
            }
            return profile;
        }

        /// <summary>"true"/"false" as Jetstress writes them (any case); null when absent or empty.</summary>
        public static bool? ParseBoolean(string? text) =>
            string.IsNullOrWhiteSpace(text) ? (bool?)null
            : string.Equals(text!.Trim(), "true", StringComparison.OrdinalIgnoreCase) ? true
            : string.Equals(text.Trim(), "false", StringComparison.OrdinalIgnoreCase) ? false : (bool?)null;

        private static bool IsTrue(string? text) => ParseBoolean(text) == true;

        /// <summary>The refusal of a file that cannot describe a test: the file and what is wrong with it.</summary>
        public static Violation Malformed(string path, string what) =>
            new Violation(ErrorCodes.JetstressConfigMalformed, $"The Jetstress configuration file '{path}' {what}.", path);

        /// <summary>A number as the XML holds it (invariant culture); text that is none is refused by the setting's own rule.</summary>
        private static Violation? Number(NumberRule rule, string? text, Action<double> set)
        {
            if (!double.TryParse((text ?? "").Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out double value) || !IsWhole(rule, value))
                return rule.Refuse((text ?? "").Trim());
            set(value);
            return null;
        }

        private static bool IsWhole(NumberRule rule, double value) => !rule.Integer || Math.Floor(value) == value;

        private Violation? Boolean(string element, string? text, Action<bool> set)
        {
            if (string.IsNullOrWhiteSpace(text)) return null;
            bool? value = ParseBoolean(text);
            if (value == null) return Malformed(FilePath, $"has <{element}>{text!.Trim()}</{element}>: true or false is needed");
            set(value.Value);
            return null;
        }

        /// <summary>The profile's name: the file's name made a plain name, or "Jetstress".</summary>
        private static string ProfileName(string path)
        {
            string baseName = Regex.Replace(Path.GetFileNameWithoutExtension(path), "[^A-Za-z0-9 ._-]", "-");
            return baseName.Length > 0 && char.IsLetterOrDigit(baseName[0]) && baseName[0] < 128
                ? baseName.Substring(0, Math.Min(ProfileRules.NameMaxLength, baseName.Length))
                : "Jetstress";
        }

        private static string? Text(XmlDocument document, string localName) =>
            document.SelectSingleNode($"//*[local-name()='{localName}']")?.InnerText.Trim();
    }
}
