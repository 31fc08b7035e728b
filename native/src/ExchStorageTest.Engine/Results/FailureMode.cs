namespace ExchStorageTest.Engine.Results;

/// <summary>
/// The failure-mode part of a run (results <c>failureMode</c>, docs/failure-mode.md): the stalls found on every volume
/// (declared fault or not), the per-second series of each volume they and the fault window are judged from, and — when a
/// fault window was declared or a re-judgement gave one — that window, its script and its judgement apart from the
/// steady state. Written for every Performance, Stress and Throughput run; null for the other test types.
/// </summary>
public sealed class FailureModeResult
{
    /// <summary>The limit a stall is judged against (the request's stallLimitSeconds or the default).</summary>
    public double StallLimitSeconds { get; set; }
    /// <summary>The shortest stall found and named (<see cref="Contract.FaultRules.StallDetectSeconds"/>).</summary>
    public double StallDetectSeconds { get; set; }
    /// <summary>The declared window; null when none was declared.</summary>
    public FaultWindow? Window { get; set; }
    /// <summary>The fault script's run on this host, or where it ran instead; null without a script.</summary>
    public FaultScriptRun? Script { get; set; }
    /// <summary>The reseed the window carried (a database copy streamed onto a spare folder) and its impact; null without one.</summary>
    public ReseedRun? Reseed { get; set; }
    /// <summary>Every stall found in the measured window, in time order, declared window or not.</summary>
    public List<StallRecord> Stalls { get; set; } = new();
    /// <summary>
    /// Each volume's one-second samples over the measured window (all of it up to an hour; beyond, the seconds around the
    /// fault window and each stall: <see cref="VolumeSeriesSpan"/> says which).
    /// </summary>
    public List<VolumeSecond> VolumeSeries { get; set; } = new();
    /// <summary>"Whole" or "AroundEvents": which seconds <see cref="VolumeSeries"/> holds.</summary>
    public string VolumeSeriesSpan { get; set; } = "Whole";
    /// <summary>Each multipath volume's state before the run and after the measured window (empty where the host has none).</summary>
    public List<VolumeMultipath> Multipath { get; set; } = new();
    /// <summary>The fault window judged apart (null when no window was declared or given to a re-judgement).</summary>
    public FaultJudgement? Fault { get; set; }
    /// <summary>The Exchange rules over the measured window outside the fault window (null when no window).</summary>
    public VerdictResult? SteadyState { get; set; }
    /// <summary>Set on a re-judgement's results: which run, judged when, and what was judged differently.</summary>
    public Rejudgement? Rejudged { get; set; }
}

/// <summary>A declared (or re-judged) failure-mode window, seconds into the measured window, and its instants.</summary>
public sealed class FaultWindow
{
    public double AtSeconds { get; set; }
    public double LengthSeconds { get; set; }
    public DateTime StartUtc { get; set; }
    public DateTime EndUtc { get; set; }
    /// <summary>"Declared" (the run's request) or "Rejudged" (given to a re-judgement).</summary>
    public string Source { get; set; } = "Declared";
}

