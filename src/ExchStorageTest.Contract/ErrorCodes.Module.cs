namespace ExchStorageTest.Contract
{
    /// <summary>The codes only the module raises: its own files, the engine process, multi-host and start-file runs, scheduled tests.</summary>
    public static partial class ErrorCodes
    {
        // Profile, configuration and suite files (read and written by the module).
        public static readonly ErrorCode ProfileNotFound = Add("ProfileNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Both, ErrorGroups.ModuleFiles, "the -ProfilePath file (or a DSC set's profile file) does not exist");
        public static readonly ErrorCode ProfileMalformed = Add("ProfileMalformed", ErrorCategories.InvalidData, RaisedBy.Module, ErrorGroups.ModuleFiles, "a profile file that is not JSON, or not a JSON object");
        public static readonly ErrorCode ProfileExists = Add("ProfileExists", ErrorCategories.ResourceExists, RaisedBy.Module, ErrorGroups.ModuleFiles, "the -SaveTo file exists (use -Force), or is a folder");
        public static readonly ErrorCode SaveFolderNotFound = Add("SaveFolderNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Module, ErrorGroups.ModuleFiles, "the -SaveTo folder does not exist");
        public static readonly ErrorCode SuiteStateInvalid = Add("SuiteStateInvalid", ErrorCategories.InvalidData, RaisedBy.Module, ErrorGroups.ModuleFiles, "the suite folder's suite.json is not a suite state file (left untouched)");
        public static readonly ErrorCode SuiteStateNotWritable = Add("SuiteStateNotWritable", ErrorCategories.WriteError, RaisedBy.Module, ErrorGroups.ModuleFiles, "suite.json cannot be written");
        public static readonly ErrorCode SuiteProfileMismatch = Add("SuiteProfileMismatch", Arg, RaisedBy.Module, ErrorGroups.ModuleFiles, "an ESRP suite folder started with another profile (run it with the same one, or give -OutputPath a new folder)");
        public static readonly ErrorCode DatabasePathRequired = Add("DatabasePathRequired", Arg, RaisedBy.Module, ErrorGroups.ModuleFiles, "an ESRP suite with neither a database path nor -OutputPath (the suite has no folder)");
        public static readonly ErrorCode CapacityWithStartFile = Add("CapacityWithStartFile", Arg, RaisedBy.Module, ErrorGroups.ModuleFiles, "-TestType Capacity with -StartFile (a start file agrees one instant, not a search's steps: step hosts together with -ComputerName or -Session; docs/capacity.md)");
        public static readonly ErrorCode SuiteNotRemoted = Add("SuiteNotRemoted", Arg, RaisedBy.Module, ErrorGroups.ModuleFiles, "-TestType EsrpSuite with -ComputerName or -Session (run it on each host with -StartFile)");
        public static readonly ErrorCode SuiteHostsMissing = Add("SuiteHostsMissing", ErrorCategories.OperationTimeout, RaisedBy.Module, ErrorGroups.ModuleFiles, "a start-file suite's hosts were not ready for the next test within -StartFileTimeout");

        // The engine process, as the module starts and reads it.
        public static readonly ErrorCode EngineNotInstalled = Add("EngineNotInstalled", ErrorCategories.NotInstalled, RaisedBy.Module, ErrorGroups.EngineProcess, "the engine binary is missing (its path and the build command in the message)");
        public static readonly ErrorCode EngineNotExecutable = Add("EngineNotExecutable", ErrorCategories.PermissionDenied, RaisedBy.Module, ErrorGroups.EngineProcess, "Linux, macOS: the engine has no execute bit (a package does not keep it) and the module could not set it, e.g. a read-only install (the chmod to run in the message)");
        public static readonly ErrorCode EngineStartFailed = Add("EngineStartFailed", ErrorCategories.NotInstalled, RaisedBy.Module, ErrorGroups.EngineProcess, "the engine is present but could not start");
        public static readonly ErrorCode EngineProtocolMismatch = Add("EngineProtocolMismatch", ErrorCategories.NotInstalled, RaisedBy.Module, ErrorGroups.EngineProcess, "the engine speaks another protocol (both versions in the message) or sent no hello");
        public static readonly ErrorCode EngineFailed = Add("EngineFailed", ErrorCategories.InvalidOperation, RaisedBy.Module, ErrorGroups.EngineProcess, "the engine exited 1 or 2 without an error event, or without the event its command promises (the end of its stderr in the message)");
        public static readonly ErrorCode EngineExited = Add("EngineExited", ErrorCategories.InvalidResult, RaisedBy.Module, ErrorGroups.EngineProcess, "the engine process ended without finishing its command: killed, crashed (its exit code, signal or NTSTATUS, its process id and its last stderr lines in the message); non-terminating when its result had already come");
        public static readonly ErrorCode EngineNotResponding = Add("EngineNotResponding", ErrorCategories.OperationTimeout, RaisedBy.Module, ErrorGroups.EngineProcess, "the engine wrote nothing for longer than its heartbeat allows (frozen or hung: its process id and last stderr lines in the message); it was killed");
        public static readonly ErrorCode EngineError = Add("EngineError", ErrorCategories.NotSpecified, RaisedBy.Module, ErrorGroups.EngineProcess, "an error event without a code (an engine of another version)");
        public static readonly ErrorCode JobFailed = Add("JobFailed", ErrorCategories.NotSpecified, RaisedBy.Module, ErrorGroups.EngineProcess, "an -AsJob run failed unexpectedly (the exception in the message)");

        // Multi-host and start-file runs.
        public static readonly ErrorCode HostFailed = Add("HostFailed", ErrorCategories.ResourceUnavailable, RaisedBy.Module, ErrorGroups.MultiHost, "one host of a multi-host run failed (TargetObject = host name); the others' results are kept");
        public static readonly ErrorCode EngineNotAvailable = Add("EngineNotAvailable", ErrorCategories.NotInstalled, RaisedBy.Module, ErrorGroups.MultiHost, "the module is missing on a host and there is no engine for its platform to copy");
        public static readonly ErrorCode ModuleNotAvailable = Add("ModuleNotAvailable", ErrorCategories.NotInstalled, RaisedBy.Module, ErrorGroups.MultiHost, "the module on a host cannot be loaded");
        public static readonly ErrorCode PlanMissing = Add("PlanMissing", ErrorCategories.InvalidResult, RaisedBy.Module, ErrorGroups.MultiHost, "a host's engine returned no plan");
        public static readonly ErrorCode AggregateFailed = Add("AggregateFailed", ErrorCategories.InvalidResult, RaisedBy.Module, ErrorGroups.MultiHost, "the per-host results were collected but the engine could not merge them");
        public static readonly ErrorCode WsManUnavailable = Add("WsManUnavailable", ErrorCategories.NotInstalled, RaisedBy.Module, ErrorGroups.MultiHost, "-ComputerName without -UseSSH where PowerShell has no WinRM client (Linux, macOS): use -UseSSH or -Session");
        public static readonly ErrorCode SshParameterWithoutUseSsh = Add("SshParameterWithoutUseSsh", Arg, RaisedBy.Module, ErrorGroups.MultiHost, "-UserName, -KeyFilePath or -SSHOptions without -UseSSH");
        public static readonly ErrorCode CredentialWithSsh = Add("CredentialWithSsh", Arg, RaisedBy.Module, ErrorGroups.MultiHost, "-Credential with -UseSSH (SSH takes a key)");
        public static readonly ErrorCode InvalidPort = Add("InvalidPort", Arg, RaisedBy.Module, ErrorGroups.MultiHost, "-Port outside 1..65535");
        public static readonly ErrorCode KeyFileNotFound = Add("KeyFileNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Module, ErrorGroups.MultiHost, "-KeyFilePath names no file");
        public static readonly ErrorCode SshRemotingUnavailable = Add("SshRemotingUnavailable", ErrorCategories.NotImplemented, RaisedBy.Module, ErrorGroups.MultiHost, "-UseSSH in Windows PowerShell 5.1");
        public static readonly ErrorCode StartFileNotFound = Add("StartFileNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Module, ErrorGroups.MultiHost, "the start file is still missing after -StartFileTimeout");
        public static readonly ErrorCode StartFileMalformed = Add("StartFileMalformed", ErrorCategories.InvalidData, RaisedBy.Module, ErrorGroups.MultiHost, "not a start file (New-StorageTestRun -Force never replaces one)");
        public static readonly ErrorCode StartFileFolderNotFound = Add("StartFileFolderNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Module, ErrorGroups.MultiHost, "the start file's folder (the share) cannot be reached");
        public static readonly ErrorCode StartFileExists = Add("StartFileExists", ErrorCategories.ResourceExists, RaisedBy.Module, ErrorGroups.MultiHost, "New-StorageTestRun on an existing run (use -Force)");
        public static readonly ErrorCode ResultsNotShared = Add("ResultsNotShared", ErrorCategories.WriteError, RaisedBy.Module, ErrorGroups.MultiHost, "a start-file host's results were saved but not copied to the share (non-terminating; the result still comes)");
        public static readonly ErrorCode StartTimePassed = Add("StartTimePassed", ErrorCategories.InvalidOperation, RaisedBy.Module, ErrorGroups.MultiHost, "the start instant in the start file has passed");

        // Scheduled tests.
        public static readonly ErrorCode TaskExists = Add("TaskExists", ErrorCategories.ResourceExists, RaisedBy.Module, ErrorGroups.Tasks, "a task or units of that name exist (use -Force), or the runner path holds a file Register-StorageTestTask did not write (never replaced)");
        public static readonly ErrorCode TaskNotFound = Add("TaskNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Module, ErrorGroups.Tasks, "Unregister-StorageTestTask of a name that is not registered");
        public static readonly ErrorCode DaysOfWeekMissing = Add("DaysOfWeekMissing", Arg, RaisedBy.Module, ErrorGroups.Tasks, "a weekly schedule without days");
        public static readonly ErrorCode PowerShellNotFound = Add("PowerShellNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Module, ErrorGroups.Tasks, "-PowerShellPath missing, or no pwsh for the systemd timer");
        public static readonly ErrorCode InvalidUnitValue = Add("InvalidUnitValue", Arg, RaisedBy.Module, ErrorGroups.Tasks, "a path or user name with a line break or control character (it cannot go into a systemd unit)");
        public static readonly ErrorCode SystemctlNotFound = Add("SystemctlNotFound", ErrorCategories.NotInstalled, RaisedBy.Module, ErrorGroups.Tasks, "no systemd on this Linux host (nothing was written)");
        public static readonly ErrorCode SystemctlFailed = Add("SystemctlFailed", ErrorCategories.InvalidOperation, RaisedBy.Module, ErrorGroups.Tasks, "systemctl returned non-zero");
        public static readonly ErrorCode TaskSchedulerFailed = Add("TaskSchedulerFailed", ErrorCategories.InvalidOperation, RaisedBy.Module, ErrorGroups.Tasks, "a ScheduledTasks cmdlet failed (raised with its category)");
    }
}
