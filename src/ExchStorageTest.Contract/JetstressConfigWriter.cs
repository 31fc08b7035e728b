using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Text;
using System.Xml;

namespace ExchStorageTest.Contract
{
    /// <summary>One latency threshold set of a JetstressConfig.xml (milliseconds).</summary>
    public sealed class JetstressThresholdSet
    {
        public JetstressThresholdSet(double averageDatabaseRead, double maximumDatabaseRead, double averageLogWrite, double maximumLogWrite)
        {
            AverageDatabaseRead = averageDatabaseRead;
            MaximumDatabaseRead = maximumDatabaseRead;
            AverageLogWrite = averageLogWrite;
            MaximumLogWrite = maximumLogWrite;
        }

        public double AverageDatabaseRead { get; }
        public double MaximumDatabaseRead { get; }
        public double AverageLogWrite { get; }
        public double MaximumLogWrite { get; }
    }

    /// <summary>What JetstressCmd /g writes into a JetstressConfig.xml (<see cref="JetstressConfigWriter"/>).</summary>
    public sealed class JetstressConfigDraft
    {
        /// <summary>The product that wrote the file (JetstressVersionGenerated).</summary>
        public string Generator { get; set; } = "";
        public string Type { get; set; } = "Performance";
        public string Description { get; set; } = "";
        public double DurationSeconds { get; set; } = 2 * 3600;
        public string OutputPath { get; set; } = ".";
        /// <summary>Null: tuned (SuppressTuning false, an empty ThreadCount).</summary>
        public int? ThreadCount { get; set; }
        /// <summary>New or Open.</summary>
        public string DatabaseSource { get; set; } = "New";
        /// <summary>Profile or Capacity.</summary>
        public string DatabaseSizing { get; set; } = "Profile";
        public double CapacityPercentage { get; set; } = 100;
        public double ThroughputPercentage { get; set; } = 100;
        public int MailboxCount { get; set; }
        public long MailboxQuota { get; set; }
        public double MailboxIops { get; set; }
        public int DatabaseCopyCount { get; set; } = 1;
        public bool RunDatabaseMaintenance { get; set; } = true;
        public int LogFilesToReplay { get; set; } = RunDefaults.LogFilesToReplay;
        public List<JetstressInstance> Instances { get; } = new List<JetstressInstance>();
        public JetstressThresholdSet Strict { get; set; } = new JetstressThresholdSet(20, 100, 10, 100);
        public JetstressThresholdSet Lenient { get; set; } = new JetstressThresholdSet(20, 200, 10, 200);
    }

