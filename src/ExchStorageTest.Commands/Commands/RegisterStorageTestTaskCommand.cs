using System;
using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;
using ExchStorageTest.Profiles;
using ExchStorageTest.Runs;
using ExchStorageTest.Tasks;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Register-StorageTestTask: schedules a saved profile to run unattended, as a Windows scheduled task or a
    /// systemd service + timer pair, running a generated runner script whose exit code says Pass/Fail/error/stopped.
    /// Everything is checked (profile, duration, schedule, executables, existing task) before anything is written.
    /// </summary>
    [Cmdlet(VerbsLifecycle.Register, "StorageTestTask", HelpUri = HelpLinks.RegisterStorageTestTask, DefaultParameterSetName = TaskSchedule.Daily, SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Medium)]
    [OutputType(typeof(ScheduledTest))]
    public sealed class RegisterStorageTestTaskCommand : StorageTestCmdlet
    {
        [Parameter(Mandatory = true, Position = 0)]
        [ValidatePattern(TaskFiles.NamePattern)]
        public string Name { get; set; } = "";

        [Parameter(Mandatory = true)]
        [ValidateNotNullOrEmpty]
        public string ProfilePath { get; set; } = "";

        [Parameter(Mandatory = true)]
        [ValidateNotNullOrEmpty]
        public string OutputPath { get; set; } = "";

        [Parameter]
        [ValidateSet(nameof(Contract.TestType.Performance), nameof(Contract.TestType.Stress), nameof(Contract.TestType.DatabaseBackup), nameof(Contract.TestType.SoftRecovery),
            nameof(Contract.TestType.Throughput))]
        public string TestType { get; set; } = RunDefaults.TestType.ToString();

        [Parameter]

        [TimeSpanArgument]
        public TimeSpan Duration { get; set; }

        /// <summary>A failure-mode window's start into the measured window (docs/failure-mode.md), as Invoke-StorageTest takes it.</summary>
        [Parameter]
        [TimeSpanArgument]
        public TimeSpan FaultAt { get; set; }

        [Parameter]
        [TimeSpanArgument]
        public TimeSpan FaultLength { get; set; }

        /// <summary>The script that causes the fault; the task runs it on this computer.</summary>
        [Parameter]
        public string? FaultScript { get; set; }

        [Parameter]
        [TimeSpanArgument]
        public TimeSpan StallLimit { get; set; }

        /// <summary>A spare folder a reseed streams a database copy onto during the fault window, as Invoke-StorageTest takes it.</summary>
        [Parameter]
        public string? ReseedPath { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = TaskSchedule.Daily)]
        public SwitchParameter Daily { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = TaskSchedule.Weekly)]
        public SwitchParameter Weekly { get; set; }

        // Empty or null reaches the command, which answers with its own ErrorId (DaysOfWeekMissing).
        [Parameter(Mandatory = true, ParameterSetName = TaskSchedule.Weekly)]
        [AllowNull]
        [AllowEmptyCollection]
        public DayOfWeek[]? DaysOfWeek { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = TaskSchedule.Once)]
        public SwitchParameter Once { get; set; }

        [Parameter(Mandatory = true)]
        public DateTime At { get; set; }

        [Parameter]
        [Credential]
        public PSCredential? Credential { get; set; }

        [Parameter]
        public string? PowerShellPath { get; set; }

        [Parameter]
        public string? ScriptFolder { get; set; }

        [Parameter]
        [ValidateNotNullOrEmpty]
        public string UnitPath { get; set; } = TaskFiles.DefaultUnitFolder;

        [Parameter]
        public SwitchParameter Force { get; set; }

        protected override void EndProcessing() => Guard(() =>
        {
            string profilePath = ResolvePath(ProfilePath);
            MailboxProfile profile = ProfileFile.Load(profilePath);
            string outputPath = ResolvePath(OutputPath);
            // The run settings this command takes (Duration, the fault window: declared once, RunSetting), as the runner passes them on.
            RunSettings settings = RunSettings.FromParameters(MyInvocation.BoundParameters, ResolvePath).With(RunSetting.OutputPath, null);
            // Nothing runs now: the engine's rules are checked here, so a bad value is not found at 2 a.m.
            UnplannedSettings.Check(settings);
            var schedule = new TaskSchedule(ParameterSetName, At, DaysOfWeek);
            ITaskScheduler scheduler = TaskSchedulers.ForThisComputer(ResolvePath(UnitPath));
            var files = new TaskFiles(Name, ResolvePath(string.IsNullOrWhiteSpace(ScriptFolder) ? TaskFiles.DefaultScriptFolder : ScriptFolder!), scheduler.UnitFolder);
            string powerShell = TaskPowerShell.Resolve(PowerShellPath, ResolvePath);
            string account = Credential?.UserName ?? scheduler.DefaultAccount;
            string what = $"Schedule a {TestType} storage test of profile '{profile.Name}' ({schedule.Describe()}, as {account}), results, reports and each run's log ({Name}-<yyyyMMdd-HHmmss>.log) in '{outputPath}'";
            if (FaultText.Describe(settings) is string fault) what += $" ({fault.TrimEnd('.')})";
            string runner = RunnerScript.Text(Name, RunnerScript.ModuleManifestPath, profilePath, outputPath, settings);
            var task = new ScheduledTest
            {
                Name = Name,
                Platform = scheduler.Platform,
                Schedule = schedule.Describe(),
                Account = account,
                ProfilePath = profilePath,
                OutputPath = outputPath,
                RunnerScript = files.RunnerPath,
            };
            var writes = new TaskWrites();
            TaskChange registration = scheduler.Registration(files, powerShell, schedule, Credential, $"ExchStorageTest: {what}. Exit codes: 0 Pass, 1 Fail, 2 error, 3 stopped.", task, writes);
            CheckRunnerFile(files, scheduler.Exists(files), scheduler.ExistsMessage(files));
            if (!ShouldRun(Force, $"{what}: {registration.What}, runner script '{files.RunnerPath}' (started with '{powerShell}').", registration.Question, "Register-StorageTestTask"))
                return;
            try
            {
                writes.CreateFolder(files.ScriptFolder);
                RunnerScript.Write(writes, files.RunnerPath, runner);
                registration.Apply();
            }
            catch (Exception ex) when (ex is StorageTestException || ex is IOException || ex is UnauthorizedAccessException)
            {
                // The scheduler refused, or a file could not be written: what this registration wrote goes, so the
                // next Register starts clean (no TaskExists) and no runner is left that nothing starts.
                string left = writes.Undo();
                string undone = left.Length == 0
                    ? "What this registration wrote was removed (files it replaced have their earlier content back)."
                    : $"What this registration wrote could not all be removed: {left}";
                if (ex is StorageTestException known) throw known.With(undone);
                throw;
            }
            WriteObject(task);
        });

        /// <summary>
        /// An existing task is replaced only with -Force; a runner-script path that holds a file this command did not
        /// write is never overwritten.
        /// </summary>
        private void CheckRunnerFile(TaskFiles files, bool taskExists, string existsMessage)
        {
            bool runnerExists = File.Exists(files.RunnerPath);
            if (runnerExists && !RunnerScript.IsOurs(files.RunnerPath))
                throw new StorageTestException(ErrorCodes.TaskExists,
                    $"'{files.RunnerPath}' exists and was not written by Register-StorageTestTask, so it is not replaced: choose another -Name or -ScriptFolder.",
                    files.RunnerPath);
            if ((taskExists || runnerExists) && !Force)
                throw new StorageTestException(ErrorCodes.TaskExists,
                    $"{(taskExists ? existsMessage : $"The runner script '{files.RunnerPath}' already exists")}. Use -Force to replace it, or Unregister-StorageTestTask -Name {Name}.",
                    Name);
        }
    }
}