/// <summary>
/// A reseed during the load (docs/failure-mode.md): a whole copy of one of the run's databases streamed onto a spare
/// folder from the fault window's start, at <see cref="TargetMBPerSecond"/>, until complete or the window ended; what it
/// achieved, and the active copies' latency on each volume during it against the pre-fault baseline.
/// </summary>
public sealed class ReseedRun
{
    /// <summary>The database file read (the seeding source) and its volume.</summary>
    public string SourceFile { get; set; } = "";
    public string SourceVolume { get; set; } = "";
    /// <summary>The copy written on the spare folder (removed when the run ends) and the spare's volume.</summary>
    public string TargetFile { get; set; } = "";
    public string TargetVolume { get; set; } = "";
    /// <summary>Each sequential read and write, bytes.</summary>
    public int IoSizeBytes { get; set; }
    /// <summary>The rate it was paced at (<see cref="Contract.ReseedRules.TargetBytesPerSecond"/>), MB (2^20 bytes) a second.</summary>
    public double TargetMBPerSecond { get; set; }
    /// <summary>The source database's size when the seed began: the whole copy.</summary>
    public long BytesToCopy { get; set; }
    /// <summary>The bytes read from the source and written to the spare.</summary>
    public long BytesSeeded { get; set; }
    public DateTime? StartedUtc { get; set; }
    public DateTime? EndedUtc { get; set; }
    /// <summary>Seconds into the measured window it began, and how long it ran.</summary>
    public double StartSeconds { get; set; }
    public double Seconds { get; set; }
    /// <summary><see cref="BytesSeeded"/> over <see cref="Seconds"/>, MB a second.</summary>
    public double AchievedMBPerSecond { get; set; }
    /// <summary>True when every byte of the source was copied.</summary>
    public bool Completed { get; set; }
    /// <summary>"Completed", "WindowEnded" (the fault window ended first), "RunEnded" (the run stopped or failed first) or "Error".</summary>
    public string EndedBy { get; set; } = "";
    /// <summary>Why it could not start or go on (a read or write that failed, a spare that filled); null when nothing failed.</summary>
    public string? Error { get; set; }
    /// <summary>The seed's own reads of the source and writes to the spare: mean latency, ms.</summary>
    public double ReadLatencyMs { get; set; }
    public double WriteLatencyMs { get; set; }
    /// <summary>Each volume of the run: its I/O and latency in the minute before the window and while the seed ran.</summary>
    public List<ReseedVolumeImpact> Volumes { get; set; } = new();
}

/// <summary>The active copies' I/O on one volume while the seed ran, against the pre-fault baseline (the one-second series).</summary>
public sealed class ReseedVolumeImpact
{
    public string Volume { get; set; } = "";
    /// <summary>"Source" (the volume the seed read from) or "Other".</summary>
    public string Role { get; set; } = "";
    public double BaselineIops { get; set; }
    public double BaselineLatencyMs { get; set; }
    public double ReseedIops { get; set; }
    public double ReseedLatencyMs { get; set; }
    /// <summary>The latency during the seed against the baseline's, percent (+50: half as slow again); null without baseline I/O.</summary>
    public double? LatencyChangePercent { get; set; }
}

/// <summary>The fault script: where it ran, when, how it ended and what it printed.</summary>
public sealed class FaultScriptRun
{
    public string Path { get; set; } = "";
    /// <summary>The machine that ran it (this one, or the run's named script host when another host ran it).</summary>
    public string Host { get; set; } = "";
    /// <summary>False when another host of the run started it (this host only kept the window).</summary>
    public bool RanHere { get; set; }
    public DateTime? StartedUtc { get; set; }
    public DateTime? EndedUtc { get; set; }
    public int? ExitCode { get; set; }
    /// <summary>Still running when the measured window ended: stopped then.</summary>
    public bool Killed { get; set; }
    /// <summary>Why it could not be started; null when it started.</summary>
    public string? Error { get; set; }
    /// <summary>Its standard output and error, interleaved as they came, the first 64 KiB.</summary>
    public string Output { get; set; } = "";
}

/// <summary>One stall: a volume with I/O outstanding and nothing completing for at least the detect limit.</summary>
public sealed class StallRecord
{
    /// <summary>The volume (its mount point or root; the folder where none is known).</summary>
    public string Volume { get; set; } = "";
    public DateTime StartUtc { get; set; }
    /// <summary>Seconds into the measured window it began (negative: before the window).</summary>
    public double StartSeconds { get; set; }
    public double LengthSeconds { get; set; }
    /// <summary>False when the run ended with the volume still stalled (<see cref="LengthSeconds"/> is then up to the end).</summary>
    public bool Ended { get; set; } = true;
    /// <summary>The most I/Os outstanding on the volume through the stall.</summary>
    public int InFlight { get; set; }
    /// <summary>The longest I/O completed on the volume in the second the stall ended (the ones caught in it), ms.</summary>
    public double LongestIoMs { get; set; }
    /// <summary>True when it began inside the declared fault window.</summary>
    public bool InFaultWindow { get; set; }
}

