using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// Which host a result comes from: its machine name and its profile's database folders. Hosts of a run
/// normally differ by machine name; the database folders tell apart hosts that share one (cloned VMs,
/// several simulated hosts on one machine, each with its own database set). Both stay the same over the
/// tests of an ESRP suite and over a run stopped and run again, even one stopped before its databases
/// existed (the profile is in every result, the instances are not).
/// </summary>
public static class HostKey
{
    public static string Of(TestResults r) =>
        r.Environment.MachineName + "\n" + string.Join("\n", r.Profile.DatabasePaths.OrderBy(p => p, StringComparer.Ordinal));

    /// <summary>
    /// The name each host goes by in a report: its machine name, numbered "#1", "#2" (in order of their
    /// database folders) where several hosts share one, so no two servers of a table read alike.
    /// </summary>
    public static IReadOnlyDictionary<string, string> Names(IEnumerable<TestResults> results)
    {
        var names = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var machine in results.GroupBy(r => r.Environment.MachineName, StringComparer.Ordinal))
        {
            var keys = machine.Select(Of).Distinct(StringComparer.Ordinal).OrderBy(k => k, StringComparer.Ordinal).ToList();
            for (int i = 0; i < keys.Count; i++)
                names[keys[i]] = keys.Count == 1 ? machine.Key : $"{machine.Key} #{i + 1}";
        }
        return names;
    }
}
