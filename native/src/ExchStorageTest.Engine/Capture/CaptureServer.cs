using System.Globalization;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Capture;

/// <summary>
/// One captured server's samples, per database, of the counters the derivation reads (<see cref="CaptureCounters"/>),
/// gathered from every log that names it. A sample missing any required value of any of its databases (relog writes
/// " " for a rate counter's first sample, and where the collector got nothing) is left out, not counted as zero.
/// </summary>
public sealed class CaptureServer
{
    /// <summary>The counter slots of <see cref="Sample.Values"/>: the required ones first, then the optional ones, then Active mailboxes.</summary>
    internal static readonly string[] Slots = CaptureCounters.Required.Concat(CaptureCounters.Optional).ToArray();
    internal const int Reads = 0, Writes = 1, ReadLatency = 2, LogWrites = 3, RecoveryReads = 4, LogWriteLatency = 5, LogBytes = 6, ReadBytes = 7, WriteBytes = 8;

    public required string Name { get; init; }
    public required IReadOnlyList<string> Databases { get; init; }
    /// <summary>Every row's time of the logs that hold the server (blank rows included): where its capture starts, ends and pauses.</summary>
    public required IReadOnlyList<DateTime> RowTimes { get; init; }
    public required IReadOnlyList<Sample> Samples { get; init; }
    /// <summary>The usual step between rows (their median), seconds.</summary>
    public double IntervalSeconds { get; init; }
    /// <summary>Whether every database has "MSExchangeIS Store(&lt;database&gt;)\Active mailboxes".</summary>
    public bool HasMailboxes { get; init; }
    /// <summary>Optional counters no database of the server has.</summary>
    public IReadOnlyList<string> Absent { get; init; } = Array.Empty<string>();

    /// <summary>One complete sample: Values[database][slot] (NaN where an optional counter is absent), Mailboxes[database].</summary>
    public sealed record Sample(DateTime Time, double[][] Values, double[] Mailboxes)
    {
        public double DatabaseIops => Values.Sum(v => v[Reads] + v[Writes]);
    }

    /// <summary>The servers of <paramref name="logs"/>, each with all its databases' required counters, or a refusal naming what is missing.</summary>
    public static IReadOnlyList<CaptureServer> From(IReadOnlyList<PerfmonLog> logs)
    {
        var columns = new Dictionary<string, List<(PerfmonLog Log, int Column, CounterPath Path)>>(StringComparer.OrdinalIgnoreCase);
        foreach (var log in logs)
        {
            CheckClock(log);
            for (int c = 0; c < log.Counters.Count; c++)
            {
                var path = log.Counters[c];
                if (!columns.TryGetValue(path.Server, out var list)) columns[path.Server] = list = new();
                list.Add((log, c, path));
            }
        }
        bool Database((PerfmonLog, int, CounterPath Path) x) =>
            x.Path.Object.Equals(CaptureCounters.DatabaseObject, StringComparison.OrdinalIgnoreCase) && CaptureCounters.Database(x.Path.Instance) is not null;
        if (!columns.Values.Any(l => l.Any(Database)))
        {
            var instances = columns.Values.SelectMany(l => l).Where(x => x.Path.Object.Equals(CaptureCounters.DatabaseObject, StringComparison.OrdinalIgnoreCase))
                .Select(x => x.Path.Instance ?? "").Distinct().Take(5).ToList();
            throw EngineException.Refused(ErrorCodes.CaptureNoDatabaseCounters,
                $"The capture '{string.Join("', '", logs.Select(l => l.File))}' has no Exchange database counters: no '\\\\<server>\\{CaptureCounters.DatabaseObject}(Information Store - <database>/_Total)\\{CaptureCounters.Reads}'"
                + (instances.Count > 0 ? $" (its instances of that object are '{string.Join("', '", instances)}', none a database's)" : $" (it has no '{CaptureCounters.DatabaseObject}' object at all)")
                + ". Capture the mailbox servers with ExPerfWiz, or with '\\MSExchange Database ==> Instances(*)\\*' and '\\MSExchangeIS Store(*)\\*' in the collector.",
                logs[0].File);
        }
        var servers = new List<CaptureServer>();
        foreach (var (name, list) in columns.OrderBy(p => p.Key, StringComparer.OrdinalIgnoreCase))
        {
            var databases = list.Where(Database).Select(x => CaptureCounters.Database(x.Path.Instance)!).Distinct(StringComparer.OrdinalIgnoreCase).OrderBy(d => d, StringComparer.OrdinalIgnoreCase).ToList();
            if (databases.Count == 0)
                throw EngineException.Refused(ErrorCodes.CaptureCountersMissing,
                    $"The capture's server '{name}' has no Exchange database counters ('{CaptureCounters.DatabaseObject}(Information Store - <database>/_Total)') while other servers of it have: capture it with them too, or leave its columns out (relog -c).", name);
            servers.Add(Build(name, databases, list));
        }
        return servers;
    }

