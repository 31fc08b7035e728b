using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>Aggregates results across instances and hosts without ever averaging percentiles.</summary>
public static class ResultsMerge
{
    /// <summary>Order streams appear in reports.</summary>
    public static readonly IReadOnlyList<string> StreamOrder = new[]
    {
        StreamNames.DatabaseRead, StreamNames.DatabaseWrite, StreamNames.LogWrite, StreamNames.LogRead,
        StreamNames.MaintenanceRead, StreamNames.LogReplicationRead, StreamNames.BackupRead,
        StreamNames.PassiveReplayRead, StreamNames.PassiveReplayWrite, StreamNames.PassiveLogWrite,
    };

    public static int StreamRank(string stream)
    {
        for (int i = 0; i < StreamOrder.Count; i++)
            if (StreamOrder[i] == stream) return i;
        return StreamOrder.Count;
    }

    public static MergedResults Merge(IReadOnlyList<TestResults> hosts)
    {
        ArgumentNullException.ThrowIfNull(hosts);
        var instances = hosts.SelectMany(h => h.Instances).ToList();
        var reasons = new List<VerdictReason>();
        foreach (var h in hosts)
            foreach (var r in h.Verdict.Reasons)
                reasons.Add(new VerdictReason
                {
                    Code = r.Code,
                    Instance = r.Instance,
                    Message = hosts.Count > 1 ? $"{h.Environment.MachineName}: {r.Message}" : r.Message,
                    Measured = r.Measured,
                    Limit = r.Limit,
                });

        // Hosts that searched for capacity answer for the deployment too, or say why they cannot.
        var (capacity, whyNot) = hosts.Count > 1 && hosts.Any(h => h.Capacity is not null) ? Capacity.CapacityDeployment.Of(hosts) : (null, null);
        return new MergedResults
        {
            Capacity = capacity,
            CapacityUnavailable = whyNot,
            Hosts = hosts,
            Streams = MergeStreamsByName(instances.SelectMany(i => i.Streams)),
            TimeSeries = AlignTimeSeries(hosts),
            TargetTransactionalIops = hosts.Sum(h => h.Sizing.TargetTransactionalIops),
            AchievedTransactionalIops = hosts.Sum(h => TransactionalIops.Achieved(h.Instances)),
            TestStartUtc = hosts.Count == 0 ? default : hosts.Min(h => h.Timeline.TestStartUtc),
            TestEndUtc = hosts.Count == 0 ? default : hosts.Max(h => h.Timeline.TestEndUtc),
            MeasuringStartSkewSeconds = MeasuringStartSkew(hosts),
            Result = Verdicts.Combine(hosts.Select(h => h.Verdict.Result)),
            Reasons = reasons,
            ErrorCount = hosts.Sum(h => h.Errors.Count),
            FailureModes = FailureModeLines(hosts),
        };
    }

    /// <summary>One failure-mode line a host when any host has one to show; a host without says what it has instead.</summary>
    public static IReadOnlyList<(string Host, string Line)> FailureModeLines(IReadOnlyList<TestResults> hosts)
    {
        if (!hosts.Any(FailureModeReport.Shown)) return Array.Empty<(string, string)>();
        return hosts.Select(h => (h.Environment.MachineName, FailureModeReport.Summary(h)
            ?? (h.FailureMode is null ? "no failure-mode figures in its results" : "no stall found, no fault window"))).ToList();
    }

    /// <summary>
    /// The largest difference between the hosts' measuring starts (each on its own clock). Hosts whose capacity searches
    /// stepped together measured once a step, so theirs is the largest over the steps, step k against step k.
    /// </summary>
    private static double? MeasuringStartSkew(IReadOnlyList<TestResults> hosts)
    {
        int steps = hosts.Count < 2 || !hosts.All(h => h.Capacity is { SteppedBy: CapacityStepping.Caller }) ? 0 : hosts.Min(h => h.Capacity!.Steps.Count);
        if (steps > 0)
            return Math.Round(Enumerable.Range(0, steps).Max(k =>
            {
                var starts = hosts.Select(h => h.Capacity!.Steps[k].MeasureStartUtc).ToList();
                return (starts.Max() - starts.Min()).TotalSeconds;
            }), 3);
        var starts = hosts.Select(h => h.Timeline.CollectionStartUtc).OfType<DateTime>().ToList();
        return starts.Count < 2 ? null : Math.Round((starts.Max() - starts.Min()).TotalSeconds, 3);
    }

