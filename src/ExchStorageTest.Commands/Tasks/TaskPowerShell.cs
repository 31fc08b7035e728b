using System;
using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Helper;

namespace ExchStorageTest.Tasks
{
    /// <summary>The PowerShell executable the scheduler starts with the runner script.</summary>
    internal static class TaskPowerShell
    {
        /// <summary>
        /// Windows: as given, or powershell.exe (Windows PowerShell 5.1; Task Scheduler finds it on its own PATH).
        /// Linux: an absolute path systemd can start, checked now: the one given (a bare name is looked up on
        /// PATH), else the pwsh running this command (beside its System.Management.Automation), else pwsh on PATH.
        /// </summary>
        public static string Resolve(string? given, Func<string, string> resolvePath)
        {
            if (HelperLocator.IsWindows) return string.IsNullOrWhiteSpace(given) ? "powershell.exe" : given!;
            if (!string.IsNullOrWhiteSpace(given))
            {
                string? found = given!.IndexOf('/') >= 0 ? resolvePath(given) : ExecutableSearch.OnPath(given);
                if (found == null || !File.Exists(found))
                    throw new StorageTestException(ErrorCodes.PowerShellNotFound, $"The PowerShell executable '{given}' (-PowerShellPath) was not found{(given.IndexOf('/') >= 0 ? "" : " on PATH")}.", given);
                return found;
            }
            return RunningPowerShell() ?? ExecutableSearch.OnPath("pwsh")
                ?? throw new StorageTestException(ErrorCodes.PowerShellNotFound,
                    "pwsh (PowerShell 7) was not found on PATH, and this command does not run in it: give the executable the timer starts with -PowerShellPath, for example -PowerShellPath /opt/microsoft/powershell/7/pwsh.",
                    "pwsh");
        }

        /// <summary>
        /// The pwsh of the PowerShell running this command: the executable beside System.Management.Automation.
        /// Not the process's own path: PowerShell installed as the .NET tool runs as `dotnet pwsh.dll`, and its
        /// pwsh (which systemd can start) is in that folder. A host that merely embeds the engine has none.
        /// </summary>
        private static string? RunningPowerShell()
        {
            string location = typeof(PSObject).Assembly.Location;
            if (string.IsNullOrEmpty(location)) return null;
            string candidate = Path.Combine(Path.GetDirectoryName(location)!, "pwsh");
            return File.Exists(candidate) ? candidate : null;
        }
    }
}
