using System.Collections.Generic;
using System.Management.Automation;

namespace ExchStorageTest.Json
{
    /// <summary>
    /// Turns parsed JSON into what ConvertFrom-Json gives: objects become PSCustomObjects (members as note
    /// properties, so <c>$report.Esrp.Servers</c> works in any case), arrays become object arrays, and
    /// strings, numbers and booleans stay as they are. Used for the engine's open-ended tables (ESRP,
    /// comparison, instance counters), whose fields a newer engine may extend without a module change.
    /// </summary>
    internal static class JsonToPowerShell
    {
        public static object? Convert(object? value)
        {
            switch (value)
            {
                case JsonObject json:
                    return ToPSObject(json);
                case List<object?> items:
                    var array = new object?[items.Count];
                    for (int i = 0; i < items.Count; i++) array[i] = Convert(items[i]);
                    return array;
                default:
                    return value;
            }
        }

        public static PSObject ToPSObject(JsonObject json)
        {
            var result = new PSObject();
            foreach (var member in json) result.Properties.Add(new PSNoteProperty(member.Key, Convert(member.Value)));
            return result;
        }
    }
}