    /// <summary>One merged <see cref="StreamResult"/> per stream name, in report order.</summary>
    public static IReadOnlyList<StreamResult> MergeStreamsByName(IEnumerable<StreamResult> streams) =>
        streams.GroupBy(s => s.Stream)
            .OrderBy(g => StreamRank(g.Key)).ThenBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => MergeStreams(g.ToList()))
            .ToList();

    /// <summary>
    /// Merges measurements of the same stream (threads, instances or hosts running at the same time):
    /// counts and rates add, sizes are recomputed from totals, latency statistics come from the merged
    /// histogram. Without histograms only the mean (I/O-weighted) and max are known; percentiles are NaN.
    /// </summary>
    public static StreamResult MergeStreams(IReadOnlyList<StreamResult> parts)
    {
        if (parts.Count == 0) return new StreamResult();
        var first = parts[0];
        long ops = parts.Sum(p => p.Operations);
        long bytes = parts.Sum(p => p.Bytes);
        double rate = parts.Sum(p => p.OperationsPerSecond);
        var histogram = HistogramMath.Merge(parts.Select(p => p.Histogram));
        var scheduledParts = parts.Where(p => p.ScheduledHistogram is not null).Select(p => p.ScheduledHistogram!).ToList();

        LatencySummary latency;
        if (histogram.Count > 0)
        {
            latency = HistogramMath.Summary(histogram);
        }
        else
        {
            double weight = parts.Sum(Weight);
            latency = new LatencySummary
            {
                Mean = weight <= 0 ? 0 : parts.Sum(p => Weight(p) * p.LatencyMs.Mean) / weight,
                Min = parts.Min(p => p.LatencyMs.Min),
                P50 = double.NaN,
                P90 = double.NaN,
                P99 = double.NaN,
                P999 = double.NaN,
                Max = parts.Max(p => p.LatencyMs.Max),
            };
        }

        return new StreamResult
        {
            Stream = first.Stream,
            Operation = first.Operation,
            Operations = ops,
            Bytes = bytes,
            ErrorCount = parts.Sum(p => p.ErrorCount),
            DurationSeconds = parts.Max(p => p.DurationSeconds),
            OperationsPerSecond = rate,
            AverageBytes = ops > 0 ? (double)bytes / ops : WeightedMean(parts, p => p.AverageBytes),
            LatencyMs = latency,
            ScheduledLatencyMs = scheduledParts.Count > 0 ? HistogramMath.Summary(HistogramMath.Merge(scheduledParts)) : null,
            LateIssues = parts.Sum(p => p.LateIssues),
            MaxScheduleLagMs = parts.Max(p => p.MaxScheduleLagMs),
            MeanQueueDepth = parts.Sum(p => p.MeanQueueDepth),
            MaxSampleAverageLatencyMs = parts.Max(p => p.MaxSampleAverageLatencyMs),
            Histogram = histogram,
            ScheduledHistogram = scheduledParts.Count > 0 ? HistogramMath.Merge(scheduledParts) : null,
        };
    }

    private static double Weight(StreamResult p) => p.Operations > 0 ? p.Operations : p.OperationsPerSecond;

    private static double WeightedMean(IReadOnlyList<StreamResult> parts, Func<StreamResult, double> value)
    {
        double weight = parts.Sum(Weight);
        return weight <= 0 ? 0 : parts.Sum(p => Weight(p) * value(p)) / weight;
    }

    /// <summary>
    /// Aligns every host's samples on a common clock: each sample goes to the nearest multiple of the
    /// sample interval (UTC), then each stream's rates are summed over instances and hosts, sizes and
    /// mean latencies weighted by rate, and max latencies maxed. P99 of an aligned point is the highest
    /// contributing p99 (an upper bound: per-sample percentiles cannot be merged). An aligned point's
    /// time is the mean time of its samples, so one run's total lines up with its own samples in a chart;
    /// its elapsed seconds count from the earliest host's measuring start (timeline.collectionStartUtc).
    /// </summary>
    public static IReadOnlyList<SamplePoint> AlignTimeSeries(IReadOnlyList<TestResults> hosts)
    {
        double interval = hosts.Select(h => h.Settings.SampleIntervalSeconds).Where(s => s > 0).DefaultIfEmpty(15).Min();
        long slotTicks = Math.Max(1, (long)Math.Round(interval * TimeSpan.TicksPerSecond));

        // Streams become small ints so the keys hash fast (a 24 h run has hundreds of thousands of points).
        var streamIds = new Dictionary<string, int>(StringComparer.Ordinal);
        var streamNames = new List<string>();

        // Per source (host, instance, stream) the samples are in time order, so one open accumulator per
        // source suffices: a second sample in the same slot is averaged with the first (not double
        // counted), and a finished slot is flushed into the per-slot totals.
        var perSlot = new Dictionary<(int Stream, long Slot), Accumulator>();
        var open = new Dictionary<(int Host, int Instance, int Stream), (long Slot, Accumulator Acc)>();
        void Flush(int stream, long slot, Accumulator acc)
        {
            var k = (stream, slot);
            if (!perSlot.TryGetValue(k, out var total)) perSlot[k] = total = new Accumulator();
            total.Add(acc, averaging: false);
        }

        for (int h = 0; h < hosts.Count; h++)
        {
            foreach (var p in InTimeOrder(hosts[h].TimeSeries))
            {
                if (!streamIds.TryGetValue(p.Stream, out int sid))
                {
                    streamIds[p.Stream] = sid = streamNames.Count;
                    streamNames.Add(p.Stream);
                }
                long slot = (long)Math.Round(p.TimeUtc.Ticks / (double)slotTicks, MidpointRounding.AwayFromZero);
                var key = (h, p.Instance, sid);
                if (open.TryGetValue(key, out var current))
                {
                    if (current.Slot == slot)
                    {
                        current.Acc.Add(p, averaging: true);
                        continue;
                    }
                    Flush(sid, current.Slot, current.Acc);
                    current.Acc.Reset();
                    current.Acc.Add(p, averaging: true);
                    open[key] = (slot, current.Acc);
                }
                else
                {
                    var acc = new Accumulator();
                    acc.Add(p, averaging: true);
                    open[key] = (slot, acc);
                }
            }
        }
        foreach (var (key, current) in open) Flush(key.Stream, current.Slot, current.Acc);
        if (perSlot.Count == 0) return Array.Empty<SamplePoint>();

        // Seconds into the window the series describes: from the first host's measuring start (each host's own series
        // counts from its own), or from the first aligned point when the results do not record it.
        long firstTicks = hosts.Select(h => h.Timeline.CollectionStartUtc).OfType<DateTime>().Select(t => t.Ticks)
            .DefaultIfEmpty(perSlot.Values.Min(a => a.MeanTicks)).Min();
        return perSlot
            .OrderBy(kv => kv.Key.Slot).ThenBy(kv => StreamRank(streamNames[kv.Key.Stream])).ThenBy(kv => streamNames[kv.Key.Stream], StringComparer.Ordinal)
            .Select(kv =>
            {
                var point = kv.Value.ToPoint();
                point.Stream = streamNames[kv.Key.Stream];
                point.Instance = 0;
                point.TimeUtc = new DateTime(kv.Value.MeanTicks, DateTimeKind.Utc);
                point.ElapsedSeconds = Math.Round((kv.Value.MeanTicks - firstTicks) / (double)TimeSpan.TicksPerSecond, 3);
                return point;
            })
            .ToList();
    }

    /// <summary>The samples themselves when already in time order (the normal case), else a sorted copy.</summary>
    public static IReadOnlyList<SamplePoint> InTimeOrder(IReadOnlyList<SamplePoint> series)
    {
        for (int i = 1; i < series.Count; i++)
            if (series[i].TimeUtc < series[i - 1].TimeUtc)
                return series.OrderBy(p => p.TimeUtc).ToList();
        return series;
    }

    /// <summary>Sums rates; keeps rate-weighted sums of sizes and latencies.</summary>
    private sealed class Accumulator
    {
        private int _n, _times;
        private double _rate, _bytesWeighted, _latencyWeighted, _p99, _max;
        private decimal _ticks;

        /// <summary>Mean UTC ticks of the samples added.</summary>
        public long MeanTicks => _times == 0 ? 0 : (long)decimal.Round(_ticks / _times, MidpointRounding.AwayFromZero);

        public void Reset()
        {
            _n = _times = 0;
            _rate = _bytesWeighted = _latencyWeighted = _p99 = _max = 0;
            _ticks = 0;
        }

        public void Add(SamplePoint p, bool averaging) =>
            Add(p.OperationsPerSecond, p.OperationsPerSecond * p.AverageBytes, p.OperationsPerSecond * p.AverageLatencyMs, p.P99LatencyMs, p.MaxLatencyMs, p.TimeUtc.Ticks, averaging);

        /// <summary>Adds another accumulator's (per-source, duplicate-averaged) point.</summary>
        public void Add(Accumulator a, bool averaging)
        {
            int n = Math.Max(1, a._n);
            Add(a._rate / n, a._bytesWeighted / n, a._latencyWeighted / n, a._p99, a._max, a.MeanTicks, averaging);
        }

        private void Add(double rate, double bytesWeighted, double latencyWeighted, double p99, double max, long ticks, bool averaging)
        {
            _ticks += ticks;
            _times++;
            _n = averaging ? _n + 1 : 1;
            _rate += rate;
            _bytesWeighted += bytesWeighted;
            _latencyWeighted += latencyWeighted;
            _p99 = Math.Max(_p99, p99);
            _max = Math.Max(_max, max);
        }

        public SamplePoint ToPoint()
        {
            int n = Math.Max(1, _n);
            return new SamplePoint
            {
                OperationsPerSecond = _rate / n,
                AverageBytes = _rate > 0 ? _bytesWeighted / _rate : 0,
                AverageLatencyMs = _rate > 0 ? _latencyWeighted / _rate : 0,
                P99LatencyMs = _p99,
                MaxLatencyMs = _max,
            };
        }
    }
}
