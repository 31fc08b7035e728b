using System;
using System.Collections.Generic;
using System.Linq;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The one catalogue of ErrorIds (code, category, who raises it, meaning). Both halves raise their errors with
    /// these entries; the engine's codes reach users unchanged as <c>ExchStorageTest.&lt;Code&gt;</c>. This file holds
    /// the request, the profile and the run settings; the others are in ErrorCodes.Engine.cs and ErrorCodes.Module.cs.
    /// </summary>
    public static partial class ErrorCodes
    {
        private static List<ErrorCode>? _all;

        /// <summary>Every code, sorted by section (<see cref="ErrorGroups.Order"/>), then by name.</summary>
        public static IReadOnlyList<ErrorCode> All =>
            WithRunSettings().OrderBy(c => Array.IndexOf(ErrorGroups.Order, c.Group)).ThenBy(c => c.Code, StringComparer.Ordinal).ToList();

        /// <summary>The entry for a code, or null.</summary>
        public static ErrorCode? Find(string code) => WithRunSettings().FirstOrDefault(c => string.Equals(c.Code, code, StringComparison.Ordinal));

        // Static initializers of a partial class run in an unspecified order across its files: the list is made by the first entry.
        private static ErrorCode Add(string code, string category, RaisedBy raisedBy, string group, string meaning)
        {
            var entry = new ErrorCode(code, category, raisedBy, group, meaning);
            (_all ??= new List<ErrorCode>()).Add(entry);
            return entry;
        }

        private const string Arg = ErrorCategories.InvalidArgument;

        /// <summary>
        /// A run setting's range code, declared with its entry (<see cref="RunSettingTable.Range"/>): refused by the engine's
        /// plan, and by the module where it checks a setting no engine plans now.
        /// </summary>
        internal static ErrorCode RunSetting(string code, string meaning) => Add(code, Arg, RaisedBy.Engine, ErrorGroups.RunSettings, meaning);

        // The codes a run setting's entry declares exist once the table does.
        private static List<ErrorCode> WithRunSettings()
        {
            _ = RunSettingTable.All;
            return _all!;
        }

        // The request (docs/protocol.md): checked by the engine's request gate before any command runs.
        public static readonly ErrorCode RequestMissing = Add("RequestMissing", Arg, RaisedBy.Engine, ErrorGroups.Request, "no request was given to the engine");
        public static readonly ErrorCode RequestMalformed = Add("RequestMalformed", Arg, RaisedBy.Engine, ErrorGroups.Request, "the request is not a JSON object, or a field holds a value of the wrong kind (the field and the value are named)");
        public static readonly ErrorCode RequestFileNotFound = Add("RequestFileNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Engine, ErrorGroups.Request, "the engine's --request file does not exist");
        public static readonly ErrorCode UnknownArgument = Add("UnknownArgument", Arg, RaisedBy.Engine, ErrorGroups.Request, "an engine command-line argument it does not know");
        public static readonly ErrorCode UnknownField = Add("UnknownField", Arg, RaisedBy.Engine, ErrorGroups.Request, "a field the command does not take, for example an unknown name in Invoke-StorageTest -Thresholds (the nearest known field is named)");
        public static readonly ErrorCode DuplicateField = Add("DuplicateField", Arg, RaisedBy.Engine, ErrorGroups.Request, "a field given twice in one object of the request");
        public static readonly ErrorCode CommandMissing = Add("CommandMissing", Arg, RaisedBy.Engine, ErrorGroups.Request, "the request names no command: nothing runs by default");
        public static readonly ErrorCode UnknownCommand = Add("UnknownCommand", Arg, RaisedBy.Engine, ErrorGroups.Request, "the request names a command the engine does not have");
        public static readonly ErrorCode ProtocolMismatch = Add("ProtocolMismatch", Arg, RaisedBy.Engine, ErrorGroups.Request, "the request names no protocol, or another than the engine's");
        public static readonly ErrorCode ProfileMissing = Add("ProfileMissing", Arg, RaisedBy.Engine, ErrorGroups.Request, "a run or plan request without a profile, or a DSC instance without profilePath");
        public static readonly ErrorCode PathsMissing = Add("PathsMissing", Arg, RaisedBy.Engine, ErrorGroups.Request, "a verify, inspect, report, validation or calculator request without the paths it works on");
        public static readonly ErrorCode NameMissing = Add("NameMissing", Arg, RaisedBy.Engine, ErrorGroups.Request, "a DSC instance without a name");
        public static readonly ErrorCode TestIdInvalid = Add("TestIdInvalid", Arg, RaisedBy.Engine, ErrorGroups.Request, "testId not 1-64 letters, digits, '.', '_' or '-' starting with a letter or digit (it becomes part of file names)");
        public static readonly ErrorCode MaxResultAgeOutOfRange = Add("MaxResultAgeOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.Request, "MaxResultAgeHours not above zero");
        public static readonly ErrorCode UnknownReportFormat = Add("UnknownReportFormat", Arg, RaisedBy.Engine, ErrorGroups.Request, "a report format the engine does not write");
        public static readonly ErrorCode RunsAndPaths = Add("RunsAndPaths", Arg, RaisedBy.Engine, ErrorGroups.Request, "a report request with both labelled runs and paths");
        public static readonly ErrorCode LabelMissing = Add("LabelMissing", Arg, RaisedBy.Engine, ErrorGroups.Request, "a labelled run without a label");
        public static readonly ErrorCode LabelsNotUnique = Add("LabelsNotUnique", Arg, RaisedBy.Engine, ErrorGroups.Request, "two labelled runs with one label");
        public static readonly ErrorCode DeploymentHostRepeated = Add("DeploymentHostRepeated", Arg, RaisedBy.Engine, ErrorGroups.Request, "results named one deployment (Get-TestReport -Deployment) that hold two runs of one test on one host");

        // JetstressCmd (docs/jetstress.md): its command line and the JetstressConfig.xml it and New-MailboxProfile -JetstressConfig read.
        public static readonly ErrorCode JetstressArgumentInvalid = Add("JetstressArgumentInvalid", Arg, RaisedBy.Engine, ErrorGroups.Jetstress, "a JetstressCmd switch it does not have, a switch without its value, a value of the wrong kind (/timeout not <h>H<m>M<s>S), or /threads 0 without /timeout 0H0M0S (or the other way round)");
        public static readonly ErrorCode JetstressConfigNotFound = Add("JetstressConfigNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Both, ErrorGroups.Jetstress, "the JetstressConfig.xml file does not exist");
        public static readonly ErrorCode JetstressConfigMalformed = Add("JetstressConfigMalformed", ErrorCategories.InvalidData, RaisedBy.Both, ErrorGroups.Jetstress, "not XML; MailboxCount, MailboxIops, MailboxQuota or an instance's path missing; or a Type, Duration, DatabaseSource, DatabaseSizing or true/false value Jetstress does not write");
        public static readonly ErrorCode JetstressRunNotComplete = Add("JetstressRunNotComplete", ErrorCategories.InvalidOperation, RaisedBy.Engine, ErrorGroups.Jetstress, "JetstressCmd's test did not run to its end (an I/O error or a fault stopped it): its report says what was measured and why (exit 1)");
        public static readonly ErrorCode JetstressSettingUnsupported = Add("JetstressSettingUnsupported", Arg, RaisedBy.Engine, ErrorGroups.Jetstress, "a Jetstress setting JetstressCmd has no equivalent of: a ThroughputPercentage other than 100, a CapacityPercentage other than 100 for a mailbox profile test, DatabaseSizing Capacity with a test type other than Performance");

        // Profile values: one definition (ProfileRules) for New-MailboxProfile, which has no engine, and the engine's plan.
        public static readonly ErrorCode ProfileNameInvalid = Add("ProfileNameInvalid", Arg, RaisedBy.Both, ErrorGroups.Profile, "Name not 1-64 letters, digits, spaces, '.', '_' or '-' starting with a letter or digit");
        public static readonly ErrorCode DescriptionTooLong = Add("DescriptionTooLong", Arg, RaisedBy.Both, ErrorGroups.Profile, "Description longer than 1024 characters");
        public static readonly ErrorCode MailboxCountOutOfRange = Add("MailboxCountOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "MailboxCount not a whole number from 1 to 1,000,000");
        public static readonly ErrorCode IopsPerMailboxOutOfRange = Add("IopsPerMailboxOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "IopsPerMailbox not greater than 0 and at most 100");
        public static readonly ErrorCode HeadroomOutOfRange = Add("HeadroomOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "HeadroomPercent not from 0 to 1000");
        public static readonly ErrorCode MailboxSizeOutOfRange = Add("MailboxSizeOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "MailboxSizeMB not a whole number from 1 to 1,048,576");
        public static readonly ErrorCode DatabaseCountOutOfRange = Add("DatabaseCountOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "DatabaseCount not a whole number from 1 to 256, or above MailboxCount");
        public static readonly ErrorCode CopiesOutOfRange = Add("CopiesOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "CopiesPerDatabase not a whole number from 1 to 16");
        public static readonly ErrorCode CopiesPerVolumeOutOfRange = Add("CopiesPerVolumeOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "CopiesPerVolume not a whole number from 1 to 16, below ActiveCopiesPerVolume or not a multiple of it, or above it (passive copies on the volume) with CopiesPerDatabase 1");
        public static readonly ErrorCode ActiveCopiesPerVolumeOutOfRange = Add("ActiveCopiesPerVolumeOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "ActiveCopiesPerVolume not a whole number from 1 to 16");
        public static readonly ErrorCode LaggedCopiesPerVolumeOutOfRange = Add("LaggedCopiesPerVolumeOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "LaggedCopiesPerVolume not a whole number from 0 to 15, more than the volume's passive copies, or not a multiple of ActiveCopiesPerVolume");
        public static readonly ErrorCode ThreadCountOutOfRange = Add("ThreadCountOutOfRange", Arg, RaisedBy.Both, ErrorGroups.Profile, "ThreadCount (the profile's or Invoke-StorageTest's) not a whole number from 1 to 1024");
        public static readonly ErrorCode CacheSizeInvalid = Add("CacheSizeInvalid", Arg, RaisedBy.Both, ErrorGroups.Profile, "MinimumDatabaseCacheMB or MaximumDatabaseCacheMB not a whole number from 1 to 1,048,576, or the maximum below the minimum");
        public static readonly ErrorCode DatabasePathMissing = Add("DatabasePathMissing", Arg, RaisedBy.Both, ErrorGroups.Profile, "the profile names no database path");
        public static readonly ErrorCode PathCountMismatch = Add("PathCountMismatch", Arg, RaisedBy.Both, ErrorGroups.Profile, "neither one database path nor one per database, or log paths neither none, one, nor one per database");
        public static readonly ErrorCode PathNotAbsolute = Add("PathNotAbsolute", Arg, RaisedBy.Both, ErrorGroups.Profile, "a database, log, stream or output path is not absolute");
        public static readonly ErrorCode ProfileInvalid = Add("ProfileInvalid", Arg, RaisedBy.Module, ErrorGroups.Profile, "the input is not an object with profile settings");
        public static readonly ErrorCode InvalidBackgroundMaintenance = Add("InvalidBackgroundMaintenance", Arg, RaisedBy.Module, ErrorGroups.Profile, "BackgroundMaintenance not true or false");
        public static readonly ErrorCode PathNotResolvable = Add("PathNotResolvable", Arg, RaisedBy.Module, ErrorGroups.Profile, "a relative path cannot be resolved against the PowerShell location, or a path is not one of this computer's file system (a UNC path on Linux)");

        // Run settings: the engine's plan checks them before anything is written (and before ShouldProcess asks).
        public static readonly ErrorCode DurationOutOfRange = Add("DurationOutOfRange", Arg, RaisedBy.Both, ErrorGroups.RunSettings, "Duration (or an ESRP suite's StressDuration) not above zero and at most 30 days");
        public static readonly ErrorCode WarmupOutOfRange = Add("WarmupOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "Warmup negative or above one day");
        public static readonly ErrorCode SampleIntervalOutOfRange = Add("SampleIntervalOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "SampleIntervalSeconds not from 1 to 3600");
        public static readonly ErrorCode CapacityBoundTooShort = Add("CapacityBoundTooShort", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "a capacity search whose Duration (its time bound) leaves no room for the warm-up and two steps");
        public static readonly ErrorCode CapacitySteppingInvalid = Add("CapacitySteppingInvalid", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "capacitySteps other than Engine or Caller, Caller for a test type other than Capacity, or Caller without the control channel (--control-stdin) that carries the steps");
        public static readonly ErrorCode TuningSecondsOutOfRange = Add("TuningSecondsOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "tuningSeconds not from 4 to 3600");
        public static readonly ErrorCode TargetRateOutOfRange = Add("TargetRateOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "TargetRateIops not above 0 and at most 10,000,000");
        public static readonly ErrorCode ConflictingLoadSettings = Add("ConflictingLoadSettings", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "ThreadCount and TargetRateIops together");
        public static readonly ErrorCode ThresholdOutOfRange = Add("ThresholdOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "a threshold not above 0 and at most 100,000");
        public static readonly ErrorCode InvalidThresholds = Add("InvalidThresholds", Arg, RaisedBy.Module, ErrorGroups.RunSettings, "-Thresholds is not a hashtable or object");
        public static readonly ErrorCode LogFilesToReplayOutOfRange = Add("LogFilesToReplayOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "LogFilesToReplay not a whole number from 1 to 100,000");
        public static readonly ErrorCode CapacityPercentOutOfRange = Add("CapacityPercentOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "CapacityPercent not above 0 and at most 100");
        public static readonly ErrorCode CompressibilityPercentOutOfRange = Add("CompressibilityPercentOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "CompressibilityPercent not a whole number from 0 to 90");
        public static readonly ErrorCode DuplicatePercentOutOfRange = Add("DuplicatePercentOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "DuplicatePercent not a whole number from 0 to 75");
        public static readonly ErrorCode StartTimeOutOfRange = Add("StartTimeOutOfRange", Arg, RaisedBy.Both, ErrorGroups.RunSettings, "StartAtUtc not in the future, more than 7 days ahead, or (multi-host) less than 10 seconds ahead");
        public static readonly ErrorCode MeasureTimeWithoutStart = Add("MeasureTimeWithoutStart", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "measureAtUtc without startAtUtc");
        public static readonly ErrorCode MeasureTimeBeforeStart = Add("MeasureTimeBeforeStart", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "measureAtUtc before startAtUtc");
        public static readonly ErrorCode MeasureTimeOutOfRange = Add("MeasureTimeOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "measureAtUtc more than 2 days after startAtUtc");
        public static readonly ErrorCode FaultAtOutOfRange = Add("FaultAtOutOfRange", Arg, RaisedBy.Both, ErrorGroups.RunSettings, "FaultAt not above zero and at most 30 days");
        public static readonly ErrorCode FaultLengthOutOfRange = Add("FaultLengthOutOfRange", Arg, RaisedBy.Both, ErrorGroups.RunSettings, "FaultLength not above zero and at most one day");
        public static readonly ErrorCode StallLimitOutOfRange = Add("StallLimitOutOfRange", Arg, RaisedBy.Both, ErrorGroups.RunSettings, "StallLimit not from 1 second to 1 hour");
        public static readonly ErrorCode FaultWindowInvalid = Add("FaultWindowInvalid", Arg, RaisedBy.Both, ErrorGroups.RunSettings, "a fault window outside the measured window, FaultLength or FaultScript without FaultAt, a fault for a test type without a measured load window, or a re-judged window outside the stored run");
        public static readonly ErrorCode FaultScriptNotFound = Add("FaultScriptNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Both, ErrorGroups.RunSettings, "the FaultScript file does not exist");
        public static readonly ErrorCode ReseedPathInvalid = Add("ReseedPathInvalid", Arg, RaisedBy.Both, ErrorGroups.RunSettings, "ReseedPath without FaultAt, a file, a folder on a volume the run's databases or logs use, or on memory (tmpfs) without AllowBufferedIo");
        public static readonly ErrorCode ReseedPathNotFound = Add("ReseedPathNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Both, ErrorGroups.RunSettings, "the ReseedPath folder does not exist");
        public static readonly ErrorCode ReseedPathNotWritable = Add("ReseedPathNotWritable", ErrorCategories.PermissionDenied, RaisedBy.Engine, ErrorGroups.RunSettings, "the ReseedPath folder cannot be written to");
        public static readonly ErrorCode ReseedSpaceInsufficient = Add("ReseedSpaceInsufficient", ErrorCategories.ResourceUnavailable, RaisedBy.Engine, ErrorGroups.RunSettings, "the ReseedPath volume has too little free space for a copy of a database");
        public static readonly ErrorCode RestorePathMissing = Add("RestorePathMissing", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "DatabaseSource Restore without RestoreFromPath");
        public static readonly ErrorCode RestorePathNotFound = Add("RestorePathNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Engine, ErrorGroups.RunSettings, "the RestoreFromPath folder does not exist");
        public static readonly ErrorCode RestorePathWithoutRestore = Add("RestorePathWithoutRestore", Arg, RaisedBy.Engine, ErrorGroups.RunSettings, "RestoreFromPath without DatabaseSource Restore");
        public static readonly ErrorCode StressDurationWithoutSuite = Add("StressDurationWithoutSuite", Arg, RaisedBy.Module, ErrorGroups.RunSettings, "StressDuration without -TestType EsrpSuite");
        public static readonly ErrorCode ConflictingProfileSettings = Add("ConflictingProfileSettings", Arg, RaisedBy.Module, ErrorGroups.RunSettings, "both a profile object and -ProfilePath");
        public static readonly ErrorCode ProfileRequired = Add("ProfileRequired", Arg, RaisedBy.Module, ErrorGroups.RunSettings, "no profile given with -ComputerName, -Session or -StartFile");
        public static readonly ErrorCode AsJobNotSupported = Add("AsJobNotSupported", Arg, RaisedBy.Module, ErrorGroups.RunSettings, "-AsJob with a multi-host or start-file run");
        public static readonly ErrorCode InvalidStartFileTimeout = Add("InvalidStartFileTimeout", Arg, RaisedBy.Module, ErrorGroups.RunSettings, "StartFileTimeout negative");
        public static readonly ErrorCode LabelCountMismatch = Add("LabelCountMismatch", Arg, RaisedBy.Module, ErrorGroups.RunSettings, "Get-TestReport -Label count not the -Path count");

        // Folders, files and space: checked by the engine before it writes anything.
        public static readonly ErrorCode PathNotFound = Add("PathNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Engine, ErrorGroups.Paths, "a database, log, stream or inspected folder, or a checksum target, does not exist");
        public static readonly ErrorCode PathIsFile = Add("PathIsFile", Arg, RaisedBy.Both, ErrorGroups.Paths, "a database or log path, or New-StorageTestRun's run folder, is a file");
        public static readonly ErrorCode PathNotWritable = Add("PathNotWritable", ErrorCategories.PermissionDenied, RaisedBy.Both, ErrorGroups.Paths, "a folder the test, a run folder or a ready marker writes to is not writable");
        public static readonly ErrorCode OutputPathNotFound = Add("OutputPathNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Both, ErrorGroups.Paths, "the output folder and its parent do not exist (Get-TestReport: the -OutputPath folder does not exist, or is empty)");
        public static readonly ErrorCode OutputPathIsFile = Add("OutputPathIsFile", Arg, RaisedBy.Both, ErrorGroups.Paths, "the output folder is a file");
        public static readonly ErrorCode OutputPathNotWritable = Add("OutputPathNotWritable", ErrorCategories.PermissionDenied, RaisedBy.Engine, ErrorGroups.Paths, "the output folder cannot be created or written");
        public static readonly ErrorCode DatabaseTooSmall = Add("DatabaseTooSmall", Arg, RaisedBy.Engine, ErrorGroups.Paths, "each database would hold fewer than 64 pages (MailboxCount x MailboxSizeMB / DatabaseCount)");
        public static readonly ErrorCode InsufficientSpace = Add("InsufficientSpace", ErrorCategories.ResourceUnavailable, RaisedBy.Engine, ErrorGroups.Paths, "a volume has too little free space for the planned files and results, with a margin for file-system metadata");
        public static readonly ErrorCode FolderInUse = Add("FolderInUse", ErrorCategories.ResourceUnavailable, RaisedBy.Engine, ErrorGroups.Paths, "another run holds the run lock of a database or log folder");
    }
}
