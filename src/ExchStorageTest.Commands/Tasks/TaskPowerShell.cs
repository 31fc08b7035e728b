using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;

namespace ExchStorageTest.Tasks
{
    /// <summary>The PowerShell executable the scheduler starts with the runner script.</summary>
    internal static class TaskPowerShell
    {
        /// <summary>Where PowerShell 7's packages install pwsh on Linux (Microsoft's deb/rpm, the tarball's guide, snap).</summary>
        internal static readonly string[] StandardLocations = { "/usr/bin/pwsh", "/usr/local/bin/pwsh", "/opt/microsoft/powershell/7/pwsh", "/snap/bin/pwsh" };

        /// <summary>
        /// Windows: as given, or powershell.exe (Windows PowerShell 5.1, always installed; Task Scheduler finds it on its
        /// own PATH). Linux: an absolute path systemd can start, checked now: the one given (a bare name is looked up
        /// on PATH), else an installed pwsh (<see cref="FindInstalled"/>), never one from a package cache.
        /// </summary>
        public static string Resolve(string? given, Func<string, string> resolvePath)
        {
            if (EngineLocator.IsWindows) return string.IsNullOrWhiteSpace(given) ? "powershell.exe" : given!;
            if (!string.IsNullOrWhiteSpace(given))
            {
                string? found = given!.IndexOf('/') >= 0 ? resolvePath(given) : ExecutableSearch.OnPath(given);
                if (found == null || !File.Exists(found))
                    throw new StorageTestException(ErrorCodes.PowerShellNotFound, $"The PowerShell executable '{given}' (-PowerShellPath) was not found{(given.IndexOf('/') >= 0 ? "" : " on PATH")}.", given);
                return found;
            }
            string? running = RunningFolder();
            string? pathVariable = Environment.GetEnvironmentVariable("PATH");
            return FindInstalled(running, pathVariable, File.Exists) ?? throw new StorageTestException(ErrorCodes.PowerShellNotFound, NotFoundMessage(running, pathVariable), "pwsh");
        }

        /// <summary>
        /// The pwsh a timer can start for months: beside the running PowerShell, then on PATH, then at the standard
        /// locations; the first that exists and is not in a package cache. The running PowerShell comes first (it is
        /// the one the user chose) unless it runs from a cache: PowerShell as a .NET local tool runs from the NuGet
        /// packages folder, a global tool from the tool store, and an update or a cache clean deletes that pwsh.
        /// </summary>
        internal static string? FindInstalled(string? runningFolder, string? pathVariable, Func<string, bool> exists) =>
            Candidates(runningFolder, pathVariable).FirstOrDefault(c => !IsPackageCache(c) && exists(c));

        internal static IEnumerable<string> Candidates(string? runningFolder, string? pathVariable)
        {
            if (!string.IsNullOrEmpty(runningFolder)) yield return InFolder(runningFolder!);
            foreach (string folder in (pathVariable ?? "").Split(new[] { ':' }, StringSplitOptions.RemoveEmptyEntries))
                if (folder.StartsWith("/", StringComparison.Ordinal)) yield return InFolder(folder.Trim());
            foreach (string location in StandardLocations) yield return location;
        }

        /// <summary>Whether <paramref name="path"/> is in the NuGet packages folder or the .NET tool store (a cache, not an installation).</summary>
        internal static bool IsPackageCache(string path)
        {
            string nugetPackages = Environment.GetEnvironmentVariable("NUGET_PACKAGES") ?? "";
            return path.IndexOf("/.nuget/packages/", StringComparison.Ordinal) >= 0
                || path.IndexOf("/.dotnet/tools/.store/", StringComparison.Ordinal) >= 0
                || (nugetPackages.Length > 1 && path.StartsWith(nugetPackages.TrimEnd('/') + "/", StringComparison.Ordinal));
        }

        /// <summary>What was looked for, so the user sees why none would do.</summary>
        internal static string NotFoundMessage(string? runningFolder, string? pathVariable)
        {
            string running = string.IsNullOrEmpty(runningFolder) ? "" : IsPackageCache(InFolder(runningFolder!))
                ? $"beside the running PowerShell ('{runningFolder}', skipped: a package cache, which an update or a cache clean removes), "
                : $"beside the running PowerShell ('{runningFolder}'), ";
            return $"No installed PowerShell 7 (pwsh) was found for the timer to start: looked {running}on PATH ('{pathVariable}') and at {string.Join(", ", StandardLocations)}. " +
                "Install PowerShell 7 (for example the powershell package from packages.microsoft.com), or give the executable with -PowerShellPath. Nothing was written.";
        }

        private static string InFolder(string folder) => folder.TrimEnd('/') + "/pwsh";

        /// <summary>
        /// The folder of the PowerShell running this command ($PSHOME): System.Management.Automation's. Not the process's
        /// own path: PowerShell installed as a .NET tool runs as `dotnet pwsh.dll`, with its pwsh in that folder.
        /// </summary>
        private static string? RunningFolder()
        {
            string location = typeof(PSObject).Assembly.Location;
            return string.IsNullOrEmpty(location) ? null : Path.GetDirectoryName(location);
        }
    }
}