    /// <summary>
    /// Writes a complete JetstressConfig.xml, element for element and nested as Jetstress 2013 writes it (the samples in
    /// shared/research/realclients: a Jetstress 15.0.995.0 template), so the automation that edits the generated file finds
    /// every element it sets (the Azure Stack template sets ExchangeProfile's MailboxCount, MailboxIops, MailboxQuota,
    /// DatabaseSizing, ThroughputPercentage and CapacityPercentage and TestDesignInfo's SuppressTuning; ExchangeDsc's
    /// ExchJetstressCleanup reads configuration.ExchangeProfile.EseInstances.EseInstance.DatabasePaths.Path and .LogPath).
    /// Elements of Jetstress's ESE workload the engine has no use for are written with Jetstress's defaults, so the file
    /// also opens in Jetstress; <see cref="JetstressConfig"/> reads what the engine uses (docs/jetstress.md).
    /// </summary>
    public static class JetstressConfigWriter
    {
        public static string Render(JetstressConfigDraft d)
        {
            var text = new StringBuilder();
            var settings = new XmlWriterSettings { Indent = true, IndentChars = "  ", OmitXmlDeclaration = true, NewLineChars = "\r\n" };
            using (var w = XmlWriter.Create(new StringWriter(text, CultureInfo.InvariantCulture), settings))
            {
                w.WriteStartElement("configuration");
                w.WriteAttributeString("xmlns", "xsd", null, "http://www.w3.org/2001/XMLSchema");
                w.WriteAttributeString("xmlns", "xsi", null, "http://www.w3.org/2001/XMLSchema-instance");
                w.WriteElementString("JetstressVersionGenerated", d.Generator);
                w.WriteElementString("EseVersionGenerated", "");

                w.WriteStartElement("TestDesignInfo");
                Element(w, "Type", d.Type);
                Element(w, "MultiHostBreak", false);
                Element(w, "Description", d.Description);
                Element(w, "Duration", JetstressDuration.ToXsDuration(d.DurationSeconds));
                Element(w, "BinaryPerfLog", true);
                Element(w, "VerifyChecksum", true);
                Element(w, "RunDatabaseMaintenancePerformance", d.RunDatabaseMaintenance);
                Element(w, "RunDatabaseMaintenanceSoftRecovery", false);
                Element(w, "ContinueOnErrors", false);
                Element(w, "SuppressTuning", d.ThreadCount.HasValue);
                Element(w, "UseEseCounters", true);
                Element(w, "PreloadJetCache", "0.9");
                Element(w, "BackupToDisk", false);
                Element(w, "LogFilesToReplay", d.LogFilesToReplay.ToString(CultureInfo.InvariantCulture));
                Element(w, "LogFilesToChecksum", "500");
                Element(w, "LogInterval", "15000");
                Element(w, "LogInterval2", "5000");
                w.WriteStartElement("OperationMix");
                w.WriteAttributeString("LockOps", "true");
                w.WriteAttributeString("InsertOps", "40");
                w.WriteAttributeString("DeleteOps", "20");
                w.WriteAttributeString("ReplaceOps", "5");
                w.WriteAttributeString("LazyCommits", "70");
                w.WriteEndElement();
                Element(w, "RetrieveLVOnRead", false);
                Element(w, "RetrieveLVOnScan", false);
                Element(w, "PrereadOnRead", false);
                Element(w, "PrereadOnScan", true);
                Element(w, "UpdateLV", true);
                Element(w, "ScanPercentage", "0");
                Element(w, "RestoreBackupPath", "");
                Element(w, "OutputPath", d.OutputPath);
                Element(w, "MaximumChecksumBuffers", "20971520");
                Element(w, "MaximumChecksumThreads", "400");
                Element(w, "MaximumLatencyErrors", "6");
                Element(w, "SluggishSessions", "1");
                Element(w, "BatchRecords", "1");
                Element(w, "BatchUpdates", "16");
                Element(w, "Bulky1Percentage", "100");
                Thresholds(w, "Strict", null, d.Strict);
                Thresholds(w, "Lenient", "Stress", d.Lenient);
                w.WriteEndElement();

                w.WriteStartElement("ExchangeProfile");
                Element(w, "ThreadCount", d.ThreadCount.HasValue ? d.ThreadCount.Value.ToString(CultureInfo.InvariantCulture) : "");
                Element(w, "TransPerSec", "0");
                Element(w, "ThroughputPercentage", Number(d.ThroughputPercentage));
                Element(w, "DatabaseSource", d.DatabaseSource);
                Element(w, "DatabaseSizing", d.DatabaseSizing);
                Element(w, "CapacityPercentage", Number(d.CapacityPercentage));
                Element(w, "MailboxCount", d.MailboxCount.ToString(CultureInfo.InvariantCulture));
                Element(w, "MailboxQuota", d.MailboxQuota.ToString(CultureInfo.InvariantCulture));
                Element(w, "MailboxIops", Number(d.MailboxIops));
                Element(w, "MarginIops", "0.05");
                Element(w, "LongPadLength", "2000");
                Element(w, "ShortPadLength", "200");
                Element(w, "DatabaseSpaceReserved", "25");
                Element(w, "DatabaseCopyCount", d.DatabaseCopyCount.ToString(CultureInfo.InvariantCulture));
                w.WriteStartElement("EseInstances");
                foreach (var instance in d.Instances)
                {
                    w.WriteStartElement("EseInstance");
                    w.WriteAttributeString("IopsBias", "1");
                    w.WriteStartElement("DatabasePaths");
                    Element(w, "Path", instance.DatabasePath);
                    w.WriteEndElement();
                    Element(w, "LogPath", instance.LogPath ?? "");
                    Element(w, "DatabaseBackupPath", "");
                    w.WriteEndElement();
                }
                w.WriteEndElement();
                w.WriteEndElement();

                w.WriteStartElement("JetSystemParams");
                Element(w, "DatabasePageSize", "32768");
                Element(w, "CircularLog", "1");
                Element(w, "LogFileSize", "1024");
                Element(w, "MaxVerPages", "8192");
                Element(w, "DBMThrottling", "100");
                w.WriteEndElement();
                w.WriteEndElement();
            }
            return "<?xml version=\"1.0\"?>\r\n" + text + "\r\n";
        }

        private static void Element(XmlWriter w, string name, string value)
        {
            // An empty value is written as Jetstress writes it: <RestoreBackupPath />.
            if (value.Length == 0) { w.WriteStartElement(name); w.WriteEndElement(); }
            else w.WriteElementString(name, value);
        }

        private static void Element(XmlWriter w, string name, bool value) => w.WriteElementString(name, value ? "true" : "false");

        private static void Thresholds(XmlWriter w, string name, string? testRunTypes, JetstressThresholdSet set)
        {
            w.WriteStartElement("Thresholds");
            w.WriteAttributeString("Name", name);
            if (testRunTypes != null) w.WriteAttributeString("TestRunTypes", testRunTypes);
            Element(w, "AverageDatabaseReadLatency", Number(set.AverageDatabaseRead));
            Element(w, "MaximumDatabaseReadLatency", Number(set.MaximumDatabaseRead));
            Element(w, "AverageLogWriteLatency", Number(set.AverageLogWrite));
            Element(w, "MaximumLogWriteLatency", Number(set.MaximumLogWrite));
            w.WriteEndElement();
        }

        private static string Number(double value) => value.ToString("R", CultureInfo.InvariantCulture);
    }
}
