using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// Several hosts' results of one synchronised run viewed as one: rates summed, histograms merged
/// bucket by bucket, time series aligned by UTC sample time. Built by <see cref="ResultsMerge.Merge"/>.
/// </summary>
public sealed class MergedResults
{
    public required IReadOnlyList<TestResults> Hosts { get; init; }
    /// <summary>Per stream, merged over every instance of every host.</summary>
    public required IReadOnlyList<StreamResult> Streams { get; init; }
    /// <summary>Per stream and aligned sample time, over every instance of every host (Instance = 0).</summary>
    public required IReadOnlyList<SamplePoint> TimeSeries { get; init; }
    public double TargetTransactionalIops { get; init; }
    public double AchievedTransactionalIops { get; init; }
    public DateTime TestStartUtc { get; init; }
    public DateTime TestEndUtc { get; init; }
    /// <summary>
    /// The largest difference between two hosts' measuring starts (timeline.collectionStartUtc, each on its own
    /// clock), in seconds; null when fewer than two hosts measured. Hosts that agreed instants measure together,
    /// so this is their clocks' skew plus how precisely each started.
    /// </summary>
    public double? MeasuringStartSkewSeconds { get; init; }
    /// <summary>Pass only when every host passed.</summary>
    public string Result { get; init; } = Verdicts.Fail;
    /// <summary>Every host's reasons, each message prefixed with its host.</summary>
    public required IReadOnlyList<VerdictReason> Reasons { get; init; }
    public int ErrorCount { get; init; }
    /// <summary>The deployment's capacity search (<see cref="Capacity.CapacityDeployment.Of"/>) when the hosts' searches stepped together; else null.</summary>
    public CapacityResult? Capacity { get; init; }
    /// <summary>Why the hosts' capacity searches give no deployment answer; null when they give one or no host searched.</summary>
    public string? CapacityUnavailable { get; init; }

    /// <summary>
    /// Each host's failure mode in one line (<see cref="FailureModeReport.Summary"/>), every host named, when any host has
    /// something of one to show (a window, a stall, a re-judgement); else empty. A host with nothing says so.
    /// </summary>
    public IReadOnlyList<(string Host, string Line)> FailureModes { get; init; } = Array.Empty<(string, string)>();

    public StreamResult? Stream(string name) => Streams.FirstOrDefault(s => s.Stream == name);
}
