using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// One row of a report's per-instance I/O tables (PSTypeName ExchStorageTest.ReportInstance): a database instance of a
    /// host, in the Transactional or the Total table, with the twelve counters of the Jetstress report's table as flat
    /// properties, so the rows format as a table and export to CSV as they read. Latencies in ms, rates per second, sizes in bytes.
    /// </summary>
    public sealed class ReportInstance
    {
        public string? TestId { get; set; }
        /// <summary>The host's machine name.</summary>
        public string? Machine { get; set; }
        /// <summary>Transactional (the transactions' I/O) or Total (with background maintenance and replication).</summary>
        public string? Table { get; set; }
        /// <summary>The instance (database) name as the report prints it.</summary>
        public string? Instance { get; set; }
        public double? DatabaseReadsAverageLatencyMs { get; set; }
        public double? DatabaseWritesAverageLatencyMs { get; set; }
        public double? DatabaseReadsPerSecond { get; set; }
        public double? DatabaseWritesPerSecond { get; set; }
        public double? DatabaseReadsAverageBytes { get; set; }
        public double? DatabaseWritesAverageBytes { get; set; }
        public double? LogReadsAverageLatencyMs { get; set; }
        public double? LogWritesAverageLatencyMs { get; set; }
        public double? LogReadsPerSecond { get; set; }
        public double? LogWritesPerSecond { get; set; }
        public double? LogReadsAverageBytes { get; set; }
        public double? LogWritesAverageBytes { get; set; }

        /// <summary>A row of the report event's <c>instances</c>: testId, machine, table and its counters (the engine's IoCounterRow, camelCase).</summary>
        internal static ReportInstance From(JsonObject row)
        {
            JsonObject c = row.GetObject("counters") ?? new JsonObject();
            return new ReportInstance
            {
                TestId = row.GetString("testId"),
                Machine = row.GetString("machine"),
                Table = row.GetString("table"),
                Instance = c.GetString("instance"),
                DatabaseReadsAverageLatencyMs = c.GetNumber("databaseReadsAverageLatencyMs"),
                DatabaseWritesAverageLatencyMs = c.GetNumber("databaseWritesAverageLatencyMs"),
                DatabaseReadsPerSecond = c.GetNumber("databaseReadsPerSecond"),
                DatabaseWritesPerSecond = c.GetNumber("databaseWritesPerSecond"),
                DatabaseReadsAverageBytes = c.GetNumber("databaseReadsAverageBytes"),
                DatabaseWritesAverageBytes = c.GetNumber("databaseWritesAverageBytes"),
                LogReadsAverageLatencyMs = c.GetNumber("logReadsAverageLatencyMs"),
                LogWritesAverageLatencyMs = c.GetNumber("logWritesAverageLatencyMs"),
                LogReadsPerSecond = c.GetNumber("logReadsPerSecond"),
                LogWritesPerSecond = c.GetNumber("logWritesPerSecond"),
                LogReadsAverageBytes = c.GetNumber("logReadsAverageBytes"),
                LogWritesAverageBytes = c.GetNumber("logWritesAverageBytes"),
            };
        }

        public override string ToString() => $"{Machine} {Table} {Instance}";
    }
}
