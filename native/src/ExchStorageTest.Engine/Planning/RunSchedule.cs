using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// What comes before a run's measured window, in time, and — when hosts run together — the instants they agreed.
/// <list type="bullet">
/// <item>The lead: automatic tuning's budget, the cache warm-up's bound and, for tuned sessions that think between
/// transactions, settling at the paced rate. One definition for every host: it depends only on the request's
/// settings (test type, duration, warm-up, tuning budget, sample interval, thread count, rate), so hosts given the
/// same settings derive the same lead.</item>
/// <item>The agreed instants (request <c>startAtUtc</c>, optionally <c>measureAtUtc</c>): every host starts loading
/// (tuning, warm-up) at <see cref="LoadStartUtc"/> and measures from <see cref="MeasureStartUtc"/> — the load start
/// plus the lead unless the request names it — for the same duration, whatever its own tuning and warm-up took. A
/// host that is ready early keeps running its chosen load until then, so shared storage carries every host's load
/// through the whole warm-up; one that is not takes its best setting so far (docs/load-model.md).</item>
/// </list>
/// </summary>
public sealed class RunSchedule
{
    private RunSchedule(double tuning, double warmup, double settle, DateTime? loadStart, DateTime? measureStart)
    {
        TuningSeconds = tuning;
        WarmupSeconds = warmup;
        SettleSeconds = settle;
        LoadStartUtc = loadStart;
        MeasureStartUtc = measureStart;
    }

    /// <summary>Automatic tuning's time budget; 0 when the run does not tune (a given thread count or rate, backup, recovery).</summary>
    public double TuningSeconds { get; }

    /// <summary>The cache warm-up's bound; 0 for backup and recovery, which measure from their first I/O.</summary>
    public double WarmupSeconds { get; }

    /// <summary>Settling at the paced rate after the warm-up (tuned Performance and Stress runs), else 0.</summary>
    public double SettleSeconds { get; }

    /// <summary>From the load start to the measuring start.</summary>
    public double LeadSeconds => TuningSeconds + WarmupSeconds + SettleSeconds;

    /// <summary>The agreed UTC instant every host starts loading; null when the run starts at once (no agreed instants).</summary>
    public DateTime? LoadStartUtc { get; }

    /// <summary>The agreed UTC instant every host starts measuring; null when the run starts at once.</summary>
    public DateTime? MeasureStartUtc { get; }

    public bool Agreed => MeasureStartUtc is not null;

    /// <summary>Agreed runs: tuning ends by this instant, which leaves the warm-up and settling their time.</summary>
    public DateTime? TuningDeadlineUtc => MeasureStartUtc?.AddSeconds(-(WarmupSeconds + SettleSeconds));

    /// <summary>Agreed runs: the warm-up ends by this instant, which leaves settling its time.</summary>
    public DateTime? WarmupDeadlineUtc => MeasureStartUtc?.AddSeconds(-SettleSeconds);

    /// <summary>Whether the run searches for its session count (Throughput always; Performance and Stress without a thread count or rate).</summary>
    public static bool Tunes(EngineRequest request, TestType type, int? threads) =>
        type == TestType.Throughput || (TestTypes.Of(type).Transactional && threads is null && request.TargetRateIops is null);

    /// <summary>The schedule of a validated request; refuses agreed instants that contradict each other.</summary>
    public static RunSchedule For(EngineRequest request, TestType type, double durationSeconds, double sampleIntervalSeconds, int? threads)
    {
        bool transactional = TestTypes.Of(type).Transactional;
        bool tunes = Tunes(request, type, threads);
        double tuning = tunes ? request.TuningSeconds ?? Math.Clamp(durationSeconds, 12, 180) : 0;
        // A capacity search's duration is its whole bound: its one warm-up takes a twentieth of it (5 s to 2 min).
        double warmup = type == TestType.Capacity ? request.WarmupSeconds ?? Math.Clamp(durationSeconds * 0.05, 5, 120)
            : transactional ? request.WarmupSeconds ?? Math.Clamp(durationSeconds * 0.5, 5, 600) : 0;
        // Only tuned Performance and Stress sessions think between transactions; they settle at that rate first.
        double settle = tunes && type != TestType.Throughput ? Math.Clamp(sampleIntervalSeconds, 2, 10) : 0;

        DateTime? load = Utc(request.StartAtUtc), measure = Utc(request.MeasureAtUtc);
        if (measure is not null && load is null)
            throw EngineException.Refused(ErrorCodes.MeasureTimeWithoutStart, $"MeasureAtUtc {measure:o} needs StartAtUtc: the agreed measuring start belongs to an agreed load start.");
        if (measure is DateTime m && load is DateTime l && m < l)
            throw EngineException.Refused(ErrorCodes.MeasureTimeBeforeStart, $"MeasureAtUtc {m:o} is before StartAtUtc {l:o}: the hosts measure after they start loading.");
        // The longest lead is about 25 h (a 3600 s tuning budget and a day's warm-up): anything beyond two days is a mistake, not a plan.
        if (measure is DateTime late && load is DateTime early && late > early.AddDays(2))
            throw EngineException.Refused(ErrorCodes.MeasureTimeOutOfRange, $"MeasureAtUtc {late:o} is more than 2 days after StartAtUtc {early:o}.");
        if (load is DateTime start && measure is null) measure = start.AddSeconds(tuning + warmup + settle);
        return new RunSchedule(tuning, warmup, settle, load, measure);
    }

    /// <summary>A request's instant as UTC: one without a zone is taken as UTC, as its name says.</summary>
    private static DateTime? Utc(DateTime? at) => at is not DateTime t ? null
        : t.Kind == DateTimeKind.Unspecified ? DateTime.SpecifyKind(t, DateTimeKind.Utc) : t.ToUniversalTime();
}
