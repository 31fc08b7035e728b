using System;
using System.Collections.Generic;
using System.Linq;

namespace ExchStorageTest
{
    /// <summary>
    /// The run's HTML report among its report files: the page an admin opens next, so the result and report views
    /// show it. The engine names it after the results file with ".html"; the standalone ESRP page is ".esrp.html".
    /// </summary>
    internal static class HtmlReport
    {
        public static string? Of(IEnumerable<string> reportPaths) => reportPaths.FirstOrDefault(p =>
            p.EndsWith(".html", StringComparison.OrdinalIgnoreCase) && !p.EndsWith(".esrp.html", StringComparison.OrdinalIgnoreCase));
    }
}
