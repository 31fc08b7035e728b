using System;
using System.Linq;
using System.Text;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Tasks
{
    /// <summary>
    /// The systemd pair of a scheduled storage test on Linux: a oneshot service that runs the runner script, and
    /// the timer that starts it (OnCalendar from the schedule, Persistent=true so a run missed while the host
    /// was down starts at boot). A failing verdict fails the service (exit codes 1-3), so systemctl shows it.
    /// </summary>
    internal static class SystemdUnits
    {
        public static string Service(TaskFiles files, string powerShell, string? user)
        {
            var s = new StringBuilder()
                .Append("[Unit]\n")
                .Append($"Description=ExchStorageTest scheduled storage test '{files.Name}' (exit codes: 0 Pass, 1 Fail, 2 error, 3 stopped)\n")
                .Append("After=local-fs.target network-online.target\n")
                .Append('\n')
                .Append("[Service]\n")
                .Append("Type=oneshot\n")
                .Append($"ExecStart={Quote(powerShell, "-PowerShellPath")} -NoProfile -NonInteractive -File {Quote(files.RunnerPath, "-ScriptFolder")}\n")
                .Append("TimeoutStartSec=infinity\n");
            if (user != null) s.Append($"User={CheckLine(user, "-Credential").Replace("%", "%%")}\n");
            return s.ToString();
        }

        public static string Timer(TaskFiles files, TaskSchedule schedule) => new StringBuilder()
            .Append("[Unit]\n")
            .Append($"Description=Schedule of the ExchStorageTest storage test '{files.Name}' ({schedule.Describe()})\n")
            .Append('\n')
            .Append("[Timer]\n")
            .Append($"OnCalendar={schedule.ToSystemdCalendar()}\n")
            .Append("Persistent=true\n")
            .Append($"Unit={files.UnitName}.service\n")
            .Append('\n')
            .Append("[Install]\n")
            .Append("WantedBy=timers.target\n")
            .ToString();

        /// <summary>
        /// One ExecStart word in double quotes, taken literally: systemd reads C escapes inside quotes, expands
        /// %-specifiers and $VARIABLES, so \ " % $ are escaped.
        /// </summary>
        private static string Quote(string value, string parameter)
        {
            CheckLine(value, parameter);
            var s = new StringBuilder("\"");
            foreach (char c in value)
            {
                switch (c)
                {
                    case '\\': s.Append("\\\\"); break;
                    case '"': s.Append("\\\""); break;
                    case '%': s.Append("%%"); break;
                    case '$': s.Append("$$"); break;
                    default: s.Append(c); break;
                }
            }
            return s.Append('"').ToString();
        }

        /// <summary>A unit file is line-based: a line break (or any control character) in a value would start a new directive.</summary>
        private static string CheckLine(string value, string parameter)
        {
            if (value.Any(char.IsControl))
                throw new StorageTestException(ErrorCodes.InvalidUnitValue,
                    $"The value '{value.Replace("\n", "\\n").Replace("\r", "\\r")}' ({parameter}) contains a line break or control character and cannot be written into a systemd unit.", value);
            return value;
        }
    }
}
