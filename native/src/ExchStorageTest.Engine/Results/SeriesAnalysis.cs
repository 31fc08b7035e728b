namespace ExchStorageTest.Engine.Results;

/// <summary>
/// What the measured window's time series say beyond their averages (docs/results-schema.md, "Series
/// analysis"): sustained steps (storage that changed mid-run) and when each series settled. Computed by
/// <see cref="Analysis.SeriesFindings"/> from <see cref="TestResults.TimeSeries"/>; null where no series was judged.
/// </summary>
public sealed class SeriesAnalysis
{
    /// <summary>One entry per series judged: the whole run's transactional IOPS and its database read and log write latencies.</summary>
    public List<SeriesSettling> Series { get; set; } = new();
    /// <summary>Every sustained step, in time order.</summary>
    public List<SeriesStep> Steps { get; set; } = new();
}

/// <summary>One series and when it settled.</summary>
public sealed class SeriesSettling
{
    /// <summary><see cref="Analysis.SeriesFindings.TransactionalIops"/>, <see cref="Analysis.SeriesFindings.DatabaseReadLatency"/> or <see cref="Analysis.SeriesFindings.LogWriteLatency"/>.</summary>
    public string Series { get; set; } = "";
    public string Unit { get; set; } = "";
    public int Samples { get; set; }
    public double Mean { get; set; }
    /// <summary>The sample-to-sample noise (a robust standard deviation) the steps were judged against.</summary>
    public double Noise { get; set; }
    /// <summary>
    /// The smallest step or transient this series is judged to have, in its unit: a tenth of the limit of the rule it
    /// concerns (<see cref="Analysis.RuleFloor"/>); 0 where no rule concerns it (IOPS without a target).
    /// </summary>
    public double Floor { get; set; }
    /// <summary>The level it settled at (the median of its last third).</summary>
    public double SettledLevel { get; set; }
    /// <summary>Seconds from the start of the measured window to the first settled sample's interval; null when it never settled.</summary>
    public double? SettledAtSeconds { get; set; }
    /// <summary>The transient share of the measured window (0: steady from the start; 1: never settled).</summary>
    public double TransientShare { get; set; }
    /// <summary>The finding in words; null for a series steady from the start.</summary>
    public string? Message { get; set; }
}

/// <summary>A sustained step in one series.</summary>
public sealed class SeriesStep
{
    public string Series { get; set; } = "";
    public string Unit { get; set; } = "";
    /// <summary>The start of the first sample interval at the new level.</summary>
    public DateTime TimeUtc { get; set; }
    /// <summary><see cref="TimeUtc"/> in seconds from the start of the measured window.</summary>
    public double AtSeconds { get; set; }
    /// <summary>The mean level before the step and after it (until the next step or the end).</summary>
    public double Before { get; set; }
    public double After { get; set; }
    /// <summary>After over before minus one, in percent (-58: fell 58%).</summary>
    public double ChangePercent { get; set; }
    /// <summary>True for a fall in IOPS or a rise in latency: the storage got worse.</summary>
    public bool Adverse { get; set; }
    /// <summary>True when the new level lasted to the end of the measured window.</summary>
    public bool Stayed { get; set; }
    /// <summary>How long the new level lasted (to the next step or the end), in seconds.</summary>
    public double LastedSeconds { get; set; }
    public string Message { get; set; } = "";
}
