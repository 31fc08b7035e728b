using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// A run, or a deployment of several hosts, judged against the sizing calculator's targets (PSTypeName
    /// ExchStorageTest.CalculatorCheck): each target beside what was achieved, with its verdict line. From the helper's
    /// result event (one host) or its report's aggregate (the deployment); Pass or Fail stays the run's own.
    /// </summary>
    public sealed class CalculatorCheck
    {
        public string? Calculator { get; set; }
        public string? Version { get; set; }
        public string? Workbook { get; set; }
        /// <summary>1 for one host's run; the hosts of a deployment.</summary>
        public int Servers { get; set; }
        /// <summary>Every target met.</summary>
        public bool Met { get; set; }
        public TextList<CalculatorCheckRow> Rows { get; set; } = TextList<CalculatorCheckRow>.Empty;

        internal static CalculatorCheck? FromEvent(JsonObject? fields) => fields == null ? null : new CalculatorCheck
        {
            Calculator = fields.GetString(EventFields.Result.CalculatorCheckFields.Calculator),
            Version = fields.GetString(EventFields.Result.CalculatorCheckFields.Version),
            Workbook = fields.GetString(EventFields.Result.CalculatorCheckFields.Workbook),
            Servers = (int)(fields.GetNumber(EventFields.Result.CalculatorCheckFields.Servers) ?? 0),
            Met = fields[EventFields.Result.CalculatorCheckFields.Met] is bool met && met,
            Rows = fields.GetArray(EventFields.Result.CalculatorCheckFields.Rows).OfType<JsonObject>().Select(CalculatorCheckRow.From).ToArray(),
        };

        public override string ToString() => $"{(Met ? "Meets" : "Does not meet")} the calculator's design ({Calculator} {Version})";
    }

    /// <summary>One of the calculator's targets beside what was achieved (PSTypeName ExchStorageTest.CalculatorCheckRow).</summary>
    public sealed class CalculatorCheckRow
    {
        /// <summary>DatabaseIops, LogIops, DatabaseReadShare or MaintenanceMBPerSecond.</summary>
        public string? Metric { get; set; }
        public double? Target { get; set; }
        public double? Achieved { get; set; }
        /// <summary>Meets, Short, Matches, Differs or NotMeasured.</summary>
        public string? Verdict { get; set; }
        public bool Met { get; set; }
        public string? Line { get; set; }

        internal static CalculatorCheckRow From(JsonObject row) => new CalculatorCheckRow
        {
            Metric = row.GetString(EventFields.Result.CalculatorCheckFields.Row.Metric),
            Target = row.GetNumber(EventFields.Result.CalculatorCheckFields.Row.Target),
            Achieved = row.GetNumber(EventFields.Result.CalculatorCheckFields.Row.Achieved),
            Verdict = row.GetString(EventFields.Result.CalculatorCheckFields.Row.Verdict),
            Met = row[EventFields.Result.CalculatorCheckFields.Row.Met] is bool met && met,
            Line = row.GetString(EventFields.Result.CalculatorCheckFields.Row.Line),
        };

        public override string ToString() => Line ?? "";
    }
}
