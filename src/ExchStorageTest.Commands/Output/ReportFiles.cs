using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// The report files an event names, by kind (<see cref="ReportKinds"/>): the engine says which file is which, so the
    /// module never guesses from a file name (the engine is free to rename its reports).
    /// </summary>
    internal static class ReportFiles
    {
        /// <summary>The files of an event's <c>reports</c> array of these kinds, in the event's order.</summary>
        public static IEnumerable<string> OfKind(JsonObject fields, string arrayName, params string[] kinds) =>
            fields.GetArray(arrayName).OfType<JsonObject>()
                .Where(f => kinds.Contains(f.GetString(EventFields.ReportFile.Kind)))
                .Select(f => f.GetString(EventFields.ReportFile.Path))
                .Where(p => !string.IsNullOrEmpty(p)).Select(p => p!);

        /// <summary>The page to open among an event's report files: a run's HTML report, else a deployment's capacity page or a comparison.</summary>
        public static string? Page(JsonObject fields, string arrayName)
        {
            foreach (string kind in ReportKinds.Pages)
                if (OfKind(fields, arrayName, kind).FirstOrDefault() is string page) return page;
            return null;
        }
    }
}
