namespace ExchStorageTest.Engine.Reports;

/// <summary>Presentation choices that are not part of the results (renderers stay pure functions of both).</summary>
public sealed record ReportOptions
{
    /// <summary>Zone for printed times; UTC unless told (the PDH-CSV log always uses a zone, PerfMon shows local time).</summary>
    public TimeZoneInfo TimeZone { get; init; } = TimeZoneInfo.Utc;
    /// <summary>
    /// The PerfMon counter log shown as "Performance Log": its file name beside the report (its full path when elsewhere);
    /// null when none was written. <see cref="ReportWriter"/> fills it with the log it writes or the run's own.
    /// </summary>
    public string? PerformanceLogName { get; init; }
    /// <summary>The vendor's ESRP metadata (title and the rows no host can discover) for the ESRP renderings; null: none.</summary>
    public EsrpMetadata? EsrpMetadata { get; init; }

    public static readonly ReportOptions Default = new();
}
