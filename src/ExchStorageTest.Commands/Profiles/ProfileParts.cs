using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Profiles
{
    /// <summary>
    /// The two nested parts of a profile — its per-server databases (<see cref="ServerLayout"/>) and the sizing
    /// calculator's targets (<see cref="CalculatorTargets"/>) — read from whatever carries them: the typed objects, a
    /// saved profile file or the engine's answer (JSON), a hashtable, or the property bags a job or a remote session
    /// deserializes them into. They travel with the profile through every pipeline and every multi-host run unchanged.
    /// </summary>
    internal static class ProfileParts
    {
        public static ServerLayout[] ReadServers(object? value)
        {
            value = SettingSource.Unwrap(value);
            if (value == null || value is string) return new ServerLayout[0];
            if (value is ServerLayout[] typed) return typed.Select(Copy).ToArray();
            if (!(value is IEnumerable items))
                throw new StorageTestException(ErrorCodes.ServerLayoutInvalid, "The profile's Servers must be a list of servers, each with a Name and its DatabasePaths.", value);
            var servers = new List<ServerLayout>();
            foreach (object? item in items)
            {
                object? entry = SettingSource.Unwrap(item);
                if (entry is ServerLayout layout) { servers.Add(Copy(layout)); continue; }
                if (entry == null || entry is string || entry is ValueType)
                    throw new StorageTestException(ErrorCodes.ServerLayoutInvalid, "Each of the profile's Servers must be an object with a Name and its DatabasePaths.", entry);
                var source = SettingSource.From(entry);
                servers.Add(new ServerLayout
                {
                    Name = Convert.ToString(source.Get("", ServerLayoutFields.Name), CultureInfo.InvariantCulture) ?? "",
                    DatabasePaths = PathInput.ToStrings(source.Get(null, ServerLayoutFields.DatabasePaths)).ToArray(),
                    LogPaths = PathInput.ToStrings(source.Get(null, ServerLayoutFields.LogPaths)).ToArray(),
                });
            }
            return servers.ToArray();
        }

        public static CalculatorTargets? ReadCalculator(object? value)
        {
            value = SettingSource.Unwrap(value);
            if (value == null) return null;
            if (value is CalculatorTargets typed) return Read(SettingSource.From(JsonOf(typed)));
            if (value is string || value is ValueType || value is Array)
                throw new StorageTestException(ErrorCodes.ProfileInvalid, "The profile's Calculator must be the sizing calculator's figures (from New-MailboxProfile -CalculatorPath), or null.", value);
            return Read(SettingSource.From(value));
        }

        private static CalculatorTargets Read(SettingSource source)
        {
            string Text(string name) => Convert.ToString(source.Get("", name), CultureInfo.InvariantCulture) ?? "";
            double Number(string name)
            {
                object? given = source.Get(null, name);
                if (given == null) return 0;
                if (NumberInput.TryParse(given, out double number) && !double.IsNaN(number) && !double.IsInfinity(number)) return number;
                throw new StorageTestException(ErrorCodes.ProfileInvalid, $"The profile's Calculator.{name} '{given}' is not a number.", given);
            }
            return new CalculatorTargets
            {
                Calculator = Text(CalculatorFields.Calculator),
                Version = Text(CalculatorFields.Version),
                Workbook = Text(CalculatorFields.Workbook),
                Role = Text(CalculatorFields.Role),
                MailboxesPerServer = (int)Number(CalculatorFields.MailboxesPerServer),
                DatabasesPerServer = (int)Number(CalculatorFields.DatabasesPerServer),
                DatabaseSizeGB = Number(CalculatorFields.DatabaseSizeGB),
                ServersPerDag = (int)Number(CalculatorFields.ServersPerDag),
                Dags = (int)Number(CalculatorFields.Dags),
                DatabaseIops = Number(CalculatorFields.DatabaseIops),
                LogIops = Number(CalculatorFields.LogIops),
                DatabaseReadShare = Number(CalculatorFields.DatabaseReadShare),
                MaintenanceMBPerSecond = Number(CalculatorFields.MaintenanceMBPerSecond),
                DatabaseReadsPerSecond = Number(CalculatorFields.DatabaseReadsPerSecond),
                DatabaseWritesPerSecond = Number(CalculatorFields.DatabaseWritesPerSecond),
                LogWritesPerSecond = Number(CalculatorFields.LogWritesPerSecond),
                LogReadsPerSecond = Number(CalculatorFields.LogReadsPerSecond),
                DatabaseCachePerMailboxMB = Number(CalculatorFields.DatabaseCachePerMailboxMB),
                Servers = PathInput.ToStrings(source.Get(null, CalculatorFields.Servers)).ToArray(),
            };
        }

        public static CaptureTargets? ReadCapture(object? value)
        {
            value = SettingSource.Unwrap(value);
            if (value == null) return null;
            if (value is CaptureTargets typed) value = JsonOf(typed);
            if (value is string || value is ValueType || value is Array)
                throw new StorageTestException(ErrorCodes.ProfileInvalid, "The profile's Capture must be a PerfMon capture's figures (from New-MailboxProfile -CapturePath), or null.", value);
            var source = SettingSource.From(value);
            string Text(string name) => Convert.ToString(source.Get("", name), CultureInfo.InvariantCulture) ?? "";
            double Number(string name)
            {
                object? given = source.Get(null, name);
                if (given == null) return 0;
                if (NumberInput.TryParse(given, out double number) && !double.IsNaN(number) && !double.IsInfinity(number)) return number;
                throw new StorageTestException(ErrorCodes.ProfileInvalid, $"The profile's Capture.{name} '{given}' is not a number.", given);
            }
            return new CaptureTargets
            {
                Captures = PathInput.ToStrings(source.Get(null, CaptureFields.Captures)).ToArray(),
                Servers = PathInput.ToStrings(source.Get(null, CaptureFields.Servers)).ToArray(),
                TimeZone = Text(CaptureFields.TimeZone),
                WindowStart = Text(CaptureFields.WindowStart),
                WindowEnd = Text(CaptureFields.WindowEnd),
                WindowNamed = System.Management.Automation.LanguagePrimitives.IsTrue(SettingSource.Unwrap(source.Get(false, CaptureFields.WindowNamed))),
                GrowthFactor = Number(CaptureFields.GrowthFactor),
                DatabaseIops = Number(CaptureFields.DatabaseIops),
                DatabaseReadsPerSecond = Number(CaptureFields.DatabaseReadsPerSecond),
                DatabaseWritesPerSecond = Number(CaptureFields.DatabaseWritesPerSecond),
                RecoveryReadsPerSecond = Number(CaptureFields.RecoveryReadsPerSecond),
                PeakDatabaseIops = Number(CaptureFields.PeakDatabaseIops),
                LogWritesPerSecond = Number(CaptureFields.LogWritesPerSecond),
                LogBytesPerSecond = Number(CaptureFields.LogBytesPerSecond),
                ReadLatencyMs = Number(CaptureFields.ReadLatencyMs),
                LogWriteLatencyMs = Number(CaptureFields.LogWriteLatencyMs),
                ReadBytes = Number(CaptureFields.ReadBytes),
                WriteBytes = Number(CaptureFields.WriteBytes),
                ActiveMailboxes = (int)Number(CaptureFields.ActiveMailboxes),
                TargetIops = Number(CaptureFields.TargetIops),
                CalculatorIops = Number(CaptureFields.CalculatorIops),
                TestedIops = Number(CaptureFields.TestedIops),
            };
        }

        public static JsonObject JsonOf(CaptureTargets targets)
        {
            var json = new JsonObject();
            foreach (var setting in targets.Settings()) json.Set(setting.Key, setting.Value);
            return json;
        }

        /// <summary>A part's settings by their contract names, as requests and saved profiles spell them.</summary>
        public static JsonObject JsonOf(CalculatorTargets targets)
        {
            var json = new JsonObject();
            foreach (var setting in targets.Settings()) json.Set(setting.Key, setting.Value);
            return json;
        }

        public static object[] JsonOf(ServerLayout[]? servers)
        {
            var list = new List<object>();
            foreach (ServerLayout server in servers ?? new ServerLayout[0])
            {
                var json = new JsonObject();
                foreach (var setting in server.Settings()) json.Set(setting.Key, setting.Value);
                list.Add(json);
            }
            return list.ToArray();
        }

        private static ServerLayout Copy(ServerLayout s) => new ServerLayout
        {
            Name = s.Name,
            DatabasePaths = (s.DatabasePaths ?? new string[0]).ToArray(),
            LogPaths = (s.LogPaths ?? new string[0]).ToArray(),
        };
    }
}
