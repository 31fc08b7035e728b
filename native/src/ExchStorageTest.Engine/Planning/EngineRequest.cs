using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// The one JSON document the engine reads (stdin or --request file). Every field the PowerShell
/// module can set; the engine validates all of it before a byte is written. See docs/protocol.md.
/// </summary>
public sealed class EngineRequest
{
    public int Protocol { get; set; } = EngineProtocol.Version;
    /// <summary>run | plan | streams | verify | inspect | report | validation | version. Required: nothing runs by default.</summary>
    public string? Command { get; set; }
    public string? TestId { get; set; }
    /// <summary>The run this test is one host of (hosts started together share it; recorded in the results as <c>runId</c>); null for a run of one host.</summary>
    public string? RunId { get; set; }
    public MailboxProfile Profile { get; set; } = new();
    public TestType TestType { get; set; } = RunDefaults.TestType;
    public double? DurationSeconds { get; set; }
    public string? OutputPath { get; set; }
    public DatabaseSource DatabaseSource { get; set; } = RunDefaults.DatabaseSource;
    public string? RestoreFromPath { get; set; }
    /// <summary>Overrides the profile's thread (session) count.</summary>
    public int? ThreadCount { get; set; }
    /// <summary>Open-loop pacing: drive transactional I/O at this rate instead of closed-loop sessions.</summary>
    public double? TargetRateIops { get; set; }
    /// <summary>Limits overriding the test type's preset (<see cref="Thresholds.With"/>).</summary>
    public ThresholdOverrides? Thresholds { get; set; }
    public bool ContinueOnError { get; set; }
    /// <summary>Null: picked from the duration (<see cref="RunDefaults.SampleIntervalFor"/>).</summary>
    public double? SampleIntervalSeconds { get; set; }
    /// <summary>Explicit opt-in to buffered I/O where direct I/O is impossible; every report then says so.</summary>
    public bool AllowBufferedIo { get; set; }
    /// <summary>Run although the platform pre-flight finds a feature Microsoft does not support under Exchange's data (<see cref="Inspection.Preflight"/>).</summary>
    public bool AllowUnsupportedPlatform { get; set; }
    /// <summary>
    /// Pin each I/O worker thread to one CPU, round-robin over the CPUs the process may use (DiskSpd's
    /// default; keeps the scheduler's migrations out of the latencies). False leaves placement to the OS.
    /// </summary>
    public bool PinWorkerThreads { get; set; } = RunDefaults.PinWorkerThreads;
    /// <summary>
    /// Automatic tuning's time budget: the step-down search (16, 8, 4 ... sessions) stops when it is
    /// spent. Null = the test duration, at least 12 s and at most 180 s.
    /// </summary>
    public double? TuningSeconds { get; set; }
    /// <summary>Cache warm-up before the measured window; null = until the cache model is ~90% full (bounded).</summary>
    public double? WarmupSeconds { get; set; }
    /// <summary>
    /// Hosts that run together: prepare the databases, then wait until this UTC instant to start
    /// loading the storage (tuning, warm-up). Null = start at once. See <see cref="RunSchedule"/>.
    /// </summary>
    public DateTime? StartAtUtc { get; set; }
    /// <summary>
    /// With <see cref="StartAtUtc"/>: the agreed UTC instant every host starts measuring. Null = the
    /// load start plus the plan's lead (tuning budget + warm-up bound + settling), which every host
    /// given the same settings derives alike.
    /// </summary>
    public DateTime? MeasureAtUtc { get; set; }
    /// <summary>A failure-mode window: its start, seconds into the measured window (docs/failure-mode.md); null declares none.</summary>
    public double? FaultAtSeconds { get; set; }
    /// <summary>The longest the declared fault may take, recovery included; null: <see cref="FaultRules.DefaultFaultLengthSeconds"/>.</summary>
    public double? FaultLengthSeconds { get; set; }
    /// <summary>The script that causes the fault at its instant; run on <see cref="FaultScriptHost"/> only.</summary>
    public string? FaultScript { get; set; }
    /// <summary>The machine name of the one host of a run that starts <see cref="FaultScript"/>; null: this host.</summary>
    public string? FaultScriptHost { get; set; }
    /// <summary>The longest a volume may stall (I/O outstanding, nothing completing); null: <see cref="FaultRules.DefaultStallLimitSeconds"/>.</summary>
    public double? StallLimitSeconds { get; set; }
    /// <summary>A spare folder a reseed streams a copy of a database onto during the fault window (<see cref="ReseedRules"/>); null: no reseed.</summary>
    public string? ReseedPath { get; set; }
    /// <summary>Command report: judge the stored runs again into new files (another fault window, other thresholds, a sub-window).</summary>
    public bool Rejudge { get; set; }
    /// <summary>Command report with <see cref="Rejudge"/>: the sub-window judged, seconds into the measured window.</summary>
    public double? WindowFromSeconds { get; set; }
    public double? WindowToSeconds { get; set; }
    /// <summary>Soft recovery: log generations to create and replay per instance.</summary>
    public int LogFilesToReplay { get; set; } = RunDefaults.LogFilesToReplay;
    /// <summary>Throughput test: share of free capacity the databases may take.</summary>
    public double CapacityPercent { get; set; } = RunDefaults.CapacityPercent;
    /// <summary>The database pages' data profile (<see cref="DataProfile"/>): the share of their content a compressor removes (0: none).</summary>
    public int CompressibilityPercent { get; set; }
    /// <summary>The database pages' data profile: the share of the file's 4 KiB blocks that repeat another (0: none).</summary>
    public int DuplicatePercent { get; set; }
    /// <summary>
    /// The Jetstress test type the run's files and titles are named by when it is not <see cref="TestType"/>: Performance
    /// for a Throughput run (Jetstress's Performance test with DatabaseSizing Capacity, JetstressCmd's). Null: the test type.
    /// </summary>
    public TestType? ReportedAs { get; set; }
    /// <summary>
    /// The profile's database and log paths are Jetstress's EseInstance paths (JetstressCmd's runs): a folder named for one
    /// database holds its files directly (a folder several name still gets DB&lt;n&gt; beneath it), and a missing database or
    /// log folder is created when the run starts instead of refused. False: the module's roots (<see cref="TestPlanner"/>).
    /// </summary>
    public bool JetstressFolders { get; set; }
    /// <summary>
    /// Capacity search: who chooses the steps (<see cref="CapacityStepping"/>). Null or Engine: the engine searches on its
    /// own; Caller: the engine runs the steps the caller sends on the control channel (<c>--control-stdin</c>).
    /// </summary>
    public string? CapacitySteps { get; set; }
    /// <summary>Paths to verify (command "verify"), inspect ("inspect"), render ("report": results files or folders), or the profile file ("validation").</summary>
    public List<string> Paths { get; set; } = new();
    /// <summary>The raw stream mix (command "streams"): patterns against files, each with its depth or rate.</summary>
    public List<Load.StreamMix.StreamSpec> Streams { get; set; } = new();
    /// <summary>Report formats to write (command "report"): Html, Xml, Csv, Text, PdhCsv.</summary>
    public List<string> Formats { get; set; } = new();
    /// <summary>Command "validation": how fresh the newest passing result must be (default 24 hours).</summary>
    public double? MaxResultAgeHours { get; set; }
    /// <summary>
    /// Command "report": the runs to compare, each a label and its results files or folders (several
    /// hosts of one run merge); instead of <see cref="Paths"/>, which lets the engine tell runs apart.
    /// </summary>
    public List<LabelledRun> Runs { get; set; } = new();
    /// <summary>Command "report": compare the separate runs among <see cref="Paths"/> (a <c>comparison</c> event); without it each run is reported on its own.</summary>
    public bool Compare { get; set; }
    /// <summary>
    /// Command "report": the results in <see cref="Paths"/> are the hosts of one deployment, named so by the user: those of one
    /// test type merge into one aggregate whatever their run ids (each host once). Without it only results of one run id merge.
    /// </summary>
    public bool Deployment { get; set; }
    /// <summary>Command "report": the vendor's ESRP metadata file (docs/esrp.md): the rows no host can discover.</summary>
    public string? MetadataPath { get; set; }
    /// <summary>Command "calculator": the calculator's Servers.csv export; the workbook is the one entry of <see cref="Paths"/>.</summary>
    public string? ServersCsvPath { get; set; }
    /// <summary>Command "capture": the busiest hour x this is the target (docs/capture.md); null: <see cref="CaptureRules.DefaultGrowthFactor"/>.</summary>
    public double? GrowthFactor { get; set; }
    /// <summary>Command "capture": the window the admin names instead of the busiest hour, its start on the capture's clock ("yyyy-MM-dd HH:mm").</summary>
    public string? CaptureWindowStart { get; set; }
    /// <summary>Command "capture": the window's length in minutes (60 unless a start is named).</summary>
    public int? CaptureWindowMinutes { get; set; }
    /// <summary>Command "capture": mailboxes per server, over the capture's Active mailboxes.</summary>
    public int? MailboxCount { get; set; }
    /// <summary>Command "capture": the sizing calculator's workbook, whose design is shown beside the capture's and the higher tested.</summary>
    public string? CalculatorPath { get; set; }

