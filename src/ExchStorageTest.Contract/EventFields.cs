namespace ExchStorageTest.Contract
{
    /// <summary>The event types of the engine's JSON Lines output (docs/protocol.md): the value of every event's <c>type</c>.</summary>
    public static class EventTypes
    {
        public const string Hello = "hello";
        public const string Log = "log";
        public const string Progress = "progress";
        public const string Sample = "sample";
        public const string Plan = "plan";
        public const string Result = "result";
        public const string Inspect = "inspect";
        public const string Verify = "verify";
        public const string Report = "report";
        /// <summary>Separate runs side by side (command <c>report</c> asked to compare): the fields of <see cref="EventFields.Comparison"/>.</summary>
        public const string Comparison = "comparison";
        public const string Validation = "validation";
        public const string Error = "error";
        /// <summary>A judged step of a search stepped by its caller (<see cref="CapacityStepping.Caller"/>): the fields of <see cref="EventFields.Result.CapacityFields.Step"/>.</summary>
        public const string CapacityStep = "capacityStep";
        /// <summary>The calculator command's answer: the profiles a sizing calculator's workbook gives, and its servers' layout.</summary>
        public const string Calculator = "calculator";
        /// <summary>The capture command's answer: the profile a PerfMon capture gives, and its derivation in lines.</summary>
        public const string Capture = "capture";
        /// <summary>Nothing else was written for a heartbeat interval: the engine is alive (<see cref="Heartbeat"/>). No fields.</summary>
        public const string Heartbeat = "heartbeat";
    }

    /// <summary>
    /// The fields of the events, spelled once: the engine writes them, the module maps them to its output objects.
    /// The report event's open-ended tables (esrp, comparison, instance counters) are named by the engine alone: the
    /// module hands them on as PSObjects without reading their fields.
    /// </summary>
    public static class EventFields
    {
        public const string Type = "type";
        public const string TimeUtc = "timeUtc";

        public static class Hello
        {
            public const string Protocol = "protocol";
            public const string EngineVersion = "engineVersion";
            public const string Os = "os";
            public const string Runtime = "runtime";
            /// <summary>The engine's promise: it writes an event at least this often (<see cref="Contract.Heartbeat"/>).</summary>
            public const string HeartbeatSeconds = "heartbeatSeconds";
        }

        public static class Log
        {
            public const string Level = "level";
            public const string Message = "message";
            public const string Verbose = "verbose";
            public const string Info = "info";
            public const string Warning = "warning";
        }

        public static class Progress
        {
            public const string Phase = "phase";
            public const string Percent = "percent";
            public const string EtaSeconds = "etaSeconds";
            public const string Status = "status";
        }

        public static class Sample
        {
            public const string Phase = "phase";
            public const string ElapsedSeconds = "elapsedSeconds";
            public const string Iops = "iops";
            public const string DbReadLatencyMs = "dbReadLatencyMs";
            public const string LogWriteLatencyMs = "logWriteLatencyMs";
        }

        public static class Error
        {
            public const string Code = "code";
            public const string Category = "category";
            public const string Message = "message";
            public const string Target = "target";
        }

        public static class Plan
        {
            public const string TestType = "testType";
            public const string TargetIops = "targetIops";
            public const string ThreadCount = "threadCount";
            public const string TargetRateIops = "targetRateIops";
            public const string DurationSeconds = "durationSeconds";
            public const string SampleIntervalSeconds = "sampleIntervalSeconds";
            public const string DatabaseSizeBytes = "databaseSizeBytes";
            public const string TotalBytes = "totalBytes";
            public const string OutputPath = "outputPath";
            public const string Thresholds = "thresholds";
            public const string Schedule = "schedule";
            public const string Files = "files";
            /// <summary>The other files the run writes (<see cref="Output"/>): its results file, the reports beside it, its run lock files.</summary>
            public const string Outputs = "outputs";
            /// <summary>A capacity search's plan (<see cref="CapacityPlan"/>): how it spends its bound.</summary>
            public const string Capacity = "capacity";

            /// <summary>The fields of <see cref="Capacity"/> (docs/capacity.md).</summary>
            public static class CapacityPlan
            {
                public const string StartMailboxes = "startMailboxes";
                public const string BoundSeconds = "boundSeconds";
                public const string WarmupSeconds = "warmupSeconds";
                public const string SettleSeconds = "settleSeconds";
                public const string StepSeconds = "stepSeconds";
                public const string MaximumSteps = "maximumSteps";
                public const string ResolutionPercent = "resolutionPercent";
                public const string PaceFactor = "paceFactor";
            }

            /// <summary>The fields of <see cref="Schedule"/>: when a run loads and measures (docs/load-model.md).</summary>
            public static class ScheduleFields
            {
                public const string TuningSeconds = "tuningSeconds";
                public const string WarmupSeconds = "warmupSeconds";
                public const string SettleSeconds = "settleSeconds";
                public const string LeadSeconds = "leadSeconds";
                public const string StartAtUtc = "startAtUtc";
                public const string MeasureAtUtc = "measureAtUtc";
            }

            /// <summary>One entry of <see cref="Outputs"/>: its kind (<see cref="ResultsKind"/>, a report format's name, <see cref="LockKind"/>) and path.</summary>
            public static class Output
            {
                public const string Path = "path";
                public const string Kind = "kind";
                public const string ResultsKind = "Results";
                public const string LockKind = "Lock";
            }

            /// <summary>One entry of <see cref="Files"/>.</summary>
            public static class File
            {
                public const string Path = "path";
                public const string SizeBytes = "sizeBytes";
                public const string Kind = "kind";
                public const string Exists = "exists";
            }
        }

        public static class Result
        {
            public const string TestId = "testId";
            public const string TestType = "testType";
            public const string Verdict = "result";
            public const string Completion = "completion";
            public const string Reasons = "reasons";
            public const string TargetIops = "targetIops";
            public const string AchievedIops = "achievedIops";
            public const string DbReadLatencyMs = "dbReadLatencyMs";
            public const string DbWriteLatencyMs = "dbWriteLatencyMs";
            public const string LogWriteLatencyMs = "logWriteLatencyMs";
            public const string Streams = "streams";
            public const string StartAtUtc = "startAtUtc";
            public const string MeasureAtUtc = "measureAtUtc";
            public const string MeasuringStartUtc = "measuringStartUtc";
            public const string IoBackend = "ioBackend";
            public const string DirectIo = "directIo";
            public const string ResultsPath = "resultsPath";
            public const string ReportPaths = "reportPaths";
            /// <summary>The same report files with their kinds (<see cref="ReportFile"/>, <see cref="ReportKinds"/>).</summary>
            public const string Reports = "reports";
            /// <summary>A capacity search's answer and steps (<see cref="CapacityFields"/>); absent for other test types.</summary>
            public const string Capacity = "capacity";
            /// <summary>The run against the sizing calculator's targets (<see cref="CalculatorCheckFields"/>); absent when the profile is not the calculator's.</summary>
            public const string CalculatorCheck = "calculatorCheck";
            /// <summary>A capacity search of a calculator profile: its headroom over the calculator's design, in words.</summary>
            public const string CalculatorHeadroom = "calculatorHeadroom";
            /// <summary>The run against the PerfMon capture's busiest hour (<see cref="CaptureCheckFields"/>); absent when the profile is not a capture's.</summary>
            public const string CaptureCheck = "captureCheck";
            /// <summary>
            /// The failure mode in one line: the fault window's outcome as judged, or the longest stall nobody declared
            /// ("Storage stalled 5.0 s on /mnt/db at 60.2 s (no fault declared)"); absent when there is neither.
            /// </summary>
            public const string FaultSummary = "faultSummary";
            /// <summary>The stalls found on every volume in the measured window (results failureMode.stalls); absent for results without a failure-mode part.</summary>
            public const string StallCount = "stallCount";

            /// <summary>The fields of <see cref="CalculatorCheck"/> (results-schema.md, calculatorCheck).</summary>
            public static class CalculatorCheckFields
            {
                public const string Calculator = "calculator";
                public const string Version = "version";
                public const string Workbook = "workbook";
                public const string Servers = "servers";
                public const string Met = "met";
                public const string MixMatched = "mixMatched";
                public const string Rows = "rows";

                /// <summary>One entry of <see cref="Rows"/>: a target beside what was achieved.</summary>
                public static class Row
                {
                    public const string Metric = "metric";
                    public const string Target = "target";
                    public const string Achieved = "achieved";
                    public const string Verdict = "verdict";
                    public const string Met = "met";
                    public const string Line = "line";
                }
            }

            /// <summary>The fields of <see cref="CaptureCheck"/> (results-schema.md, captureCheck).</summary>
            public static class CaptureCheckFields
            {
                public const string Servers = "servers";
                public const string Hosts = "hosts";
                public const string Window = "window";
                public const string GrowthFactor = "growthFactor";
                public const string BusiestHourIops = "busiestHourIops";
                public const string TargetIops = "targetIops";
                public const string CalculatorIops = "calculatorIops";
                public const string TestedIops = "testedIops";
                public const string AchievedIops = "achievedIops";
                public const string ReadLatencyMs = "readLatencyMs";
                public const string CaptureReadShare = "captureReadShare";
                public const string TestReadShare = "testReadShare";
                public const string Met = "met";
                public const string Line = "line";
            }

            /// <summary>The fields of <see cref="Capacity"/>: the answer (results-schema.md, capacity.answer) and the load curve.</summary>
            public static class CapacityFields
            {
                public const string Mailboxes = "mailboxes";
                public const string MailboxesWithoutHeadroom = "mailboxesWithoutHeadroom";
                public const string LimitingMailboxes = "limitingMailboxes";
                public const string LimitingRule = "limitingRule";
                public const string Resolved = "resolved";
                /// <summary>True when the answer only bounds the capacity from below (the storage carries at least <c>mailboxes</c>): see <see cref="LowerBoundReason"/>.</summary>
                public const string LowerBound = "lowerBound";
                /// <summary>What cut the search: HostLimited, or when no step failed its stop reason (TimeBoundReached, MaximumReached, Stopped, Failed); absent when a failing step bounds the answer.</summary>
                public const string LowerBoundReason = "lowerBoundReason";
                public const string RequiredMailboxes = "requiredMailboxes";
                public const string PercentOverRequirement = "percentOverRequirement";
                public const string ReserveIops = "reserveIops";
                public const string StopReason = "stopReason";
                public const string StopMessage = "stopMessage";
                public const string Steps = "steps";

                /// <summary>One entry of <see cref="Steps"/>: a point of the load curve.</summary>
                public static class Step
                {
                    /// <summary>The step's number in the search (1, 2, ...).</summary>
                    public const string Number = "step";
                    /// <summary>When the step's measured window started, on the host's clock.</summary>
                    public const string MeasureStartUtc = "measureStartUtc";
                    public const string WindowSeconds = "windowSeconds";
                    public const string Mailboxes = "mailboxes";
                    public const string TargetIops = "targetIops";
                    public const string AchievedIops = "achievedIops";
                    public const string DbReadLatencyAvgMs = "dbReadLatencyAvgMs";
                    public const string DbReadLatencyP99Ms = "dbReadLatencyP99Ms";
                    public const string LogWriteLatencyAvgMs = "logWriteLatencyAvgMs";
                    public const string LogWriteLatencyP99Ms = "logWriteLatencyP99Ms";
                    public const string Result = "result";
                    public const string LimitingRule = "limitingRule";
                }
            }

            /// <summary>DatabaseBackup only (it has no transactional IOPS): the backup read's own figures.</summary>
            public const string Backup = "backup";

            /// <summary>The <see cref="Backup"/> object: MB/s read per database (their mean) and by the host in all (the databases' rates added up), and how long it took.</summary>
            public static class BackupFigures
            {
                public const string MBPerSecondPerDatabase = "mbPerSecondPerDatabase";
                public const string MBPerSecond = "mbPerSecond";
                /// <summary>The backup's duration: its slowest database's read (results' backup.elapsedSeconds).</summary>
                public const string Seconds = "seconds";
            }

            /// <summary>SoftRecovery only: what the replay measured (its latencies are the replay's I/O, its IOPS not a target's).</summary>
            public const string SoftRecovery = "softRecovery";

            /// <summary>The <see cref="SoftRecovery"/> object: log files replayed over all databases, how long, and the average time to replay one.</summary>
            public static class SoftRecoveryFigures
            {
                public const string LogsReplayed = "logsReplayed";
                /// <summary>The replay's duration: its slowest database's replay (results' softRecovery.replaySeconds).</summary>
                public const string Seconds = "seconds";
                /// <summary>Jetstress's "average time to play one log file" (results' softRecovery.secondsPerLog).</summary>
                public const string SecondsPerLog = "secondsPerLog";
            }

            /// <summary>One entry of <see cref="Reasons"/>: a rule of the verdict that failed.</summary>
            public static class Reason
            {
                public const string Code = "code";
                public const string Instance = "instance";
                public const string Message = "message";
                public const string Measured = "measured";
                public const string Limit = "limit";
            }

            /// <summary>The object of each latency field.</summary>
            public static class Latency
            {
                public const string Average = "average";
                public const string P99 = "p99";
                public const string Max = "max";
            }

            /// <summary>One entry of <see cref="Streams"/> (command streams).</summary>
            public static class Stream
            {
                public const string Name = "name";
                public const string Operation = "operation";
                public const string Iops = "iops";
                public const string AverageBytes = "averageBytes";
                public const string MeanLatencyMs = "meanLatencyMs";
                public const string P99LatencyMs = "p99LatencyMs";
                public const string MeanQueueDepth = "meanQueueDepth";
            }
        }

        /// <summary>One entry of a <c>reports</c> array: a report file and its kind (<see cref="ReportKinds"/>).</summary>
        public static class ReportFile
        {
            public const string Kind = "kind";
            public const string Path = "path";
        }

        public static class Inspect
        {
            public const string Volumes = "volumes";
            public const string Findings = "findings";

            /// <summary>One entry of <see cref="Findings"/>.</summary>
            public static class Finding
            {
                public const string Path = "path";
                public const string MountPoint = "mountPoint";
                public const string FileSystem = "fileSystem";
                public const string Code = "code";
                public const string Severity = "severity";
                public const string Message = "message";
                public const string Advice = "advice";
            }
        }

        public static class Verify
        {
            public const string Result = "result";
            public const string PagesChecked = "pagesChecked";
            public const string BadPages = "badPages";
            public const string LogsChecked = "logsChecked";
            public const string BadLogs = "badLogs";
            public const string ElapsedSeconds = "elapsedSeconds";
            public const string Files = "files";
            public const string Problems = "problems";

            /// <summary>One entry of <see cref="Files"/>: the totals' fields, per file, with these.</summary>
            public static class File
            {
                public const string Path = "path";
                public const string Kind = "kind";
                public const string BlocksChecked = "blocksChecked";
                public const string Message = "message";
            }
        }

        public static class Report
        {
            public const string TestIds = "testIds";
            /// <summary>The run id every result of the report records (<see cref="RequestFields.RunId"/>): the hosts of one run; absent otherwise.</summary>
            public const string RunId = "runId";
            public const string Result = "result";
            public const string Runs = "runs";
            public const string Hosts = "hosts";
            public const string Text = "text";
            public const string Files = "files";
            public const string ResultsPaths = "resultsPaths";
            public const string Instances = "instances";
            public const string Esrp = "esrp";
            public const string Aggregate = "aggregate";
            /// <summary>Every failing rule of the verdicts rendered (entries as <see cref="Result.Reason"/>; the instance names its host when there are several).</summary>
            public const string Reasons = "reasons";
            /// <summary>The report files of the runs rendered: those written now, and those each run wrote beside its results file.</summary>
            public const string ReportPaths = "reportPaths";
            /// <summary>The same report files with their kinds (<see cref="ReportFile"/>, <see cref="ReportKinds"/>).</summary>
            public const string Reports = "reports";
            /// <summary>One run rendered (one or more hosts): its figures (<see cref="Figures"/>); absent for an ESRP submission of several tests.</summary>
            public const string Summary = "summary";
            /// <summary>
            /// One run rendered: its failure mode in one line (as <see cref="Result.FaultSummary"/>); of several hosts, each
            /// host's "host: line", joined by "; ". Absent when no host has a fault window, a stall or a re-judgement.
            /// </summary>
            public const string FaultSummary = "faultSummary";

            /// <summary>The <see cref="Summary"/> object: target and achieved transactional IOPS (summed over hosts), mean database read and log write latency.</summary>
            public static class Figures
            {
                public const string TestType = "testType";
                public const string TargetIops = "targetIops";
                public const string AchievedIops = "achievedIops";
                public const string DbReadLatencyAvgMs = "dbReadLatencyAvgMs";
                public const string LogWriteLatencyAvgMs = "logWriteLatencyAvgMs";
            }

            /// <summary>The <see cref="Aggregate"/> object: the hosts of one run merged by the engine.</summary>
            public static class Merged
            {
                public const string Hosts = "hosts";
                public const string Result = "result";
                public const string TargetIops = "targetIops";
                public const string AchievedIops = "achievedIops";
                public const string MeasuringStartSkewSeconds = "measuringStartSkewSeconds";
                /// <summary>The deployment's capacity search when every host's search stepped together: the fields of <see cref="Result.CapacityFields"/>.</summary>
                public const string Capacity = "capacity";
                /// <summary>Why the hosts' capacity searches give no deployment answer (absent when they do, or ran none).</summary>
                public const string CapacityUnavailable = "capacityUnavailable";
                /// <summary>The deployment against the sizing calculator's targets (its hosts ran one calculator profile): <see cref="Result.CalculatorCheckFields"/>.</summary>
                public const string CalculatorCheck = "calculatorCheck";
                /// <summary>The deployment against the PerfMon capture its hosts' profile was made of: <see cref="Result.CaptureCheckFields"/>.</summary>
                public const string CaptureCheck = "captureCheck";
            }
        }

        /// <summary>The comparison event (command <c>report</c> with <c>compare</c> or labelled runs): after the report event of each run.</summary>
        public static class Comparison
        {
            /// <summary>What the comparison is, in words: separate runs, compared, not added up.</summary>
            public const string Statement = "statement";
            public const string Text = "text";
            /// <summary>The comparison's files written (its text, its HTML page).</summary>
            public const string Files = "files";
            /// <summary>The same files with their kinds (<see cref="ReportKinds"/>).</summary>
            public const string Reports = "reports";
            /// <summary>The runs' names, in order: the first is the baseline of the deltas.</summary>
            public const string Labels = "labels";
            /// <summary>What each run was (docs/protocol.md).</summary>
            public const string Runs = "runs";
            /// <summary>The metrics compared, each with its values and deltas (docs/protocol.md).</summary>
            public const string Rows = "rows";
        }

        /// <summary>The capture event (command <c>capture</c>, docs/capture.md).</summary>
        public static class Capture
        {
            /// <summary>The profile, as a request's <c>profile</c> spells it (<see cref="ProfileFields"/>), its <c>capture</c> set.</summary>
            public const string Profile = "profile";
            /// <summary>What was read and derived, in lines, as -WhatIf shows it.</summary>
            public const string Derivation = "derivation";
        }

        /// <summary>The calculator event (command <c>calculator</c>, docs/calculator.md).</summary>
        public static class Calculator
        {
            /// <summary>The profiles, each as a request's <c>profile</c> spells it (<see cref="ProfileFields"/>), its <c>calculator</c> targets set.</summary>
            public const string Profiles = "profiles";
            /// <summary>The Servers.csv read, or null.</summary>
            public const string ServersCsvPath = "serversCsvPath";
            /// <summary>Each server of the Servers.csv: <see cref="Server"/>.</summary>
            public const string Servers = "servers";

            public static class Server
            {
                public const string Name = "name";
                public const string DatabasesRootFolder = "databasesRootFolder";
                public const string VolumesRootFolder = "volumesRootFolder";
                public const string DatabasesPerVolume = "databasesPerVolume";
                public const string LogIsolation = "logIsolation";
                /// <summary>Each database: <see cref="Database"/>.</summary>
                public const string Databases = "databases";
            }

            public static class Database
            {
                public const string Name = "name";
                public const string Path = "path";
                public const string Volume = "volume";
            }
        }

        public static class Validation
        {
            public const string Name = "name";
            public const string ProfilePath = "profilePath";
            public const string OutputPath = "outputPath";
            public const string MaxResultAgeHours = "maxResultAgeHours";
            public const string TestType = "testType";
            public const string DurationSeconds = "durationSeconds";
            public const string LastResult = "lastResult";
            public const string LastRunUtc = "lastRunUtc";
            public const string LastResultsPath = "lastResultsPath";
            public const string Reasons = "reasons";
            public const string InDesiredState = "_inDesiredState";

            /// <summary>One entry of <see cref="Reasons"/>.</summary>
            public static class Reason
            {
                public const string Code = "code";
                public const string Phrase = "phrase";
            }
        }
    }
}