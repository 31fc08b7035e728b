using System;

namespace ExchStorageTest
{
    /// <summary>
    /// The whole of a multi-host run (PSTypeName ExchStorageTest.AggregateResult), after one TestResult per host.
    /// The merged figures come from the engine's report over every collected results file and from nowhere else
    /// (rates summed, latency histograms merged, never percentiles averaged); the plain sum of the hosts' achieved
    /// IOPS stays beside them as a cross-check. The run passes only when every host ran to completion and passed.
    /// </summary>
    public sealed class AggregateResult
    {
        public string? RunId { get; set; }
        /// <summary>Pass or Fail.</summary>
        public string? Result { get; set; }
        /// <summary>The agreed UTC instant every host started loading (tuning, warm-up), on this computer's clock; null when every host failed its check.</summary>
        public DateTime? StartAtUtc { get; set; }
        /// <summary>The agreed UTC instant every host started measuring, on this computer's clock.</summary>
        public DateTime? MeasureAtUtc { get; set; }
        /// <summary>
        /// The largest difference between two hosts' actual measuring starts (each on its own clock), in seconds, from the
        /// engine's merge; for a capacity search whose hosts stepped together, the largest of its steps'.
        /// </summary>
        public double? MeasuringStartSkewSeconds { get; set; }
        /// <summary>Every host of the run, the failed ones included.</summary>
        public int HostCount { get; set; }
        public int PassedHostCount { get; set; }
        public TextList<string> FailedHosts { get; set; } = TextList<string>.Empty;
        /// <summary>Every failed host with how it was reached and why it failed.</summary>
        public HostFailure[] Failures { get; set; } = Array.Empty<HostFailure>();
        /// <summary>The per-host results (the same objects the command returned before this one).</summary>
        public TestResult[] Hosts { get; set; } = Array.Empty<TestResult>();
        public double? TargetIops { get; set; }
        public double? AchievedIops { get; set; }
        public double AchievedIopsPerHostSum { get; set; }
        /// <summary>Report: the engine merged every host's results into TargetIops and AchievedIops; null when it did not (one host, or no report), and so are they.</summary>
        public string? AchievedIopsSource { get; set; }
        /// <summary>The per-host results JSON collected on this computer.</summary>
        public TextList<string> ResultsPath { get; set; } = TextList<string>.Empty;
        /// <summary>The folder they were collected in, with run.json.</summary>
        public string? OutputPath { get; set; }
        /// <summary>
        /// -TestType Capacity: the deployment's answer (its hosts stepped together; a step passed only when every host passed
        /// it), from the engine's report over the hosts' results; each host's own is its TestResult's Capacity. Null otherwise.
        /// </summary>
        public CapacityAnswer? Capacity { get; set; }
        /// <summary>The engine's report over the collected results (its text, ESRP tables and merge), as Get-TestReport returns it; null when it failed.</summary>
        public TestReport? Report { get; set; }
        /// <summary>The deployment against the sizing calculator's targets, from the engine's report over the hosts (a calculator profile); null otherwise.</summary>
        public CalculatorCheck? CalculatorCheck => Report?.Aggregate?.CalculatorCheck;
        /// <summary>The deployment against the PerfMon capture its hosts' profile was made of, in the engine's line; null otherwise.</summary>
        public string? CaptureCheck => Report?.Aggregate?.CaptureCheck;

        public override string ToString() => $"{RunId} {Result} ({PassedHostCount} of {HostCount} hosts passed)";
    }
}