/// <summary>One volume over one second of the measured window: what completed in it.</summary>
public sealed class VolumeSecond
{
    public string Volume { get; set; } = "";
    /// <summary>The second's start, seconds into the measured window (whole seconds).</summary>
    public double ElapsedSeconds { get; set; }
    public long Operations { get; set; }
    public double AverageLatencyMs { get; set; }
    public double MaxLatencyMs { get; set; }
    public long Errors { get; set; }
}

/// <summary>A multipath volume's paths before the run (the volume inspection) and after the measured window.</summary>
public sealed class VolumeMultipath
{
    public string Volume { get; set; } = "";
    public string? Before { get; set; }
    /// <summary>Null when the state could not be read again.</summary>
    public string? After { get; set; }
}

/// <summary>The fault window judged: the figures of each volume and the rules of the window.</summary>
public sealed class FaultJudgement
{
    /// <summary><see cref="Contract.FaultOutcomes"/>.</summary>
    public string Result { get; set; } = Contract.FaultOutcomes.NotJudged;
    /// <summary>The outcome in one line, e.g. "Pass, fault tolerated: stalled 4.8 s, recovered in 12 s, no errors".</summary>
    public string Summary { get; set; } = "";
    public List<VerdictReason> Reasons { get; set; } = new();
    /// <summary>The measured window's seconds left out of the steady state (the window, widened to the stored samples' boundaries).</summary>
    public double ExcludedFromSeconds { get; set; }
    public double ExcludedToSeconds { get; set; }
    public double LongestStallSeconds { get; set; }
    public string? LongestStallVolume { get; set; }
    /// <summary>Seconds from the fault's start until the storage was back (null: not back inside the window).</summary>
    public double? RecoverySeconds { get; set; }
    public long IoErrors { get; set; }
    /// <summary>Storage events the system log holds for the window (retries, path failovers the application never saw).</summary>
    public int SystemLogEvents { get; set; }
    public List<FaultVolume> Volumes { get; set; } = new();
}

/// <summary>One volume through the fault window.</summary>
public sealed class FaultVolume
{
    public string Volume { get; set; } = "";
    public double LongestStallSeconds { get; set; }
    public DateTime? LongestStallStartUtc { get; set; }
    public int InFlightThroughStall { get; set; }
    public double LongestIoMs { get; set; }
    /// <summary>I/O errors the engine saw in the window on this volume, and their names (EIO, ERROR_IO_DEVICE ...).</summary>
    public long IoErrors { get; set; }
    public List<string> ErrorNames { get; set; } = new();
    /// <summary>The pre-fault baseline: I/O per second and mean latency over up to <see cref="Contract.FaultRules.BaselineSeconds"/> before the fault.</summary>
    public double BaselineIops { get; set; }
    public double BaselineLatencyMs { get; set; }
    /// <summary>I/Os the volume did not do against its baseline, from the fault's start until it recovered (or the window's end).</summary>
    public double IopsLost { get; set; }
    public double? RecoverySeconds { get; set; }
    /// <summary>The multipath state before the run and after it, as the host's tools told it (null where it has none).</summary>
    public string? MultipathBefore { get; set; }
    public string? MultipathAfter { get; set; }
}

/// <summary>What a re-judgement changed: the run it judged again and the settings it judged with.</summary>
public sealed class Rejudgement
{
    /// <summary>The results file judged again, and its test id.</summary>
    public string SourcePath { get; set; } = "";
    public string SourceTestId { get; set; } = "";
    public DateTime JudgedUtc { get; set; }
    /// <summary>The verdict the run had when it was judged live.</summary>
    public string OriginalResult { get; set; } = "";
    /// <summary>The sub-window judged, seconds into the measured window; null: the whole window.</summary>
    public double? WindowFromSeconds { get; set; }
    public double? WindowToSeconds { get; set; }
    /// <summary>What was judged differently, in words (another fault window, thresholds, a sub-window).</summary>
    public List<string> Changes { get; set; } = new();
}