    private static CaptureServer Build(string name, List<string> databases, List<(PerfmonLog Log, int Column, CounterPath Path)> columns)
    {
        var absent = new List<string>();
        var samples = new List<Sample>();
        var rowTimes = new List<DateTime>();
        bool hasMailboxes = true;
        foreach (var group in columns.GroupBy(x => x.Log))
        {
            var log = group.Key;
            // slot[database][counter] = the log's column, or -1.
            var slots = new int[databases.Count][];
            var mailboxColumns = new int[databases.Count];
            for (int d = 0; d < databases.Count; d++)
            {
                slots[d] = Enumerable.Repeat(-1, Slots.Length).ToArray();
                mailboxColumns[d] = -1;
                foreach (var (_, column, path) in group)
                {
                    if (path.Object.Equals(CaptureCounters.DatabaseObject, StringComparison.OrdinalIgnoreCase)
                        && string.Equals(CaptureCounters.Database(path.Instance), databases[d], StringComparison.OrdinalIgnoreCase))
                    {
                        int slot = Array.FindIndex(Slots, s => s.Equals(path.Counter, StringComparison.OrdinalIgnoreCase));
                        if (slot >= 0) slots[d][slot] = column;
                    }
                    else if (path.Is(CaptureCounters.StoreObject, CaptureCounters.ActiveMailboxes)
                             && string.Equals(CaptureCounters.StoreDatabase(path.Instance), databases[d], StringComparison.OrdinalIgnoreCase))
                        mailboxColumns[d] = column;
                }
                for (int s = 0; s < CaptureCounters.Required.Length; s++)
                    if (slots[d][s] < 0)
                        throw EngineException.Refused(ErrorCodes.CaptureCountersMissing,
                            $"The capture's server '{name}' has no '\\\\{name}\\{CaptureCounters.DatabaseObject}(Information Store - {databases[d]}/_Total)\\{Slots[s]}' in '{log.File}': the derivation needs {string.Join(", ", CaptureCounters.Required.Select(r => $"'{r}'"))} of every database. Capture the whole object ('\\{CaptureCounters.DatabaseObject}(*)\\*', as ExPerfWiz does).",
                            name);
                if (mailboxColumns[d] < 0) hasMailboxes = false;
            }
            for (int s = CaptureCounters.Required.Length; s < Slots.Length; s++)
                if (slots.All(d => d[s] < 0) && !absent.Contains(Slots[s])) absent.Add(Slots[s]);
            for (int row = 0; row < log.Times.Count; row++)
            {
                rowTimes.Add(log.Times[row]);
                var values = new double[databases.Count][];
                var mailboxes = new double[databases.Count];
                bool complete = true;
                for (int d = 0; d < databases.Count && complete; d++)
                {
                    values[d] = slots[d].Select(c => c < 0 ? double.NaN : log.Values[row][c]).ToArray();
                    for (int s = 0; s < CaptureCounters.Required.Length; s++) complete &= !double.IsNaN(values[d][s]);
                    mailboxes[d] = mailboxColumns[d] < 0 ? double.NaN : log.Values[row][mailboxColumns[d]];
                }
                if (complete) samples.Add(new Sample(log.Times[row], values, mailboxes));
            }
        }
        rowTimes.Sort();
        samples.Sort((a, b) => a.Time.CompareTo(b.Time));
        var steps = rowTimes.Zip(rowTimes.Skip(1), (a, b) => (b - a).TotalSeconds).Where(s => s > 0).OrderBy(s => s).ToList();
        return new CaptureServer
        {
            Name = name, Databases = databases, RowTimes = rowTimes, Samples = samples, HasMailboxes = hasMailboxes, Absent = absent,
            IntervalSeconds = steps.Count == 0 ? 0 : steps[steps.Count / 2],
        };
    }

    /// <summary>
    /// A log's clock must go forward: PerfMon writes local time, so the autumn change to standard time repeats an hour
    /// (02:00-02:59 twice) and a clock set back repeats whatever it skipped. Its samples cannot be placed in one
    /// timeline; refused naming the rows. (The spring change skips an hour: a gap, which no window spans, see <see cref="CaptureWindow"/>.)
    /// </summary>
    private static void CheckClock(PerfmonLog log)
    {
        for (int i = 1; i < log.Times.Count; i++)
            if (log.Times[i] <= log.Times[i - 1])
                throw EngineException.Refused(ErrorCodes.CaptureClockChanged,
                    string.Format(CultureInfo.InvariantCulture,
                        "The capture '{0}' goes back in time from row {1} ({2:yyyy-MM-dd HH:mm:ss}) to row {3} ({4:yyyy-MM-dd HH:mm:ss}): a daylight-saving change back to standard time repeats an hour on PerfMon's local clock, and the two cannot be told apart. Relog the capture without that hour (relog -b/-e) and give that.",
                        log.File, i + 1, log.Times[i - 1], i + 2, log.Times[i]), log.File);
    }
}
