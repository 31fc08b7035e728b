using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>
/// Windows host counters through PDH with English paths (locale-independent). Compiled on every OS but
/// only runnable on Windows (and under Wine in CI, whose PDH knows two counters). Counters PDH
/// refuses (e.g. a missing LogicalDisk instance) are skipped rather than failing the run, and listed
/// in <see cref="Unavailable"/> so the run can say so.
/// </summary>
public sealed class PdhHostCounterSampler : IHostCounterSampler
{
    private readonly List<(string Name, string Path)> _wanted = new();
    private readonly List<(string Name, string Path, nint Handle)> _counters = new();
    private readonly HostCounterAccumulator _acc = new();
    private readonly Dictionary<string, uint> _refused = new(StringComparer.Ordinal);
    private int _collections;
    private nint _query;

    public PdhHostCounterSampler(IEnumerable<string> volumes)
    {
        _wanted.Add((HostCounterNames.ProcessorTime, @"\Processor(_Total)\% Processor Time"));
        _wanted.Add((HostCounterNames.AvailableMBytes, @"\Memory\Available MBytes"));
        _wanted.Add((HostCounterNames.FreeSystemPageTableEntries, @"\Memory\Free System Page Table Entries"));
        _wanted.Add((HostCounterNames.TransitionPagesRePurposed, @"\Memory\Transition Pages RePurposed/sec"));
        _wanted.Add((HostCounterNames.PoolNonpagedBytes, @"\Memory\Pool Nonpaged Bytes"));
        _wanted.Add((HostCounterNames.PoolPagedBytes, @"\Memory\Pool Paged Bytes"));
        foreach (var v in volumes.Distinct(StringComparer.OrdinalIgnoreCase))
            foreach (var c in HostCounterNames.DiskCounters)
                _wanted.Add((HostCounterNames.Disk(v, c), HostCounterNames.Disk(v, c)));
    }

    /// <summary>The English paths this sampler asks PDH for (testable without PDH).</summary>
    public IReadOnlyList<(string Name, string Path)> CounterPaths => _wanted;

    public void Start()
    {
        if (!OperatingSystem.IsWindows())
            throw new Protocol.EngineException(ErrorCodes.PlatformNotSupported, "PDH counters exist only on Windows.");
        Open();
    }

    [SupportedOSPlatform("windows")]
    private void Open()
    {
        Check(PdhNative.PdhOpenQueryW(null, 0, out _query), "PdhOpenQuery");
        foreach (var (name, path) in _wanted)
        {
            uint status = PdhNative.PdhAddEnglishCounterW(_query, path, 0, out nint h);
            if (status == 0) _counters.Add((name, path, h));
            else _refused[path] = status;
        }
        // Rate counters need two collections; the first one is the baseline.
        PdhNative.PdhCollectQueryData(_query);
    }

    public void Sample()
    {
        if (!OperatingSystem.IsWindows() || _query == 0) return;
        Collect();
    }

    [SupportedOSPlatform("windows")]
    private void Collect()
    {
        if (PdhNative.PdhCollectQueryData(_query) != 0) return;
        _collections++;
        foreach (var (name, path, h) in _counters)
        {
            if (PdhNative.PdhGetFormattedCounterValue(h, PdhNative.PdhFmtDouble | PdhNative.PdhFmtNoCap100, out _, out var v) == 0
                && v.CStatus is 0 or 1)
                _acc.Add(name, HostCounterNames.SourcePdh, path, v.DoubleValue);
        }
    }

    public List<HostCounter> Results() => _acc.ToCounters();

    public IReadOnlyList<string> Unavailable
    {
        get
        {
            // A counter PDH accepted but never gave a valid value is only missing once a sample was taken.
            var measured = new HashSet<string>(_acc.ToCounters().Select(c => c.Name), StringComparer.Ordinal);
            return _wanted.Where(w => !measured.Contains(w.Name) && (_collections > 0 || _refused.ContainsKey(w.Path)))
                .Select(w => _refused.TryGetValue(w.Path, out uint status) ? $"{w.Path} (PDH status 0x{status:X8})" : $"{w.Path} (no valid value)")
                .ToList();
        }
    }

    public void Dispose()
    {
        if (_query != 0 && OperatingSystem.IsWindows()) PdhNative.PdhCloseQuery(_query);
        _query = 0;
    }

    private static void Check(uint status, string what)
    {
        if (status != 0)
            throw new Protocol.EngineException(ErrorCodes.PdhFailed, $"{what} failed with PDH status 0x{status:X8}.");
    }
}

/// <summary>pdh.dll declarations (research/windows.md section 4.1).</summary>
[SupportedOSPlatform("windows")]
internal static partial class PdhNative
{
    public const uint PdhFmtDouble = 0x200;
    public const uint PdhFmtNoCap100 = 0x8000;

    [StructLayout(LayoutKind.Explicit, Size = 16)]
    public struct PdhFmtCounterValue
    {
        [FieldOffset(0)] public uint CStatus;
        [FieldOffset(8)] public double DoubleValue;
    }

    [LibraryImport("pdh.dll", StringMarshalling = StringMarshalling.Utf16)]
    public static partial uint PdhOpenQueryW(string? dataSource, nint userData, out nint query);

    [LibraryImport("pdh.dll", StringMarshalling = StringMarshalling.Utf16)]
    public static partial uint PdhAddEnglishCounterW(nint query, string fullCounterPath, nint userData, out nint counter);

    [LibraryImport("pdh.dll")]
    public static partial uint PdhCollectQueryData(nint query);

    [LibraryImport("pdh.dll")]
    public static partial uint PdhGetFormattedCounterValue(nint counter, uint format, out uint type, out PdhFmtCounterValue value);

    [LibraryImport("pdh.dll")]
    public static partial uint PdhCloseQuery(nint query);
}
