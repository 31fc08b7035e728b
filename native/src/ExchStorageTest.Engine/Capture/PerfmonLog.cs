namespace ExchStorageTest.Engine.Capture;

/// <summary>
/// A PerfMon log as read (<see cref="PerfmonCsv"/>, <see cref="PdhLog"/>): its clock, its counters and one row per
/// sample. A value is NaN where the log has none (relog writes a blank cell as " ").
/// </summary>
public sealed class PerfmonLog
{
    public required string File { get; init; }
    /// <summary>The time zone the first header cell names ("W. Europe Standard Time"); "" when the log has none (.blg).</summary>
    public required string TimeZone { get; init; }
    /// <summary>The header's bias in minutes (UTC = local + bias, as Windows' TIME_ZONE_INFORMATION.Bias).</summary>
    public int BiasMinutes { get; init; }
    /// <summary>How numbers and dates were read: "en-US" (MM/dd/yyyy, 1.5) or "de-DE" (dd.MM.yyyy, 1,5).</summary>
    public string Locale { get; init; } = "en-US";
    public required IReadOnlyList<CounterPath> Counters { get; init; }
    /// <summary>Each sample's time on the log's (local) clock, in file order.</summary>
    public required IReadOnlyList<DateTime> Times { get; init; }
    /// <summary>Values[row][counter].</summary>
    public required IReadOnlyList<double[]> Values { get; init; }
}
