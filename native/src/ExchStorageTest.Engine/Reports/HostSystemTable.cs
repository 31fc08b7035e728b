using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Counters;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>One row of "Host System Performance"; NaN where the figure does not exist, <see cref="Note"/> the number of the note that says why or what it covers.</summary>
public sealed record HostSystemRow(string Counter, double Average, double Minimum, double Maximum, int? Note)
{
    /// <summary>Counters in seconds per I/O (Avg. Disk sec/Read, /Write): sub-millisecond devices need more than Jetstress's 3 decimals.</summary>
    public bool InSeconds => Counter.Contains("sec/", StringComparison.Ordinal);

    /// <summary>The counter with its note mark, e.g. "Free System Page Table Entries [1]".</summary>
    public string Label => Note is int n ? $"{Counter} [{n}]" : Counter;

    /// <summary>
    /// A value as the tables print it: 3 decimals like Jetstress; counters in seconds with 6 decimals
    /// and the milliseconds beside them ("0.000110 (0.110 ms)"); nothing where there is no figure (its note says why).
    /// </summary>
    public string Format(double value, bool withMilliseconds = true)
    {
        if (double.IsNaN(value)) return "";
        if (!InSeconds) return JetFormat.Number(value);
        string seconds = JetFormat.Number(value, 6);
        return withMilliseconds ? $"{seconds} ({JetFormat.Number(value * 1000, 3)} ms)" : seconds;
    }
}

/// <summary>
/// The Jetstress "Host System Performance" table from a results document: Jetstress's seven rows in
/// its order (a counter the host has no equivalent of prints no figure, and a note with the reason), then the rest of
/// the host counters. Disk counters are marked with what they cover: the whole volume or block device,
/// every I/O to it and not only the test's. Text, HTML and XML print this one table.
/// </summary>
public sealed class HostSystemTable
{
    public const string DatabasePageFaultStalls = "Database Page Fault Stalls/sec";

    /// <summary>Jetstress's rows, in its order (SPEC section 5 and the reference reports).</summary>
    public static readonly IReadOnlyList<string> JetstressRows = new[]
    {
        HostCounterNames.ProcessorTime, HostCounterNames.AvailableMBytes, HostCounterNames.FreeSystemPageTableEntries,
        HostCounterNames.TransitionPagesRePurposed, HostCounterNames.PoolNonpagedBytes, HostCounterNames.PoolPagedBytes,
        DatabasePageFaultStalls,
    };

    public const string NoPageTableEntriesOnLinux =
        "None on Linux: the kernel allocates page tables as they are needed, so there is no pool of free system page table entries " +
        "to run out of; Page Tables Bytes (/proc/meminfo PageTables, the memory page tables take) is the nearest figure.";

    private static readonly Regex DiskCounter = new(@"^\\LogicalDisk\((?<disk>[^)]+)\)\\", RegexOptions.CultureInvariant);

    public required IReadOnlyList<HostSystemRow> Rows { get; init; }
    /// <summary>The numbered notes: <see cref="HostSystemRow.Note"/> n is Notes[n - 1].</summary>
    public required IReadOnlyList<string> Notes { get; init; }
    /// <summary>Remarks on the table as a whole.</summary>
    public required IReadOnlyList<string> Remarks { get; init; }

    /// <summary>The lines printed under the table: "[1] ..." for each note, then the remarks.</summary>
    public IEnumerable<string> Lines() => Notes.Select((n, i) => $"[{i + 1}] {n}").Concat(Remarks);

    public static HostSystemTable From(TestResults r)
    {
        var notes = new List<string>();
        var remarks = new List<string>();
        int NoteFor(string text)
        {
            int i = notes.IndexOf(text);
            if (i < 0) { notes.Add(text); i = notes.Count - 1; }
            return i + 1;
        }
        bool linux = r.HostCounters.Any(c => c.Source == HostCounterNames.SourceProc);
        var rows = new List<HostSystemRow>();
        foreach (var name in JetstressRows)
        {
            if (name == DatabasePageFaultStalls)
            {
                rows.Add(PageFaultStalls(r) ?? new HostSystemRow(name, double.NaN, double.NaN, double.NaN, NoteFor("The results hold no per-sample stall figures.")));
                continue;
            }
            var c = r.HostCounters.Find(x => x.Name == name);
            if (c is not null) rows.Add(new HostSystemRow(name, c.Average, c.Minimum, c.Maximum, null));
            else rows.Add(new HostSystemRow(name, double.NaN, double.NaN, double.NaN,
                NoteFor(linux && name == HostCounterNames.FreeSystemPageTableEntries ? NoPageTableEntriesOnLinux : "Not collected on this host.")));
        }
        foreach (var c in r.HostCounters.Where(c => !JetstressRows.Contains(c.Name)))
        {
            var disk = DiskCounter.Match(c.Name);
            int? note = disk.Success ? NoteFor(Covers(r, disk.Groups["disk"].Value, c.Source)) : null;
            rows.Add(new HostSystemRow(c.Name, c.Average, c.Minimum, c.Maximum, note));
        }
        if (r.InstanceSeries.Count > 0)
            remarks.Add($"{DatabasePageFaultStalls}: the engine's database cache model, summed over the instances at each sample (Jetstress reads the MSExchange Database counter).");
        if (linux)
            remarks.Add("Counters from /proc are the closest Linux equivalents of the Windows counters of the same name; the results file records each one's origin.");
        return new HostSystemTable { Rows = rows, Notes = notes, Remarks = remarks };
    }

    /// <summary>Sum over instances at each sample time, then average, minimum and maximum over the samples.</summary>
    private static HostSystemRow? PageFaultStalls(TestResults r)
    {
        if (r.InstanceSeries.Count == 0) return null;
        var perSample = r.InstanceSeries.GroupBy(s => s.TimeUtc).Select(g => g.Sum(s => s.PageFaultStallsPerSecond)).ToList();
        return new HostSystemRow(DatabasePageFaultStalls, perSample.Average(), perSample.Min(), perSample.Max(), null);
    }

    /// <summary>What a disk counter counts: the volume or block device as a whole, not only the test's I/O.</summary>
    private static string Covers(TestResults r, string disk, string source)
    {
        if (source != HostCounterNames.SourceProc) return $"Volume {disk} as a whole: every I/O to it counts, not only this test's.";
        string device = "/dev/" + disk;
        var mounts = r.Environment.Volumes.Where(v => v.Device == device && v.MountPoint is not null)
            .Select(v => v.MountPoint!).Distinct(StringComparer.Ordinal).ToList();
        string holds = mounts.Count == 0 ? "" : $" (it holds {string.Join(", ", mounts)}, where the test's folders are)";
        return $"Block device {device} as a whole{holds}: every I/O to it counts, not only this test's.";
    }
}
