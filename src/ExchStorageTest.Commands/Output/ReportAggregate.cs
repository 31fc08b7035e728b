using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// The merged figures of the hosts of one run (PSTypeName ExchStorageTest.ReportAggregate), as the engine
    /// computed them from every host's results file: rates summed, latency histograms merged.
    /// </summary>
    public sealed class ReportAggregate
    {
        public int Hosts { get; set; }
        /// <summary>Pass only when every host passed.</summary>
        public string? Result { get; set; }
        public double? TargetIops { get; set; }
        public double? AchievedIops { get; set; }
        /// <summary>The largest difference between two hosts' measuring starts (each on its own clock), in seconds.</summary>
        public double? MeasuringStartSkewSeconds { get; set; }
        /// <summary>A capacity search whose hosts stepped together: the deployment's answer and load curve; null otherwise.</summary>
        public CapacityAnswer? Capacity { get; set; }
        /// <summary>The deployment against the sizing calculator's targets (its hosts ran one calculator profile); null otherwise.</summary>
        public CalculatorCheck? CalculatorCheck { get; set; }
        /// <summary>The deployment against the PerfMon capture its hosts' profile was made of, in the engine's line; null otherwise.</summary>
        public string? CaptureCheck { get; set; }

        internal static ReportAggregate? From(JsonObject? fields) => fields == null ? null : new ReportAggregate
        {
            Hosts = (int)(fields.GetNumber(EventFields.Report.Merged.Hosts) ?? 0),
            Result = fields.GetString(EventFields.Report.Merged.Result),
            TargetIops = fields.GetNumber(EventFields.Report.Merged.TargetIops),
            AchievedIops = fields.GetNumber(EventFields.Report.Merged.AchievedIops),
            MeasuringStartSkewSeconds = fields.GetNumber(EventFields.Report.Merged.MeasuringStartSkewSeconds),
            Capacity = CapacityAnswer.FromEvent(fields.GetObject(EventFields.Report.Merged.Capacity)),
            CalculatorCheck = CalculatorCheck.FromEvent(fields.GetObject(EventFields.Report.Merged.CalculatorCheck)),
            CaptureCheck = fields.GetObject(EventFields.Report.Merged.CaptureCheck)?.GetString(EventFields.Result.CaptureCheckFields.Line),
        };

        public override string ToString() => $"{Hosts} hosts {Result}: {AchievedIops:0.###} of {TargetIops:0.###} IOPS";
    }
}
