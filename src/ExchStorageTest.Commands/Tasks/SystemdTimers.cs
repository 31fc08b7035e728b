using System.IO;
using System.Management.Automation;
using System.Text;

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

        public TaskChange Registration(TaskFiles files, string powerShell, TaskSchedule schedule, PSCredential? credential, string description, ScheduledTest task)
        {
            Systemctl systemctl = Systemctl.Find();
            string service = SystemdUnits.Service(files, powerShell, credential?.UserName);
            string timer = SystemdUnits.Timer(files, schedule);
            return new TaskChange($"units '{files.ServicePath}' and '{files.TimerPath}'", $"Write and enable the systemd timer '{files.TimerUnit}'?", () =>
            {
                Directory.CreateDirectory(files.UnitFolder);
                File.WriteAllText(files.ServicePath, service, new UTF8Encoding(false));
                File.WriteAllText(files.TimerPath, timer, new UTF8Encoding(false));
                systemctl.Run("daemon-reload");
                systemctl.Run("enable", "--now", files.TimerUnit);
                task.ServiceUnit = files.ServicePath;
                task.TimerUnit = files.TimerPath;
            });
        }

        public TaskChange Removal(TaskFiles files)
        {
            Systemctl systemctl = Systemctl.Find();
            return new TaskChange($"Disable the timer '{files.TimerUnit}', delete '{files.TimerPath}', '{files.ServicePath}'", "", () =>
            {
                if (File.Exists(files.TimerPath)) systemctl.Run("disable", "--now", files.TimerUnit);
                if (File.Exists(files.TimerPath)) File.Delete(files.TimerPath);
                if (File.Exists(files.ServicePath)) File.Delete(files.ServicePath);
                systemctl.Run("daemon-reload");
            });
        }
    }
}
