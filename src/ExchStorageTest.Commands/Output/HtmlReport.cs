using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using ExchStorageTest.Contract;

namespace ExchStorageTest
{
    /// <summary>
    /// The run's HTML report among its report files: the page an admin opens next, so the result and report views
    /// show it. The engine names it as Jetstress does, "&lt;TestType&gt;_&lt;time&gt;.html", and no other page it writes
    /// starts with a test type (the one-run ESRP page is "Esrp_&lt;stem&gt;.html"; aggregates, comparisons and ESRP
    /// documents have their own prefixes), which is also how Jetstress automation finds the report (docs/jetstress.md).
    /// </summary>
    internal static class HtmlReport
    {
        public static string? Of(IEnumerable<string> reportPaths) => reportPaths.FirstOrDefault(IsTestReport);

        private static bool IsTestReport(string path)
        {
            string name = Path.GetFileName(path);
            return name.EndsWith(".html", StringComparison.OrdinalIgnoreCase)
                && !name.EndsWith(".esrp.html", StringComparison.OrdinalIgnoreCase)
                && Kinds.Any(kind => name.StartsWith(kind + "_", StringComparison.Ordinal));
        }

        /// <summary>What a run's files are named by: its test type, or "Streams" for a raw stream mix (the streams command).</summary>
        private static readonly string[] Kinds = Enum.GetNames(typeof(TestType)).Concat(new[] { "Streams" }).ToArray();
    }
}
