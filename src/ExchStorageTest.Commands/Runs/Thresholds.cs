using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// The latency limits for a test type with the user's overrides applied. Defaults follow Jetstress
    /// (SPEC section 4): Strict for every type but Stress (20/100 ms DB read, 10/100 ms log write, 1 page-fault
    /// stall/s), Lenient for Stress (maxima 200 ms). The merge happens here, so a partial override never
    /// silently resets the other limits to Strict during a Stress run.
    /// </summary>
    internal static class Thresholds
    {
        private static readonly string[] Limits =
        {
            "averageDatabaseReadLatencyMs", "maximumDatabaseReadLatencyMs", "averageLogWriteLatencyMs", "maximumLogWriteLatencyMs", "maximumPageFaultStallsPerSecond",
        };

        public static JsonObject For(string testType, object? overrides)
        {
            bool stress = string.Equals(testType, "Stress", StringComparison.OrdinalIgnoreCase);
            var limits = new JsonObject()
                .Set("name", stress ? "Lenient" : "Strict")
                .Set(Limits[0], 20.0)
                .Set(Limits[1], stress ? 200.0 : 100.0)
                .Set(Limits[2], 10.0)
                .Set(Limits[3], stress ? 200.0 : 100.0)
                .Set(Limits[4], 1.0);
            overrides = SettingSource.Unwrap(overrides);
            if (overrides == null) return limits;

            string? name = null;
            bool customised = false;
            foreach (var (key, value) in Members(overrides))
            {
                if (string.Equals(key, "name", StringComparison.OrdinalIgnoreCase))
                {
                    name = Convert.ToString(SettingSource.Unwrap(value), System.Globalization.CultureInfo.InvariantCulture);
                    continue;
                }
                string? known = Limits.FirstOrDefault(l => string.Equals(l, key, StringComparison.OrdinalIgnoreCase));
                if (known == null)
                    throw StorageTestException.InvalidArgument("InvalidThresholds", $"Threshold '{key}' is not known: use {string.Join(", ", Limits)}.", key);
                limits.Set(known, new NumberRule(known, 0, 100_000, "InvalidThresholds", exclusiveMinimum: true).Check(value));
                customised = true;
            }
            if (customised) limits.Set("name", "Custom");
            if (!string.IsNullOrWhiteSpace(name)) limits.Set("name", name);
            return limits;
        }

        private static IEnumerable<(string, object?)> Members(object overrides)
        {
            if (overrides is IDictionary dictionary)
            {
                foreach (DictionaryEntry entry in dictionary) yield return (Convert.ToString(entry.Key, System.Globalization.CultureInfo.InvariantCulture) ?? "", entry.Value);
                yield break;
            }
            if (overrides is JsonObject json)
            {
                foreach (var member in json) yield return (member.Key, member.Value);
                yield break;
            }
            if (overrides is string || overrides is ValueType)
                throw StorageTestException.InvalidArgument("InvalidThresholds", $"Thresholds '{overrides}' is not valid: give a hashtable or object, for example @{{ averageDatabaseReadLatencyMs = 15 }}.", overrides);
            foreach (var property in PSObject.AsPSObject(overrides).Properties) yield return (property.Name, property.Value);
        }
    }
}
