using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Text;
using ExchStorageTest.Commands;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.Profiles
{
    /// <summary>
    /// New-MailboxProfile -CalculatorPath: the engine's <c>calculator</c> command reads the workbook (this module is
    /// netstandard2.0 and references no spreadsheet library) and answers each profile's settings and each server's
    /// databases; the command applies what was given explicitly and checks the result as any profile. A bad workbook
    /// is the engine's refusal, with its code (CalculatorLabelMissing, CalculatorCellError ...), before anything is written.
    /// </summary>
    internal sealed class CalculatorImport
    {
        private readonly JsonObject _answer;

        private CalculatorImport(JsonObject answer, string workbook)
        {
            _answer = answer;
            Workbook = workbook;
            foreach (object? item in answer.GetArray(EventFields.Calculator.Profiles))
            {
                if (!(item is JsonObject profile)) continue;
                var settings = new Hashtable(StringComparer.OrdinalIgnoreCase);
                foreach (var member in profile) settings[member.Key] = member.Value;
                Profiles.Add(settings);
            }
        }

        public string Workbook { get; }

        /// <summary>Each profile's settings, by their contract names, to be completed by what the user gave.</summary>
        public List<Hashtable> Profiles { get; } = new List<Hashtable>();

        /// <summary>Reads <paramref name="workbook"/>, with <paramref name="serversCsv"/> or else the Servers.csv beside the workbook when there is one.</summary>
        public static CalculatorImport Read(StorageTestCmdlet cmdlet, string workbook, string? serversCsv)
        {
            if (serversCsv == null)
            {
                string beside = Path.Combine(Path.GetDirectoryName(workbook) ?? "", "Servers.csv");
                if (File.Exists(beside))
                {
                    serversCsv = beside;
                    cmdlet.WriteVerbose($"Using the calculator's server export beside the workbook: '{beside}'.");
                }
            }
            var request = EngineRequest.For(EngineCommands.Calculator).Set(RequestFields.Paths, new[] { workbook });
            if (serversCsv != null) request.Set(RequestFields.ServersCsvPath, serversCsv);
            EngineEvent answer = cmdlet.RunEngine(request, "Reading the sizing calculator").First(EventTypes.Calculator)
                ?? throw new StorageTestException(ErrorCodes.EngineFailed, "The ExchStorageTest engine ended without answering the calculator's profiles: install matching versions of the module and the engine.", null);
            var import = new CalculatorImport(answer.Fields, workbook);
            if (serversCsv == null)
                cmdlet.WriteVerbose("No Servers.csv was given or found beside the workbook: the profile takes its paths from -Path (and -LogPath).");
            return import;
        }

        /// <summary>What -WhatIf shows: each profile's figures and where each server's databases are tested.</summary>
        public string Describe(IReadOnlyList<MailboxProfile> profiles)
        {
            var text = new StringBuilder();
            foreach (MailboxProfile p in profiles)
            {
                CalculatorTargets? t = p.Calculator;
                text.AppendLine(string.Format(CultureInfo.InvariantCulture,
                    "Profile '{0}' from '{1}'{2}: {3} mailboxes at {4:0.####} IOPS each ({5:0.###} target IOPS), {6} databases of {7:0.##} GB, {8} copies each.",
                    p.Name, Workbook, t == null ? "" : $" ({t.Calculator} {t.Version})", p.MailboxCount, p.IopsPerMailbox, p.TargetIops, p.DatabaseCount, p.DatabaseSizeMB / 1024, p.CopiesPerDatabase));
                if (t != null)
                    text.AppendLine(string.Format(CultureInfo.InvariantCulture,
                        "Judged against the calculator's targets per server: {0:0.###} database IOPS, {1:0.###} log IOPS, {2:0.#}% database reads, {3:0.###} MB/s of background maintenance.",
                        t.DatabaseIops, t.LogIops, t.DatabaseReadShare * 100, t.MaintenanceMBPerSecond));
                if (p.Servers.Length > 0)
                    text.AppendLine("Its servers hold different databases: each host tests its own server's below, and a host that is none of them is refused.");
                else if (p.DatabasePaths.Length > 0)
                    text.AppendLine("Every server holds the same databases: every host tests these folders.");
            }
            string csv = _answer.GetString(EventFields.Calculator.ServersCsvPath) ?? "";
            var servers = _answer.GetArray(EventFields.Calculator.Servers).OfType<JsonObject>().ToList();
            if (servers.Count == 0) text.AppendLine("No Servers.csv: the databases are tested where -Path says.");
            foreach (JsonObject server in servers)
            {
                text.AppendLine();
                text.AppendLine(string.Format(CultureInfo.InvariantCulture, "Server {0} ({1}): databases under {2}, {3} per volume{4}:",
                    server.GetString(EventFields.Calculator.Server.Name), csv, server.GetString(EventFields.Calculator.Server.DatabasesRootFolder),
                    server.GetNumber(EventFields.Calculator.Server.DatabasesPerVolume),
                    server[EventFields.Calculator.Server.LogIsolation] is bool isolated && isolated ? ", logs isolated on volumes Servers.csv does not name" : ", logs beside each database"));
                foreach (JsonObject database in server.GetArray(EventFields.Calculator.Server.Databases).OfType<JsonObject>())
                    text.AppendLine(string.Format(CultureInfo.InvariantCulture, "  volume {0,3}  {1,-24} -> {2}",
                        database.GetNumber(EventFields.Calculator.Database.Volume), database.GetString(EventFields.Calculator.Database.Name), database.GetString(EventFields.Calculator.Database.Path)));
            }
            return text.ToString().TrimEnd();
        }
    }
}
