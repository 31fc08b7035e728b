using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Helper;
using ExchStorageTest.Tasks;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Unregister-StorageTestTask: removes a scheduled storage test (the Windows task, or the systemd timer and
    /// service) and its runner script. Results and run logs stay.
    /// </summary>
    [Cmdlet(VerbsLifecycle.Unregister, "StorageTestTask", SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Medium)]
    [OutputType(typeof(void))]
    public sealed class UnregisterStorageTestTaskCommand : StorageTestCmdlet
    {
        [Parameter(Mandatory = true, Position = 0, ValueFromPipelineByPropertyName = true)]
        [ValidatePattern(TaskFiles.NamePattern)]
        public string Name { get; set; } = "";

        [Parameter]
        public string? ScriptFolder { get; set; }

        [Parameter]
        [ValidateNotNullOrEmpty]
        public string UnitPath { get; set; } = TaskFiles.DefaultUnitFolder;

        [Parameter]
        public SwitchParameter Force { get; set; }

        protected override void ProcessRecord() => Guard(() =>
        {
            bool windows = HelperLocator.IsWindows;
            var files = new TaskFiles(Name, ResolvePath(string.IsNullOrWhiteSpace(ScriptFolder) ? TaskFiles.DefaultScriptFolder : ScriptFolder!),
                windows ? TaskFiles.DefaultUnitFolder : ResolvePath(UnitPath));
            if (windows) RemoveTask(files);
            else RemoveTimer(files);
        });

        private void RemoveTask(TaskFiles files)
        {
            if (WindowsTaskScheduler.Find(Name) == null)
                throw new StorageTestException(ErrorCodes.TaskNotFound, $"No scheduled storage test '{TaskFiles.WindowsTaskPath}{Name}' is registered.", Name);
            if (!ShouldRun(Force, $"Unregister the scheduled task '{TaskFiles.WindowsTaskPath}{Name}' and delete its runner script '{files.RunnerPath}'.",
                    $"Unregister the scheduled storage test '{Name}'?", "Unregister-StorageTestTask"))
                return;
            WindowsTaskScheduler.Unregister(Name);
            DeleteRunner(files);
        }

        private void RemoveTimer(TaskFiles files)
        {
            if (!files.UnitsExist)
                throw new StorageTestException(ErrorCodes.TaskNotFound, $"No systemd units '{files.UnitName}' exist in '{files.UnitFolder}'.", Name);
            Systemctl systemctl = Systemctl.Find();
            if (!ShouldRun(Force, $"Disable the timer '{files.TimerUnit}', delete '{files.TimerPath}', '{files.ServicePath}' and the runner script '{files.RunnerPath}'.",
                    $"Unregister the scheduled storage test '{Name}'?", "Unregister-StorageTestTask"))
                return;
            if (File.Exists(files.TimerPath)) systemctl.Run("disable", "--now", files.TimerUnit);
            if (File.Exists(files.TimerPath)) File.Delete(files.TimerPath);
            if (File.Exists(files.ServicePath)) File.Delete(files.ServicePath);
            systemctl.Run("daemon-reload");
            DeleteRunner(files);
        }

        /// <summary>Only a runner this module wrote is deleted; anything else at that path is the user's.</summary>
        private void DeleteRunner(TaskFiles files)
        {
            if (!File.Exists(files.RunnerPath)) return;
            if (RunnerScript.IsOurs(files.RunnerPath)) File.Delete(files.RunnerPath);
            else WriteWarning($"'{files.RunnerPath}' was not written by Register-StorageTestTask and was kept.");
        }
    }
}
