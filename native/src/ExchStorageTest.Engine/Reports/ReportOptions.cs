namespace ExchStorageTest.Engine.Reports;

/// <summary>Presentation choices that are not part of the results (renderers stay pure functions of both).</summary>
public sealed record ReportOptions
{
    /// <summary>Zone for printed times; UTC unless told (the PDH-CSV log always uses a zone, PerfMon shows local time).</summary>
    public TimeZoneInfo TimeZone { get; init; } = TimeZoneInfo.Utc;
    /// <summary>File name of the PerfMon counter log shown as "Performance Log"; null when none was written.</summary>
    public string? PerformanceLogName { get; init; }
    /// <summary>The vendor's ESRP metadata (title and the rows no host can discover) for the ESRP renderings; null: none.</summary>
    public EsrpMetadata? EsrpMetadata { get; init; }

    public static readonly ReportOptions Default = new();
}
