using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Tasks;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Unregister-StorageTestTask: removes a scheduled storage test (the Windows task, or the systemd timer and
    /// service) and its runner script, also what a registration the scheduler refused left. Results and run logs stay.
    /// </summary>
    [Cmdlet(VerbsLifecycle.Unregister, "StorageTestTask", HelpUri = HelpLinks.UnregisterStorageTestTask, SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Medium)]
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
            ITaskScheduler scheduler = TaskSchedulers.ForThisComputer(ResolvePath(UnitPath));
            var files = new TaskFiles(Name, ResolvePath(string.IsNullOrWhiteSpace(ScriptFolder) ? TaskFiles.DefaultScriptFolder : ScriptFolder!), scheduler.UnitFolder);
            if (!scheduler.Exists(files))
            {
                // No task, but a runner script of ours: what a registration the scheduler refused left (older
                // versions did not take it back). It is removed, so the name can be registered again.
                if (!File.Exists(files.RunnerPath) || !RunnerScript.IsOurs(files.RunnerPath))
                    throw new StorageTestException(ErrorCodes.TaskNotFound, scheduler.NotFoundMessage(files), Name);
                if (!ShouldRun(Force, $"{scheduler.NotFoundMessage(files)} Delete the runner script '{files.RunnerPath}' a registration left.", $"Delete the runner script of '{Name}'?", "Unregister-StorageTestTask"))
                    return;
                DeleteRunner(files);
                return;
            }
            TaskChange removal = scheduler.Removal(files, WriteWarning);
            if (!ShouldRun(Force, $"{removal.What} and delete its runner script '{files.RunnerPath}'.", $"Unregister the scheduled storage test '{Name}'?", "Unregister-StorageTestTask"))
                return;
            removal.Apply();
            DeleteRunner(files);
        });

        /// <summary>Only a runner this module wrote is deleted; anything else at that path is the user's.</summary>
        private void DeleteRunner(TaskFiles files)
        {
            if (!File.Exists(files.RunnerPath)) return;
            if (RunnerScript.IsOurs(files.RunnerPath)) File.Delete(files.RunnerPath);
            else WriteWarning($"'{files.RunnerPath}' was not written by Register-StorageTestTask and was kept.");
        }
    }
}
