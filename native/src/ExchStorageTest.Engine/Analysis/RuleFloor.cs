using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// The smallest change the analysis calls a finding, tied to the rule the figure concerns (docs/results-schema.md
/// "Series analysis"): a step in a series (<see cref="ChangePoints"/>), a transient (<see cref="SteadyState"/>), a change
/// between compared runs (<see cref="Reports.RunComparison"/>). Defined once here from <see cref="Thresholds"/> and the
/// run's target.
/// </summary>
/// <para>Why: Exchange's latency rules are set in tens of milliseconds (database reads 20 ms on average, log writes 10 ms).
/// Storage answering log writes in 0.26 ms and then in 0.4 ms is 54% slower and as far inside the rule as before; a
/// sensitive statistic finds such a step and a comparison colours it, but it cannot move a verdict, so it is not a finding.
/// A change smaller than <see cref="ShareOfLimit"/> of the limit of the rule it concerns is judged too small to matter:
/// it could move a verdict only for a run already within that share of its limit, whose verdict says so itself.</para>
public static class RuleFloor
{
    /// <summary>
    /// The share of a rule's limit below which a change is not a finding: a tenth (2 ms of the 20 ms database read
    /// average, 1 ms of the 10 ms log write average, a tenth of the target transactional IOPS).
    /// </summary>
    public const double ShareOfLimit = 0.1;

    /// <summary>
    /// The latency limit the latency of <paramref name="stream"/> concerns: database reads the database read rule, log
    /// writes the log write rule, each the tighter of its average and maximum limit. Streams Exchange sets no rule of
    /// their own for are held to the rule of the volume they use: database writes, maintenance and backup reads the
    /// database read rule (the one rule on the database volume), log reads the log write rule (the one on the log volume).
    /// </summary>
    public static double LatencyLimitMs(string stream, Thresholds t) => stream switch
    {
        StreamNames.LogWrite or StreamNames.LogRead or StreamNames.LogReplicationRead => Math.Min(t.AverageLogWriteLatencyMs, t.MaximumLogWriteLatencyMs),
        _ => Math.Min(t.AverageDatabaseReadLatencyMs, t.MaximumDatabaseReadLatencyMs),
    };

    /// <summary>The smallest latency change of <paramref name="stream"/> that is a finding, in milliseconds.</summary>
    public static double LatencyMs(string stream, Thresholds t) => ShareOfLimit * LatencyLimitMs(stream, t);

    /// <summary>
    /// The smallest change of transactional IOPS that is a finding: a tenth of the target. 0 where the run has no target
    /// (a Throughput run, results without one): no rule concerns the IOPS, and only the analysis's relative and
    /// statistical tests apply.
    /// </summary>
    public static double Iops(double targetIops) => targetIops > 0 ? ShareOfLimit * targetIops : 0;

    /// <summary>The smallest change of achieved over target IOPS, in percent, that is a finding: a tenth of the rule's 100%.</summary>
    public const double AchievedPercent = ShareOfLimit * 100;
}
