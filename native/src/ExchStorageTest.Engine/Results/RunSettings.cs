using System.Reflection;
using System.Text.Json.Serialization;
using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Results;

/// <summary>The settings the run actually used (after defaults and overrides).</summary>
public sealed class RunSettings
{
    public double DurationSeconds { get; set; }
    /// <summary>The warm-up's bound (the request's, or the default); what the warm-up took is its phase in the timeline.</summary>
    public double WarmupSeconds { get; set; }
    /// <summary>The agreed UTC instant this host started loading (tuning, warm-up); null when the run started at once.</summary>
    public DateTime? StartAtUtc { get; set; }
    /// <summary>The agreed UTC instant every host of the run started measuring; the actual start is timeline.collectionStartUtc.</summary>
    public DateTime? MeasureAtUtc { get; set; }
    public double SampleIntervalSeconds { get; set; } = 15;
    public int ThreadCount { get; set; }
    public bool AutoTuned { get; set; }
    /// <summary>
    /// Closed (sessions, no think time), Paced (tuned sessions that think between transactions so
    /// the transactional load holds <see cref="PacedIops"/>) or Open (arrivals at TargetRateIops).
    /// </summary>
    public string LoadModel { get; set; } = "Closed";
    public double? TargetRateIops { get; set; }
    /// <summary>Paced runs: the transactional IOPS the sessions' think time holds the load to (a ceiling).</summary>
    public double? PacedIops { get; set; }
    public bool ContinueOnError { get; set; }
    public DatabaseSource DatabaseSource { get; set; }
    public Thresholds Thresholds { get; set; } = new();
    public int InsertPercent { get; set; } = 40;
    public int DeletePercent { get; set; } = 20;
    public int ReplacePercent { get; set; } = 5;
    public int ReadPercent { get; set; } = 35;
    public int LazyCommitPercent { get; set; } = 70;
    /// <summary>The most dirty-page writes one database's scavenger keeps in flight (what `flushWritesInFlight` is measured against).</summary>
    public int MaxFlushesInFlight { get; set; }
    /// <summary>The most while the pool was short on storage that wrote quickly (`urgentFlushesInFlight`; absent in results written before it).</summary>
    public int? UrgentFlushesInFlight { get; set; }
    /// <summary>The recent average of the scavenger's writes at or under which the urgent limit applied, in milliseconds.</summary>
    public double? QuickFlushWriteMs { get; set; }
    public string OutputPath { get; set; } = "";
    /// <summary>What the database pages held: absent in results written before profiles, which held the default.</summary>
    public DataProfileSettings DataProfile { get; set; } = new();

    /// <summary>
    /// The run settings the contract's table records under <c>settings</c> (<see cref="RunSettingTable.InSettings"/>) that have
    /// no property above: a new recorded setting is written here by its field name, with no line in this type. Null: none.
    /// </summary>
    [JsonExtensionData]
    public Dictionary<string, object?>? OtherSettings { get; set; }

    /// <summary>Records the table's settings of <paramref name="request"/> that <see cref="OtherSettings"/> holds.</summary>
    public void RecordOthers(EngineRequest request)
    {
        var own = typeof(RunSettings).GetProperties(BindingFlags.Public | BindingFlags.Instance).Select(p => p.Name).ToHashSet(StringComparer.OrdinalIgnoreCase);
        foreach (var setting in RunSettingTable.All)
        {
            if (setting.Recorded != RunSettingTable.InSettings(setting.Field) || own.Contains(setting.Field)) continue;
            (OtherSettings ??= new())[setting.Field] = request.Value(setting);
        }
    }

    /// <summary>Records the scavenger's write limits of <paramref name="shape"/>.</summary>
    public void WriteBackOf(Workload.WorkloadShape shape)
    {
        MaxFlushesInFlight = shape.MaxFlushesInFlight;
        UrgentFlushesInFlight = shape.UrgentFlushesInFlight;
        QuickFlushWriteMs = shape.QuickFlushWriteMs;
    }
}

/// <summary>The data profile of a run's database pages, as its results state it (<see cref="Contract.DataProfile"/>).</summary>
public sealed class DataProfileSettings
{
    public int CompressibilityPercent { get; set; }
    public int DuplicatePercent { get; set; }
    /// <summary>The block duplicates are counted in.</summary>
    public int BlockBytes { get; set; } = Contract.DataProfile.BlockBytes;
    /// <summary>The assumption in words, as the reports state it.</summary>
    public string Description { get; set; } = Contract.DataProfile.Default.Describe();

    public static DataProfileSettings From(Contract.DataProfile profile) => new()
    {
        CompressibilityPercent = profile.CompressibilityPercent, DuplicatePercent = profile.DuplicatePercent, Description = profile.Describe(),
    };

    /// <summary>The profile itself (the reports describe it from the numbers, so results of any age read alike).</summary>
    public Contract.DataProfile ToProfile() => new(CompressibilityPercent, DuplicatePercent);
}
