using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// A run, or a deployment of several hosts, judged against the sizing calculator's targets (PSTypeName
    /// ExchStorageTest.CalculatorCheck): each target beside what was achieved, with its verdict line. From the engine's
    /// result event (one host) or its report's aggregate (the deployment); Pass or Fail stays the run's own.
    /// </summary>
    public sealed class CalculatorCheck
    {
        public string? Calculator { get; set; }
        public string? Version { get; set; }
        public string? Workbook { get; set; }
        /// <summary>1 for one host's run; the hosts of a deployment.</summary>
        public int Servers { get; set; }
        /// <summary>Every rate target met: database IOPS, log IOPS, maintenance.</summary>
        public bool Met { get; set; }
        /// <summary>The test's database read share was the design's (the mix its rates are of).</summary>
        public bool MixMatched { get; set; }
        public TextList<CalculatorCheckRow> Rows { get; set; } = TextList<CalculatorCheckRow>.Empty;

        /// <summary>The engine's <c>calculatorCheck</c> (a result event's, or a report's aggregate); its camelCase names are the properties' (read without case).</summary>
        internal static CalculatorCheck? FromEvent(JsonObject? fields) => fields == null ? null : FromBag(fields);

        /// <summary>
        /// A check as it comes back: the engine's JSON, the object itself, or its property bag over remoting
        /// (Deserialized.ExchStorageTest.CalculatorCheck, multi-host runs and jobs), read by name; null when there is none.
        /// </summary>
        internal static CalculatorCheck? FromBag(object? value)
        {
            value = Input.SettingSource.Unwrap(value);
            if (value is CalculatorCheck typed) return typed;
            if (value == null || value is string) return null;
            var bag = Input.SettingSource.From(value);
            double? Number(Input.SettingSource source, string name) =>
                Input.NumberInput.TryParse(source.Get(null, name), out double n) ? n : (double?)null;
            string? Text(Input.SettingSource source, string name) => System.Convert.ToString(source.Get(null, name), System.Globalization.CultureInfo.InvariantCulture);
            var rows = new System.Collections.Generic.List<CalculatorCheckRow>();
            if (bag.Get(null, nameof(Rows)) is System.Collections.IEnumerable items && !(items is string))
            {
                foreach (object? item in items)
                {
                    object? row = Input.SettingSource.Unwrap(item);
                    if (row == null) continue;
                    if (row is string line) { rows.Add(new CalculatorCheckRow { Line = line }); continue; }
                    var r = Input.SettingSource.From(row);
                    rows.Add(new CalculatorCheckRow
                    {
                        Metric = Text(r, nameof(CalculatorCheckRow.Metric)), Target = Number(r, nameof(CalculatorCheckRow.Target)),
                        Achieved = Number(r, nameof(CalculatorCheckRow.Achieved)), Verdict = Text(r, nameof(CalculatorCheckRow.Verdict)),
                        Met = System.Management.Automation.LanguagePrimitives.IsTrue(r.Get(false, nameof(CalculatorCheckRow.Met))), Line = Text(r, nameof(CalculatorCheckRow.Line)),
                    });
                }
            }
            return new CalculatorCheck
            {
                Calculator = Text(bag, nameof(Calculator)), Version = Text(bag, nameof(Version)), Workbook = Text(bag, nameof(Workbook)),
                Servers = (int)(Number(bag, nameof(Servers)) ?? 0),
                Met = System.Management.Automation.LanguagePrimitives.IsTrue(bag.Get(false, nameof(Met))),
                MixMatched = System.Management.Automation.LanguagePrimitives.IsTrue(bag.Get(false, nameof(MixMatched))),
                Rows = rows.ToArray(),
            };
        }

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

        public override string ToString() => Line ?? "";
    }
}
