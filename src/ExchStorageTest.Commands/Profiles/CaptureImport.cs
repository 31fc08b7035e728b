using System.Collections;
using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Commands;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.Profiles
{
    /// <summary>
    /// New-MailboxProfile -CapturePath: the engine's <c>capture</c> command reads the PerfMon captures (this module,
    /// which must load in Windows PowerShell 5.1, parses no capture itself: one reader, the engine's) and answers the
    /// profile's settings and the derivation in lines (docs/capture.md). A bad capture is the engine's refusal, with
    /// its code (CaptureNotPerfmon, CaptureTooShort ...), before anything is written.
    /// </summary>
    internal sealed class CaptureImport
    {
        private CaptureImport(JsonObject answer)
        {
            var profile = answer.GetObject(EventFields.Capture.Profile) ?? new JsonObject();
            foreach (var member in profile) Settings[member.Key] = member.Value;
            Derivation = answer.GetArray(EventFields.Capture.Derivation).OfType<string>().ToList();
        }

        /// <summary>The profile's settings, by their contract names, to be completed by what the user gave.</summary>
        public Hashtable Settings { get; } = new Hashtable(System.StringComparer.OrdinalIgnoreCase);

        /// <summary>What was read and derived, and where each figure came from, as -WhatIf shows it.</summary>
        public IReadOnlyList<string> Derivation { get; }

        public static CaptureImport Read(StorageTestCmdlet cmdlet, string[] captures, double? growthFactor, string? windowStart, int? windowMinutes,
            int? mailboxCount, string? calculatorPath, string? serversCsv)
        {
            var request = EngineRequest.For(EngineCommands.Capture).Set(RequestFields.Paths, captures);
            if (growthFactor.HasValue) request.Set(RequestFields.GrowthFactor, growthFactor.Value);
            if (windowStart != null) request.Set(RequestFields.CaptureWindowStart, windowStart);
            if (windowMinutes.HasValue) request.Set(RequestFields.CaptureWindowMinutes, windowMinutes.Value);
            if (mailboxCount.HasValue) request.Set(RequestFields.MailboxCount, mailboxCount.Value);
            if (calculatorPath != null) request.Set(RequestFields.CalculatorPath, calculatorPath);
            if (serversCsv != null) request.Set(RequestFields.ServersCsvPath, serversCsv);
            EngineEvent answer = cmdlet.RunEngine(request, "Reading the PerfMon capture").First(EventTypes.Capture)
                ?? throw new StorageTestException(ErrorCodes.EngineFailed, "The ExchStorageTest engine ended without answering the capture's profile: install matching versions of the module and the engine.", null);
            var import = new CaptureImport(answer.Fields);
            foreach (string line in import.Derivation) cmdlet.WriteVerbose(line);
            return import;
        }
    }
}