    /// <summary>
    /// The run settings of the contract's table (<see cref="RunSettingTable"/>) that have no property above, as the request
    /// gave them (the request gate has checked their kinds and ranges): a new setting needs no line in this type, the
    /// engine reads it by its entry (<see cref="Number"/>, <see cref="Switch"/>, <see cref="Text"/>).
    /// </summary>
    [JsonExtensionData]
    public Dictionary<string, JsonElement>? OtherSettings { get; set; }

    private static readonly Dictionary<string, PropertyInfo> Properties =
        typeof(EngineRequest).GetProperties(BindingFlags.Public | BindingFlags.Instance).ToDictionary(p => p.Name, StringComparer.OrdinalIgnoreCase);

    private static readonly JsonSerializerOptions Web = new(JsonSerializerDefaults.Web);

    /// <summary>The property a setting is read into, or null for one read from <see cref="OtherSettings"/>.</summary>
    public static PropertyInfo? PropertyOf(RunSettingEntry setting) => Properties.GetValueOrDefault(setting.Field);

    /// <summary>The type a setting's value has in the request, by its kind (what the request gate checks a value against).</summary>
    public static Type TypeOf(SettingKind kind) => kind switch
    {
        SettingKind.Count => typeof(int),
        SettingKind.Number or SettingKind.Seconds => typeof(double),
        SettingKind.Switch or SettingKind.NegatedSwitch => typeof(bool),
        SettingKind.Instant => typeof(DateTime),
        SettingKind.Thresholds => typeof(ThresholdOverrides),
        _ => typeof(string),
    };

    /// <summary>
    /// A setting's value: its property's, or the one the request gave in <see cref="OtherSettings"/>, else the entry's engine
    /// default (null: not given, and its default depends on the plan).
    /// </summary>
    public object? Value(RunSettingEntry setting)
    {
        if (PropertyOf(setting) is PropertyInfo property) return property.GetValue(this);
        var given = OtherSettings?.FirstOrDefault(f => string.Equals(f.Key, setting.Field, StringComparison.OrdinalIgnoreCase)).Value;
        if (given is not JsonElement value || value.ValueKind == JsonValueKind.Null) return setting.EngineDefault;
        return value.Deserialize(TypeOf(setting.Kind), Web);
    }

    public double? Number(RunSettingEntry setting) => Value(setting) is { } v ? Convert.ToDouble(v, System.Globalization.CultureInfo.InvariantCulture) : null;

    public bool Switch(RunSettingEntry setting) => Value(setting) is true;

    public string? Text(RunSettingEntry setting) => Value(setting)?.ToString();
}

/// <summary>One run of a comparison as the user names it: a label and the results of its hosts.</summary>
public sealed class LabelledRun
{
    public string Label { get; set; } = "";
    public List<string> Paths { get; set; } = new();
}
