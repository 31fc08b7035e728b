using System.Collections.Generic;
using System.Collections;
using System.Globalization;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// -Thresholds as the request's <c>thresholds</c>: the members of a hashtable or object, as given. Their names
    /// and values are the engine's to check (an unknown name is UnknownField with the nearest known one, a value out
    /// of range ThresholdOutOfRange), and the engine applies them to the test type's preset, so a partial override
    /// keeps the other limits (a Stress run stays Lenient where it is not told otherwise). Numbers given as text are
    /// read with the invariant culture, as every number the module reads.
    /// </summary>
    internal static class ThresholdsInput
    {
        /// <summary>The overrides, or null when none were given.</summary>
        public static JsonObject? From(object? overrides)
        {
            overrides = SettingSource.Unwrap(overrides);
            if (overrides == null) return null;
            var json = new JsonObject();
            foreach (var (key, value) in Members(overrides))
            {
                object? given = SettingSource.Unwrap(value);
                json.Set(key, NumberInput.TryParse(given, out double number) && !(given is string && string.Equals(key, ThresholdFields.Name, StringComparison.OrdinalIgnoreCase))
                    ? number : given == null ? null : (object)Convert.ToString(given, CultureInfo.InvariantCulture)!);
            }
            return json;
        }

        private static IEnumerable<(string, object?)> Members(object overrides)
        {
            if (overrides is IDictionary dictionary)
            {
                foreach (DictionaryEntry entry in dictionary) yield return (Convert.ToString(entry.Key, CultureInfo.InvariantCulture) ?? "", entry.Value);
                yield break;
            }
            if (overrides is JsonObject json)
            {
                foreach (var member in json) yield return (member.Key, member.Value);
                yield break;
            }
            if (overrides is string || overrides is ValueType)
                throw new StorageTestException(ErrorCodes.InvalidThresholds, $"Thresholds '{overrides}' is not valid: give a hashtable or object, for example @{{ {ThresholdFields.AverageDatabaseReadLatencyMs} = 15 }}.", overrides);
            foreach (var property in PSObject.AsPSObject(overrides).Properties) yield return (property.Name, property.Value);
        }
    }
}
