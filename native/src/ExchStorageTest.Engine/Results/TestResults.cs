using System.Text.Json.Serialization;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// The results document: the one source of truth for a run (docs/results-schema.md). Every report
/// (text, HTML, XML, CSV, PDH-CSV, ESRP tables) and the verdict are pure functions of it.
/// Units are in the field names.
/// </summary>
public sealed class TestResults
{
    public const string SchemaName = "exchstoragetest/results";
    public const int CurrentSchemaVersion = 1;

    public string Schema { get; set; } = SchemaName;
    public int SchemaVersion { get; set; } = CurrentSchemaVersion;
    public string TestId { get; set; } = "";
    /// <summary>
    /// The run this result is one host of, where hosts ran together (a multi-host run's id, a start-file run's): every host
    /// of the run records the same. Only results with the same run id are merged into one deployment's aggregate
    /// (<see cref="Reports.RunGrouping"/>); null for a run of one host.
    /// </summary>
    public string? RunId { get; set; }
    public TestType TestType { get; set; }
    /// <summary>
    /// The Jetstress test type the run's files and report titles are named by when it is not <see cref="TestType"/>
    /// (request <c>reportedAs</c>: Performance for JetstressCmd's DatabaseSizing Capacity, a Throughput run); null otherwise.
    /// </summary>
    public TestType? ReportedAs { get; set; }

    /// <summary>The name of the run's files (&lt;name&gt;_&lt;time&gt;.*) and of its reports' titles: the one rule, for runs and re-renderings alike.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string ReportName => (ReportedAs ?? TestType).ToString();
    public string EngineVersion { get; set; } = "";
    /// <summary>Which Exchange the load modelled: version and layout of database copies (docs/results-schema.md).</summary>
    public ExchangeModelled Exchange { get; set; } = new();
    /// <summary>
    /// Complete = ran to the end; Stopped = Ctrl+C or cancel; Failed = stopped by an error;
    /// Interrupted = a checkpoint of a run that never finished (killed, crashed, host stopped).
    /// </summary>
    public string Completion { get; set; } = Completions.Complete;
    public MailboxProfile Profile { get; set; } = new();
    public RunSettings Settings { get; set; } = new();
    public EnvironmentInfo Environment { get; set; } = new();
    public Timeline Timeline { get; set; } = new();
    public DatabaseSizing Sizing { get; set; } = new();
    public List<InstanceResult> Instances { get; set; } = new();
    public List<SamplePoint> TimeSeries { get; set; } = new();
    /// <summary>Per instance and interval: Database Page Fault Stalls/sec and Database Cache Size.</summary>
    public List<InstanceSample> InstanceSeries { get; set; } = new();
    /// <summary>Sustained steps and settling in the measured window's series (docs/results-schema.md); null where none was judged.</summary>
    public SeriesAnalysis? SeriesAnalysis { get; set; }
    public List<HostCounter> HostCounters { get; set; } = new();
    public List<IoErrorRecord> Errors { get; set; } = new();
    public List<TuningStep> TuningLog { get; set; } = new();
    /// <summary>NotRun (thread count given), Succeeded, or Failed (a Fail reason).</summary>
    public string TuningOutcome { get; set; } = TuningOutcomes.NotRun;
    /// <summary>Why the tuning search stopped where it did (also in the test log).</summary>
    public string? TuningStopReason { get; set; }
    public List<TestLogLine> TestLog { get; set; } = new();
    public BackupResult? Backup { get; set; }
    public SoftRecoveryResult? SoftRecovery { get; set; }
    public ChecksumResult? Checksum { get; set; }
    /// <summary>A capacity search's steps and answer (docs/capacity.md); null for every other test type.</summary>
    public CapacityResult? Capacity { get; set; }
    /// <summary>Stalls, the volumes' second-by-second series and a declared fault window judged apart (docs/failure-mode.md); null for tests without a load window.</summary>
    public FailureModeResult? FailureMode { get; set; }
    /// <summary>The system-log check for the test window (Reliability: no storage errors while testing).</summary>
    public SystemLogReport? SystemLog { get; set; }
    public EngineStats Engine { get; set; } = new();
    /// <summary>How well the host kept up over the measured window (Performance, Stress and Throughput runs; null otherwise): what <see cref="Verdict.MachineLimit"/> reads.</summary>
    // The results files' field keeps its published name (consumers read hostEvidence); the type says what it is.
    [JsonPropertyName("hostEvidence")]
    public MachineEvidence? MachineEvidence { get; set; }
    public VerdictResult Verdict { get; set; } = new();
    /// <summary>
    /// The run against the sizing calculator's targets, for a profile built from the calculator (its
    /// <see cref="MailboxProfile.Calculator"/>); null otherwise. Judged with the verdict; it leaves Pass or Fail as they are.
    /// </summary>
    public Verdict.CalculatorCheck? CalculatorCheck { get; set; }
    /// <summary>
    /// The run against the PerfMon capture its profile was made of (<see cref="MailboxProfile.Capture"/>); null
    /// otherwise. Judged with the verdict; it leaves Pass or Fail as they are.
    /// </summary>
    public Verdict.CaptureCheck? CaptureCheck { get; set; }

    /// <summary>Where this document was last saved (set by whoever saved or loaded it; not stored in the file).</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string? SavedPath { get; set; }

    /// <summary>Why the final save failed (full disk, share gone); null when it succeeded. Not stored in the file.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string? SaveError { get; set; }
}
