using System.Collections.Generic;
using System.Linq;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The fields of the engine's request (docs/protocol.md), spelled once: the module writes requests with
    /// these names, the engine reads them (its request types' properties, camelCase, are held against them by
    /// a test) and its request gate refuses any other.
    /// </summary>
    public static class RequestFields
    {
        public const string Protocol = "protocol";
        public const string Command = "command";
        public const string TestId = "testId";
        /// <summary>The run a test is one host of: every host of a multi-host or start-file run gets the same (results <c>runId</c>).</summary>
        public const string RunId = "runId";
        public const string Profile = "profile";
        public const string TestType = "testType";
        public const string DurationSeconds = "durationSeconds";
        public const string OutputPath = "outputPath";
        public const string DatabaseSource = "databaseSource";
        public const string RestoreFromPath = "restoreFromPath";
        public const string ThreadCount = "threadCount";
        public const string TargetRateIops = "targetRateIops";
        public const string Thresholds = "thresholds";
        public const string ContinueOnError = "continueOnError";
        public const string SampleIntervalSeconds = "sampleIntervalSeconds";
        public const string AllowBufferedIo = "allowBufferedIo";
        /// <summary>Run on storage configured in a way Microsoft does not support for Exchange (the platform pre-flight's refusals), in a lab that knows.</summary>
        public const string AllowUnsupportedPlatform = "allowUnsupportedPlatform";
        public const string PinWorkerThreads = "pinWorkerThreads";
        public const string TuningSeconds = "tuningSeconds";
        public const string WarmupSeconds = "warmupSeconds";
        public const string StartAtUtc = "startAtUtc";
        public const string MeasureAtUtc = "measureAtUtc";
        public const string LogFilesToReplay = "logFilesToReplay";
        public const string CapacityPercent = "capacityPercent";
        /// <summary>The database pages' data profile (<see cref="DataProfile"/>): the share of their content a compressor removes.</summary>
        public const string CompressibilityPercent = "compressibilityPercent";
        /// <summary>The database pages' data profile: the share of the file's 4 KiB blocks that repeat another block.</summary>
        public const string DuplicatePercent = "duplicatePercent";
        /// <summary>
        /// The Jetstress test type a run's files and report title are named by, when it is not the test type itself: only
        /// <c>Performance</c> for a <c>Throughput</c> run, which is Jetstress's Performance test with DatabaseSizing Capacity
        /// (JetstressCmd sends it, so Jetstress automation finds Performance_&lt;time&gt;.html as Jetstress writes it).
        /// </summary>
        public const string ReportedAs = "reportedAs";
        /// <summary>
        /// The profile's database and log paths taken as Jetstress takes an EseInstance's (JetstressCmd sends it): each
        /// database's files directly in its own folder, its logs directly in its log folder, and a missing folder created.
        /// </summary>
        public const string JetstressFolders = "jetstressFolders";
        /// <summary>
        /// A capacity search's driver (<see cref="CapacityStepping"/>): <c>Engine</c> (the default) searches on its own;
        /// <c>Caller</c> runs the steps the caller sends on the control channel (<see cref="ControlCommands"/>), so an
        /// orchestrator can step several hosts together (docs/capacity.md, "Several hosts").
        /// </summary>
        public const string CapacitySteps = "capacitySteps";
        /// <summary>A failure-mode window (docs/failure-mode.md): where it starts, seconds into the measured window.</summary>
        public const string FaultAtSeconds = "faultAtSeconds";
        /// <summary>The longest the declared fault may take, recovery included (default <see cref="FaultRules.DefaultFaultLengthSeconds"/>).</summary>
        public const string FaultLengthSeconds = "faultLengthSeconds";
        /// <summary>The script that causes the fault at its instant (a controller failover, a path disable).</summary>
        public const string FaultScript = "faultScript";
        /// <summary>The one host of a run that starts <see cref="FaultScript"/> (its machine name); null: the host that has the request.</summary>
        public const string FaultScriptHost = "faultScriptHost";
        /// <summary>The longest a volume may go with I/O outstanding and nothing completing (default <see cref="FaultRules.DefaultStallLimitSeconds"/>).</summary>
        public const string StallLimitSeconds = "stallLimitSeconds";
        /// <summary>A spare folder a reseed streams a database copy onto during the fault window (<see cref="ReseedRules"/>).</summary>
        public const string ReseedPath = "reseedPath";
        /// <summary>Command <c>report</c>: judge the stored runs again (another fault window, other thresholds, a sub-window) into new files.</summary>
        public const string Rejudge = "rejudge";
        /// <summary>Command <c>report</c> with <see cref="Rejudge"/>: the sub-window judged, seconds into the measured window (from, to).</summary>
        public const string WindowFromSeconds = "windowFromSeconds";
        public const string WindowToSeconds = "windowToSeconds";
        public const string Paths = "paths";
        public const string Streams = "streams";
        public const string Formats = "formats";
        public const string MaxResultAgeHours = "maxResultAgeHours";
        public const string Runs = "runs";
        public const string MetadataPath = "metadataPath";
        /// <summary>Command <c>report</c>: compare the separate runs among <c>paths</c> (a <c>comparison</c> event).</summary>
        public const string Compare = "compare";
        /// <summary>Command <c>report</c>: the results in <c>paths</c> are the hosts of one deployment, merged whatever their run ids.</summary>
        public const string Deployment = "deployment";
        /// <summary>Command <c>calculator</c>: the calculator's Servers.csv export (the workbook is the one entry of <c>paths</c>).</summary>
        public const string ServersCsvPath = "serversCsvPath";
        /// <summary>Command <c>capture</c>: the capture's busiest hour is multiplied by this for the target (default <see cref="CaptureRules.DefaultGrowthFactor"/>).</summary>
        public const string GrowthFactor = "growthFactor";
        /// <summary>Command <c>capture</c>: the hour the admin names instead of the busiest, as its start on the capture's clock ("yyyy-MM-dd HH:mm").</summary>
        public const string CaptureWindowStart = "captureWindowStart";
        /// <summary>Command <c>capture</c>: the window's length in minutes (default 60; shorter only when named).</summary>
        public const string CaptureWindowMinutes = "captureWindowMinutes";
        /// <summary>Command <c>capture</c>: mailboxes per server when the capture has no Active mailboxes counter, or to replace its figure.</summary>
        public const string MailboxCount = "mailboxCount";
        /// <summary>Command <c>capture</c>: the sizing calculator's workbook, whose design is shown beside the capture's and the higher tested.</summary>
        public const string CalculatorPath = "calculatorPath";

        /// <summary>The fields of the other commands (report, validation, calculator, capture ...), in the order docs/protocol.md lists them.</summary>
        private static readonly string[] OtherCommands =
        {
            Rejudge, WindowFromSeconds, WindowToSeconds, Streams, Paths, Formats, MaxResultAgeHours, Runs, MetadataPath, Compare, Deployment, ServersCsvPath,
            GrowthFactor, CaptureWindowStart, CaptureWindowMinutes, MailboxCount, CalculatorPath,
        };

        /// <summary>
        /// Every top-level field, in the order docs/protocol.md lists them: the request's frame, then the run settings
        /// (<see cref="RunSettingTable"/>: a new setting is an entry there, not a line here), then the other commands' fields.
        /// </summary>
        public static IReadOnlyList<string> All => _all ??=
            new[] { Protocol, Command, TestId, RunId, Profile }.Concat(RunSettingTable.All.Select(s => s.Field)).Concat(OtherCommands).ToArray();

        private static string[]? _all;
    }

    /// <summary>The fields of <c>profile</c>: the settings of a <see cref="ExchStorageTest.MailboxProfile"/>, as saved profile files spell them too.</summary>
    public static class ProfileFields
    {
        public const string Name = "name";
        public const string Description = "description";
        public const string MailboxCount = "mailboxCount";
        public const string IopsPerMailbox = "iopsPerMailbox";
        public const string HeadroomPercent = "headroomPercent";
        public const string MailboxSizeMB = "mailboxSizeMB";
        public const string DatabaseCount = "databaseCount";
        public const string CopiesPerDatabase = "copiesPerDatabase";
        /// <summary>Database copies on each volume, active and passive (the Preferred Architecture's up to four); 1: the Jetstress model.</summary>
        public const string CopiesPerVolume = "copiesPerVolume";
        /// <summary>Of those, the active ones: the profile's own databases.</summary>
        public const string ActiveCopiesPerVolume = "activeCopiesPerVolume";
        /// <summary>Of the passive ones, those whose replay is lagged.</summary>
        public const string LaggedCopiesPerVolume = "laggedCopiesPerVolume";
        public const string DatabasePaths = "databasePaths";
        public const string LogPaths = "logPaths";
        public const string ThreadCount = "threadCount";
        public const string BackgroundMaintenance = "backgroundMaintenance";
        public const string MinimumDatabaseCacheMB = "minimumDatabaseCacheMB";
        public const string MaximumDatabaseCacheMB = "maximumDatabaseCacheMB";
        /// <summary>Per-server databases (<see cref="ServerLayoutFields"/>): the host of that name tests them.</summary>
        public const string Servers = "servers";
        /// <summary>The sizing calculator's figures (<see cref="CalculatorFields"/>); absent or null for a profile not built from one.</summary>
        public const string Calculator = "calculator";
        /// <summary>The PerfMon capture's busiest hour and the target made of it (<see cref="CaptureFields"/>); absent or null for a profile not built from one.</summary>
        public const string Capture = "capture";

        public static readonly string[] All =
        {
            Name, Description, MailboxCount, IopsPerMailbox, HeadroomPercent, MailboxSizeMB, DatabaseCount, CopiesPerDatabase,
            CopiesPerVolume, ActiveCopiesPerVolume, LaggedCopiesPerVolume, DatabasePaths, LogPaths, ThreadCount, BackgroundMaintenance, MinimumDatabaseCacheMB, MaximumDatabaseCacheMB, Servers, Calculator, Capture,
        };
    }

    /// <summary>The fields of one entry of a profile's <c>servers</c>: a server's own databases.</summary>
    public static class ServerLayoutFields
    {
        public const string Name = "name";
        public const string DatabasePaths = "databasePaths";
        public const string LogPaths = "logPaths";

        public static readonly string[] All = { Name, DatabasePaths, LogPaths };
    }

    /// <summary>The fields of a profile's <c>calculator</c>: the sizing calculator's figures for one server (<see cref="ExchStorageTest.CalculatorTargets"/>).</summary>
    public static class CalculatorFields
    {
        public const string Calculator = "calculator";
        public const string Version = "version";
        public const string Workbook = "workbook";
        public const string Role = "role";
        public const string MailboxesPerServer = "mailboxesPerServer";
        public const string DatabasesPerServer = "databasesPerServer";
        public const string DatabaseSizeGB = "databaseSizeGB";
        public const string ServersPerDag = "serversPerDag";
        public const string Dags = "dags";
        public const string DatabaseIops = "databaseIops";
        public const string LogIops = "logIops";
        public const string DatabaseReadShare = "databaseReadShare";
        public const string MaintenanceMBPerSecond = "maintenanceMBPerSecond";
        public const string DatabaseReadsPerSecond = "databaseReadsPerSecond";
        public const string DatabaseWritesPerSecond = "databaseWritesPerSecond";
        public const string LogWritesPerSecond = "logWritesPerSecond";
        public const string LogReadsPerSecond = "logReadsPerSecond";
        public const string DatabaseCachePerMailboxMB = "databaseCachePerMailboxMB";
        public const string Servers = "servers";

        public static readonly string[] All =
        {
            Calculator, Version, Workbook, Role, MailboxesPerServer, DatabasesPerServer, DatabaseSizeGB, ServersPerDag, Dags, DatabaseIops, LogIops,
            DatabaseReadShare, MaintenanceMBPerSecond, DatabaseReadsPerSecond, DatabaseWritesPerSecond, LogWritesPerSecond, LogReadsPerSecond,
            DatabaseCachePerMailboxMB, Servers,
        };
    }

    /// <summary>The fields of a profile's <c>capture</c>: what a PerfMon capture of the servers being replaced showed, and the target made of it (<see cref="ExchStorageTest.CaptureTargets"/>).</summary>
    public static class CaptureFields
    {
        public const string Captures = "captures";
        public const string Servers = "servers";
        public const string TimeZone = "timeZone";
        public const string WindowStart = "windowStart";
        public const string WindowEnd = "windowEnd";
        public const string WindowNamed = "windowNamed";
        public const string GrowthFactor = "growthFactor";
        public const string DatabaseIops = "databaseIops";
        public const string DatabaseReadsPerSecond = "databaseReadsPerSecond";
        public const string DatabaseWritesPerSecond = "databaseWritesPerSecond";
        public const string RecoveryReadsPerSecond = "recoveryReadsPerSecond";
        public const string PeakDatabaseIops = "peakDatabaseIops";
        public const string LogWritesPerSecond = "logWritesPerSecond";
        public const string LogBytesPerSecond = "logBytesPerSecond";
        public const string ReadLatencyMs = "readLatencyMs";
        public const string LogWriteLatencyMs = "logWriteLatencyMs";
        public const string ReadBytes = "readBytes";
        public const string WriteBytes = "writeBytes";
        public const string ActiveMailboxes = "activeMailboxes";
        public const string TargetIops = "targetIops";
        public const string CalculatorIops = "calculatorIops";
        public const string TestedIops = "testedIops";

        public static readonly string[] All =
        {
            Captures, Servers, TimeZone, WindowStart, WindowEnd, WindowNamed, GrowthFactor, DatabaseIops, DatabaseReadsPerSecond, DatabaseWritesPerSecond,
            RecoveryReadsPerSecond, PeakDatabaseIops, LogWritesPerSecond, LogBytesPerSecond, ReadLatencyMs, LogWriteLatencyMs, ReadBytes, WriteBytes,
            ActiveMailboxes, TargetIops, CalculatorIops, TestedIops,
        };
    }

    /// <summary>The fields of <c>thresholds</c>: the latency limits a run is judged by (the engine's presets fill the ones not given).</summary>
    public static class ThresholdFields
    {
        public const string Name = "name";
        public const string AverageDatabaseReadLatencyMs = "averageDatabaseReadLatencyMs";
        public const string MaximumDatabaseReadLatencyMs = "maximumDatabaseReadLatencyMs";
        public const string AverageLogWriteLatencyMs = "averageLogWriteLatencyMs";
        public const string MaximumLogWriteLatencyMs = "maximumLogWriteLatencyMs";
        public const string MaximumPageFaultStallsPerSecond = "maximumPageFaultStallsPerSecond";

        /// <summary>The limits (every field but <see cref="Name"/>).</summary>
        public static readonly string[] Limits =
        {
            AverageDatabaseReadLatencyMs, MaximumDatabaseReadLatencyMs, AverageLogWriteLatencyMs, MaximumLogWriteLatencyMs, MaximumPageFaultStallsPerSecond,
        };

        public static readonly string[] All =
        {
            Name, AverageDatabaseReadLatencyMs, MaximumDatabaseReadLatencyMs, AverageLogWriteLatencyMs, MaximumLogWriteLatencyMs, MaximumPageFaultStallsPerSecond,
        };
    }

    /// <summary>The fields of one entry of <c>streams</c> (command <c>streams</c>).</summary>
    public static class StreamFields
    {
        public const string Name = "name";
        public const string Preset = "preset";
        public const string Pattern = "pattern";
        public const string BlockSizeBytes = "blockSizeBytes";
        public const string ReadPercent = "readPercent";
        public const string QueueDepth = "queueDepth";
        public const string RateIops = "rateIops";
        public const string Arrival = "arrival";
        public const string Path = "path";
        public const string FileSizeBytes = "fileSizeBytes";
        public const string WriteThrough = "writeThrough";

        public static readonly string[] All = { Name, Preset, Pattern, BlockSizeBytes, ReadPercent, QueueDepth, RateIops, Arrival, Path, FileSizeBytes, WriteThrough };
    }

    /// <summary>The fields of one entry of <c>runs</c> (command <c>report</c>): a labelled run of a comparison.</summary>
    public static class RunFields
    {
        public const string Label = "label";
        public const string Paths = "paths";

        public static readonly string[] All = { Label, Paths };
    }
}
