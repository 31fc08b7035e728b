using System;
using System.IO;
using System.Management.Automation;
using System.Text;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Tasks
{
    /// <summary>
    /// Scheduled storage tests on Linux: a oneshot service and its timer in the unit folder (<see cref="SystemdUnits"/>),
    /// enabled and started with systemctl, which must be on PATH before anything is written.
    /// </summary>
    internal sealed class SystemdTimers : ITaskScheduler
    {
        public SystemdTimers(string unitFolder) => UnitFolder = unitFolder;

        public string Platform => "Linux";
        public string DefaultAccount => "root";
        public string UnitFolder { get; }

        public bool Exists(TaskFiles files) => files.UnitsExist;

        public string ExistsMessage(TaskFiles files) => $"The systemd units '{files.UnitName}' already exist in '{files.UnitFolder}'";

        public string NotFoundMessage(TaskFiles files) => $"No systemd units '{files.UnitName}' exist in '{files.UnitFolder}'.";

        public TaskChange Registration(TaskFiles files, string powerShell, TaskSchedule schedule, PSCredential? credential, string description, ScheduledTest task, TaskWrites writes)
        {
            Systemctl systemctl = Systemctl.Find();
            string service = SystemdUnits.Service(files, powerShell, credential?.UserName);
            string timer = SystemdUnits.Timer(files, schedule);
            return new TaskChange($"units '{files.ServicePath}' and '{files.TimerPath}'", $"Write and enable the systemd timer '{files.TimerUnit}'?", () =>
            {
                // A timer this registration replaces (-Force) was enabled before it and stays so when taken back.
                bool replacing = File.Exists(files.TimerPath), reloaded = false, enabling = false;
                try
                {
                    writes.CreateFolder(files.UnitFolder);
                    writes.WriteFile(files.ServicePath, service, new UTF8Encoding(false));
                    writes.WriteFile(files.TimerPath, timer, new UTF8Encoding(false));
                    systemctl.Run("daemon-reload");
                    reloaded = true;
                    enabling = true;
                    systemctl.Run("enable", "--now", files.TimerUnit);
                }
                catch (StorageTestException)
                {
                    // systemd refused: the units go (or get back what they said before -Force), then systemd is told,
                    // as far as it listens, to forget them: an enable that failed half-way may have linked the timer.
                    if (enabling && !replacing) systemctl.RunIgnoringFailure("disable", files.TimerUnit);
                    writes.Undo();
                    if (reloaded) systemctl.RunIgnoringFailure("daemon-reload");
                    throw;
                }
                task.ServiceUnit = files.ServicePath;
                task.TimerUnit = files.TimerPath;
            });
        }

        public TaskChange Removal(TaskFiles files, Action<string> warn)
        {
            Systemctl systemctl = Systemctl.Find();
            return new TaskChange($"Disable the timer '{files.TimerUnit}', delete '{files.TimerPath}', '{files.ServicePath}'", "", () =>
            {
                if (File.Exists(files.TimerPath) && !systemctl.TryRun(out string failure, "disable", "--now", files.TimerUnit))
                {
                    // A timer systemd has enabled keeps its files until systemd lets it go. One it does not report
                    // enabled (a registration systemd refused, or systemd not running) is only files: they go.
                    if (systemctl.TryRun(out _, "is-enabled", "--quiet", files.TimerUnit))
                        throw new StorageTestException(ErrorCodes.SystemctlFailed, failure + " The timer is enabled, so its units were kept.", "systemctl");
                    warn($"{failure} The timer is not enabled (systemd never took it, or is not running): its unit files are removed all the same.");
                }
                if (File.Exists(files.TimerPath)) File.Delete(files.TimerPath);
                if (File.Exists(files.ServicePath)) File.Delete(files.ServicePath);
                if (!systemctl.TryRun(out string reload, "daemon-reload"))
                    warn($"{reload} The unit files are removed; systemd forgets them at its next daemon-reload.");
            });
        }
    }
}
