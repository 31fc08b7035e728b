using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>One test of an ESRP submission: its type and, per host, the run that counts.</summary>
public sealed record EsrpTest(TestType TestType, IReadOnlyList<TestResults> Hosts)
{
    /// <summary>Every host's run of this test completed (ran its whole window or its whole backup / replay).</summary>
    public bool Complete => Hosts.Count > 0 && Hosts.All(h => h.Completion == Completions.Complete);

    /// <summary>Pass only when every host's run passed; Stopped or Interrupted when one was and none failed (<see cref="Verdicts.Combine"/>).</summary>
    public string Result => Verdicts.Combine(Hosts.Select(h => h.Verdict.Result));
}

/// <summary>
/// Whether a host ran every test of the suite on one database set (ESRP: the tests follow each other on
/// the same databases); <see cref="Detail"/> says which test departed from it, or that it could not be told.
/// </summary>
public sealed record EsrpDatabaseSet(string Host, bool Same, string Detail);

/// <summary>
/// The results of an ESRP submission sorted into its tests in ESRP order: Performance, Stress,
/// DatabaseBackup, SoftRecovery (a Throughput run or a capacity search, not ESRP tests, come last when given). Per host
/// and test the run that counts is the latest that completed; a run stopped part-way and run again
/// (a resumed suite) is superseded, not counted twice, and listed in <see cref="Superseded"/>. A host
/// with no completed run of a test contributes its latest run, and the test is then not
/// <see cref="EsrpTest.Complete"/>. Hosts are told apart by <see cref="HostKey"/>.
/// </summary>
public sealed class EsrpSuite
{
    /// <summary>The four ESRP tests, in the order they run on one database set.</summary>
    public static readonly IReadOnlyList<TestType> Order = new[] { TestType.Performance, TestType.Stress, TestType.DatabaseBackup, TestType.SoftRecovery };

    public required IReadOnlyList<EsrpTest> Tests { get; init; }
    /// <summary>Runs replaced by a later (or completed) run of the same test on the same host.</summary>
    public required IReadOnlyList<TestResults> Superseded { get; init; }
    /// <summary>The name of each host (by <see cref="HostKey"/>) as the document prints it.</summary>
    public required IReadOnlyDictionary<string, string> HostNames { get; init; }

    /// <summary>ESRP tests none of the results is a run of.</summary>
    public IReadOnlyList<TestType> Missing => Order.Where(t => Of(t).Count == 0).ToList();

    /// <summary>Results of two or more of the four ESRP tests: a submission, not runs to compare.</summary>
    public bool IsSubmission => Order.Count(t => Of(t).Count > 0) >= 2;

    /// <summary>Every run that counts, in test order.</summary>
    public IReadOnlyList<TestResults> Selected => Tests.SelectMany(t => t.Hosts).ToList();

    public IReadOnlyList<TestResults> Of(TestType type) => Tests.FirstOrDefault(t => t.TestType == type)?.Hosts ?? Array.Empty<TestResults>();

    public string HostName(TestResults r) => HostNames.TryGetValue(HostKey.Of(r), out var name) ? name : r.Environment.MachineName;

    public static EsrpSuite From(IEnumerable<TestResults> results)
    {
        var all = results.ToList();
        var tests = new List<EsrpTest>();
        var superseded = new List<TestResults>();
        foreach (var type in Order.Append(TestType.Throughput).Append(TestType.Capacity))
        {
            var chosen = new List<TestResults>();
            foreach (var host in all.Where(r => r.TestType == type).GroupBy(HostKey.Of, StringComparer.Ordinal))
            {
                var ranked = host.OrderByDescending(r => r.Completion == Completions.Complete).ThenByDescending(r => r.Timeline.TestStartUtc).ToList();
                chosen.Add(ranked[0]);
                superseded.AddRange(ranked.Skip(1));
            }
            if (chosen.Count > 0)
                tests.Add(new EsrpTest(type, chosen.OrderBy(r => r.Environment.MachineName, StringComparer.Ordinal).ThenBy(HostKey.Of, StringComparer.Ordinal).ToList()));
        }
        return new EsrpSuite
        {
            Tests = tests,
            Superseded = superseded.OrderBy(r => r.Timeline.TestStartUtc).ToList(),
            HostNames = HostKey.Names(all),
        };
    }

    /// <summary>
    /// Per host: did every test use the databases of its first test? The instance ids in the database
    /// headers say (a re-created database gets a new one); a later test that created databases also says so.
    /// </summary>
    public IReadOnlyList<EsrpDatabaseSet> DatabaseSets()
    {
        var sets = new List<EsrpDatabaseSet>();
        foreach (var host in Selected.GroupBy(HostKey.Of, StringComparer.Ordinal))
        {
            var runs = host.ToList();
            string name = HostName(runs[0]);
            if (runs.Count < 2)
            {
                sets.Add(new EsrpDatabaseSet(name, true, $"one test ({runs[0].TestType})"));
                continue;
            }
            string Ids(TestResults r) => string.Join(",", r.Instances.Select(i => i.InstanceId).OrderBy(i => i, StringComparer.Ordinal));
            if (runs.Any(r => r.Instances.Count == 0 || r.Instances.Any(i => string.IsNullOrEmpty(i.InstanceId))))
            {
                sets.Add(new EsrpDatabaseSet(name, false, "not known: a results file names no database instance ids"));
                continue;
            }
            var first = runs[0];
            var differs = runs.Skip(1).Where(r => Ids(r) != Ids(first)).Select(r => r.TestType.ToString()).ToList();
            var recreated = runs.Skip(1).Where(r => r.Instances.Any(i => i.DatabaseCreated)).Select(r => r.TestType.ToString()).ToList();
            string tested = string.Join(", ", runs.Select(r => r.TestType));
            if (differs.Count == 0 && recreated.Count == 0)
                sets.Add(new EsrpDatabaseSet(name, true, $"the same {Wording.Count(first.Instances.Count, "database")} in {tested}"));
            else
                sets.Add(new EsrpDatabaseSet(name, false, differs.Count > 0
                    ? $"{string.Join(", ", differs)} ran on other databases than {first.TestType}"
                    : $"{string.Join(", ", recreated)} created its databases anew"));
        }
        return sets;
    }
}
