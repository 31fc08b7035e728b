using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Capture;

/// <summary>
/// A binary PerfMon log (.blg, what ExPerfWiz's data collector set writes) read on Windows through the Performance
/// Data Helper, as relog reads it: <c>PdhBindInputDataSource</c> opens the log, <c>PdhExpandWildCardPathH</c> lists
/// the counters of the objects the derivation reads, a query over the log (<c>PdhOpenQueryH</c>, <c>PdhAddCounter</c>)
/// is collected sample by sample (<c>PdhCollectQueryData</c> until PDH_NO_MORE_DATA), each value formatted as a
/// double and each sample's time taken from the raw value's time stamp. Elsewhere a .blg is refused: turn it into a
/// CSV on Windows first (<c>relog log.blg -f csv -o log.csv</c>). Exercised on Windows only: Wine has no pdh.dll that
/// reads logs, so no test here reaches this code (docs/capture.md says so).
/// </summary>
public static class PdhLog
{
    /// <summary>The objects the derivation reads (<see cref="CaptureCounters"/>): only these are expanded and collected.</summary>
    private static readonly string[] Wildcards =
    {
        @"\\*\" + CaptureCounters.DatabaseObject + @"(*)\*",
        @"\\*\" + CaptureCounters.StoreObject + @"(*)\*",
    };

    public static PerfmonLog Read(string path)
    {
        if (!OperatingSystem.IsWindows())
            throw EngineException.Refused(ErrorCodes.CaptureNotPerfmon,
                $"The capture '{path}' is a binary PerfMon log (.blg), which only Windows' Performance Data Helper reads: turn it into a CSV there (relog \"{Path.GetFileName(path)}\" -f csv -o capture.csv) and give that.", path);
        return ReadWindows(path);
    }

    [SupportedOSPlatform("windows")]
    private static PerfmonLog ReadWindows(string path)
    {
        Check(PdhBindInputDataSourceW(out IntPtr source, path + "\0"), path, "PdhBindInputDataSource");
        try
        {
            Check(PdhOpenQueryH(source, IntPtr.Zero, out IntPtr query), path, "PdhOpenQueryH");
            try
            {
                var counters = new List<CounterPath>();
                var handles = new List<IntPtr>();
                foreach (string wildcard in Wildcards)
                    foreach (string expanded in Expand(source, wildcard, path))
                    {
                        if (CounterPath.Parse(expanded) is not { } counter) continue;
                        if (PdhAddCounterW(query, expanded, IntPtr.Zero, out IntPtr handle) != 0) continue;
                        counters.Add(counter);
                        handles.Add(handle);
                    }
                var times = new List<DateTime>();
                var values = new List<double[]>();
                while (PdhCollectQueryData(query) == 0)
                {
                    var row = new double[handles.Count];
                    DateTime? time = null;
                    for (int c = 0; c < handles.Count; c++)
                    {
                        row[c] = PdhGetFormattedCounterValue(handles[c], PdhFmtDouble | PdhFmtNoCap100, out _, out var value) == 0 && value.CStatus == 0 ? value.DoubleValue : double.NaN;
                        // PDH_RAW_COUNTER.TimeStamp is the local time of the sample (as a CSV's first cell is): taken as it is, not converted.
                        if (time is null && PdhGetRawCounterValue(handles[c], out _, out var raw) == 0 && raw.TimeStamp != 0)
                            time = DateTime.SpecifyKind(DateTime.FromFileTimeUtc(raw.TimeStamp), DateTimeKind.Unspecified);
                    }
                    if (time is null) continue;
                    times.Add(time.Value);
                    values.Add(row);
                }
                // A .blg's header zone is not read: the zone named is the reading machine's (relog on the capturing server names its own).
                return new PerfmonLog { File = path, TimeZone = TimeZoneInfo.Local.StandardName, BiasMinutes = (int)-TimeZoneInfo.Local.BaseUtcOffset.TotalMinutes, Counters = counters, Times = times, Values = values };
            }
            finally { PdhCloseQuery(query); }
        }
        finally { PdhCloseLog(source, 0); }
    }

    [SupportedOSPlatform("windows")]
    private static IEnumerable<string> Expand(IntPtr source, string wildcard, string path)
    {
        uint length = 0;
        uint status = PdhExpandWildCardPathHW(source, wildcard, null, ref length, 0);
        if (status != PdhMoreData || length == 0) return Array.Empty<string>();
        var buffer = new char[length];
        Check(PdhExpandWildCardPathHW(source, wildcard, buffer, ref length, 0), path, "PdhExpandWildCardPathH");
        return new string(buffer, 0, (int)length).Split('\0', StringSplitOptions.RemoveEmptyEntries);
    }

    private static void Check(uint status, string path, string call)
    {
        if (status != 0)
            throw EngineException.Refused(ErrorCodes.CaptureNotPerfmon, $"The capture '{path}' is not a PerfMon log PDH reads: {call} answered 0x{status:X8}.", path);
    }

    private const uint PdhMoreData = 0x800007D2;
    private const uint PdhFmtDouble = 0x00000200;
    private const uint PdhFmtNoCap100 = 0x00008000;

    [StructLayout(LayoutKind.Explicit)]
    private struct PdhFmtCounterValue
    {
        [FieldOffset(0)] public uint CStatus;
        [FieldOffset(8)] public double DoubleValue;
    }

    /// <summary>PDH_RAW_COUNTER: its FILETIME is two DWORDs at offset 4 (not a 64-bit field, which would sit at 8).</summary>
    [StructLayout(LayoutKind.Sequential)]
    private struct PdhRawCounter
    {
        public uint CStatus;
        public uint TimeStampLow;
        public uint TimeStampHigh;
        public long FirstValue;
        public long SecondValue;
        public uint MultiCount;

        public long TimeStamp => ((long)TimeStampHigh << 32) | TimeStampLow;
    }

    [DllImport("pdh.dll", CharSet = CharSet.Unicode)] private static extern uint PdhBindInputDataSourceW(out IntPtr dataSource, string logFileNameList);
    [DllImport("pdh.dll")] private static extern uint PdhOpenQueryH(IntPtr dataSource, IntPtr userData, out IntPtr query);
    [DllImport("pdh.dll", CharSet = CharSet.Unicode)] private static extern uint PdhExpandWildCardPathHW(IntPtr dataSource, string wildCardPath, [Out] char[]? expandedPathList, ref uint pathListLength, uint flags);
    [DllImport("pdh.dll", CharSet = CharSet.Unicode)] private static extern uint PdhAddCounterW(IntPtr query, string fullCounterPath, IntPtr userData, out IntPtr counter);
    [DllImport("pdh.dll")] private static extern uint PdhCollectQueryData(IntPtr query);
    [DllImport("pdh.dll")] private static extern uint PdhGetFormattedCounterValue(IntPtr counter, uint format, out uint type, out PdhFmtCounterValue value);
    [DllImport("pdh.dll")] private static extern uint PdhGetRawCounterValue(IntPtr counter, out uint type, out PdhRawCounter value);
    [DllImport("pdh.dll")] private static extern uint PdhCloseQuery(IntPtr query);
    [DllImport("pdh.dll")] private static extern uint PdhCloseLog(IntPtr log, uint flags);
}
