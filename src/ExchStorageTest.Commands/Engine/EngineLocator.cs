using System;
using System.IO;
using System.Management.Automation;
using System.Runtime.InteropServices;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// Finds the native engine for this machine: <c>bin/&lt;rid&gt;/exchstoragetest-engine</c> beside this assembly
    /// (<c>bin/ExchStorageTest.dll</c>), the layout the build produces and the package ships. The environment
    /// variable EXCHSTORAGETEST_ENGINE overrides the location (development builds, a shared install).
    /// </summary>
    internal static class EngineLocator
    {
        public const string OverrideVariable = "EXCHSTORAGETEST_ENGINE";

        /// <summary>The runtime identifier of the engine this OS needs: the OS's architecture, not the process's,
        /// so 32-bit Windows PowerShell on 64-bit Windows still starts the 64-bit engine.</summary>
        public static string RuntimeId =>
            RuntimeIdFor(RuntimeInformation.IsOSPlatform(OSPlatform.Windows), RuntimeInformation.IsOSPlatform(OSPlatform.OSX), RuntimeInformation.OSArchitecture);

        /// <summary>The same rule for another machine (a remote host of a multi-host run), from its reported facts.</summary>
        public static string RuntimeIdFor(bool windows, bool osx, Architecture architecture) =>
            (windows ? "win" : osx ? "osx" : "linux") + "-" + (architecture == Architecture.Arm64 ? "arm64" : "x64");

        public static bool IsWindows => RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        /// <summary>The folder holding this assembly (the module's bin folder).</summary>
        public static string ModuleBinFolder => Path.GetDirectoryName(typeof(EngineLocator).Assembly.Location) ?? ".";

        /// <summary>Where this machine's engine is looked for, whether or not it is there: EXCHSTORAGETEST_ENGINE, or bin/&lt;rid&gt;/.</summary>
        public static string ExpectedPath
        {
            get
            {
                string? overridden = Environment.GetEnvironmentVariable(OverrideVariable);
                return string.IsNullOrWhiteSpace(overridden) ? Path.Combine(Path.Combine(ModuleBinFolder, RuntimeId), IsWindows ? EngineFiles.Engine + ".exe" : EngineFiles.Engine) : overridden!;
            }
        }

        public static string Find()
        {
            string rid = RuntimeId;
            string path = ExpectedPath;
            if (!File.Exists(path))
            {
                string build = IsWindows ? ".\\build.ps1 Build" : "./build.sh Build";
                throw new StorageTestException(ErrorCodes.EngineNotInstalled,
                    $"The ExchStorageTest engine for {rid} is not installed: '{path}' does not exist. Build it from the repository root with: {build}",
                    path);
            }
            string? notExecutable = ExecuteBit.Ensure(path);
            if (notExecutable != null)
            {
                string folder = Path.GetDirectoryName(path) ?? ".";
                throw new StorageTestException(ErrorCodes.EngineNotExecutable,
                    $"The ExchStorageTest engine '{path}' is not executable and could not be made so ({notExecutable}): a package does not keep execute bits. " +
                    $"As the folder's owner run: chmod +x '{path}' '{Path.Combine(folder, EngineFiles.JetstressCmd)}'; or install the module where it can be written (Install-PSResource -Scope CurrentUser).",
                    path);
            }
            return path;
        }

        /// <summary>At import: this machine's engine and JetstressCmd given their execute bits where a package took them
        /// (<see cref="ExecuteBit"/>). Where it cannot, the first run says so (<see cref="Find"/>); the import goes on.</summary>
        public static void MarkExecutables()
        {
            string folder = Path.Combine(ModuleBinFolder, RuntimeId);
            ExecuteBit.Ensure(Path.Combine(folder, EngineFiles.Engine));
            ExecuteBit.Ensure(Path.Combine(folder, EngineFiles.JetstressCmd));
        }
    }
}
