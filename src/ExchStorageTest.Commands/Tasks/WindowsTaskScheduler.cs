using System;
using System.Collections;
using System.Collections.ObjectModel;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Tasks
{
    /// <summary>
    /// Task Scheduler through the ScheduledTasks cmdlets of the caller's own session (Windows 8 / Server 2012 and
    /// later, in Windows PowerShell 5.1 and PowerShell 7 alike): tasks live under \ExchStorageTest\, run with
    /// highest privileges (unbuffered I/O on volumes needs them) as SYSTEM or the given account.
    /// Compiled everywhere, exercised on Windows only. Behind <see cref="ITaskScheduler"/>.
    /// </summary>
    internal sealed class WindowsTaskScheduler : ITaskScheduler
    {
        private const string SystemAccount = "NT AUTHORITY\\SYSTEM";

        public string Platform => "Windows";
        public string DefaultAccount => "SYSTEM";
        public string UnitFolder => TaskFiles.DefaultUnitFolder;

        public bool Exists(TaskFiles files) => Find(files.Name) != null;

        public string ExistsMessage(TaskFiles files) => $"A scheduled task '{TaskFiles.WindowsTaskPath}{files.Name}' already exists";

        public string NotFoundMessage(TaskFiles files) => $"No scheduled storage test '{TaskFiles.WindowsTaskPath}{files.Name}' is registered.";

        public TaskChange Registration(TaskFiles files, string powerShell, TaskSchedule schedule, PSCredential? credential, string description, ScheduledTest task, TaskWrites writes) =>
            new TaskChange($"task {TaskFiles.WindowsTaskPath}{files.Name}", $"Register the scheduled task '{TaskFiles.WindowsTaskPath}{files.Name}'?", () =>
            {
                task.TaskPath = TaskFiles.WindowsTaskPath;
                task.Task = Register(files.Name, powerShell, files.RunnerPath, schedule, description, credential);
            });

        public TaskChange Removal(TaskFiles files, Action<string> warn) =>
            new TaskChange($"Unregister the scheduled task '{TaskFiles.WindowsTaskPath}{files.Name}'", "", () => Unregister(files.Name));

        /// <summary>The registered task, or null.</summary>
        private static PSObject? Find(string name) => Invoke("Get-ScheduledTask", new Hashtable
        {
            ["TaskName"] = name,
            ["TaskPath"] = TaskFiles.WindowsTaskPath,
            ["ErrorAction"] = ActionPreference.SilentlyContinue,
        }, name).FirstOrDefault();

        private static PSObject? Register(string name, string powerShell, string runnerPath, TaskSchedule schedule, string description, PSCredential? credential)
        {
            PSObject action = Invoke("New-ScheduledTaskAction", new Hashtable
            {
                ["Execute"] = powerShell,
                ["Argument"] = $"-NoProfile -NonInteractive -ExecutionPolicy Bypass -File \"{runnerPath}\"",
            }, name).Single();
            var trigger = new Hashtable { ["At"] = schedule.At };
            if (schedule.Kind == TaskSchedule.Weekly)
            {
                trigger["Weekly"] = true;
                trigger["DaysOfWeek"] = schedule.Days.ToArray();
            }
            else trigger[schedule.Kind == TaskSchedule.Once ? "Once" : "Daily"] = true;
            PSObject settings = Invoke("New-ScheduledTaskSettingsSet", new Hashtable
            {
                ["StartWhenAvailable"] = true,
                ["MultipleInstances"] = "IgnoreNew",
                ["ExecutionTimeLimit"] = TimeSpan.FromDays(3),
            }, name).Single();
            var register = new Hashtable
            {
                ["TaskName"] = name,
                ["TaskPath"] = TaskFiles.WindowsTaskPath,
                ["Action"] = action,
                ["Trigger"] = Invoke("New-ScheduledTaskTrigger", trigger, name).Single(),
                ["Settings"] = settings,
                ["RunLevel"] = "Highest",
                ["Description"] = description,
                ["User"] = credential?.UserName ?? SystemAccount,
                ["Force"] = true,
            };
            if (credential != null) register["Password"] = credential.GetNetworkCredential().Password;
            return Invoke("Register-ScheduledTask", register, name).FirstOrDefault();
        }

        private static void Unregister(string name) => Invoke("Unregister-ScheduledTask", new Hashtable
        {
            ["TaskName"] = name,
            ["TaskPath"] = TaskFiles.WindowsTaskPath,
            ["Confirm"] = false,
        }, name);

        private static Collection<PSObject> Invoke(string command, IDictionary parameters, string name)
        {
            using var ps = PowerShell.Create(RunspaceMode.CurrentRunspace);
            ps.AddCommand(command).AddParameters(parameters);
            if (!parameters.Contains("ErrorAction")) ps.AddParameter("ErrorAction", ActionPreference.Stop);
            try
            {
                return ps.Invoke();
            }
            catch (CommandNotFoundException ex)
            {
                throw new StorageTestException(ErrorCodes.TaskSchedulerFailed, $"{command} is not available: the ScheduledTasks module (Windows 8 / Server 2012 and later) is needed. {ex.Message}", ErrorCategory.NotInstalled, name, ex);
            }
            catch (RuntimeException ex)
            {
                ErrorCategory category = ex.ErrorRecord?.CategoryInfo.Category ?? ErrorCategory.InvalidOperation;
                throw new StorageTestException(ErrorCodes.TaskSchedulerFailed, $"Task Scheduler refused {command} for the task '{TaskFiles.WindowsTaskPath}{name}': {ex.Message}", category, name, ex);
            }
        }
    }
}
