using System;
using System.IO;
using System.Management.Automation;
using System.Runtime.InteropServices;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Helper
{
    /// <summary>
    /// Finds the native helper for this machine: <c>bin/&lt;rid&gt;/exchstoragetest-engine</c> beside this assembly
    /// (<c>bin/ExchStorageTest.dll</c>), the layout the build produces and the package ships. The environment
    /// variable EXCHSTORAGETEST_ENGINE overrides the location (development builds, a shared install).
    /// </summary>
    internal static class HelperLocator
    {
        public const string FileName = "exchstoragetest-engine";
        public const string OverrideVariable = "EXCHSTORAGETEST_ENGINE";

        /// <summary>The runtime identifier of the helper this OS needs: the OS's architecture, not the process's,
        /// so 32-bit Windows PowerShell on 64-bit Windows still starts the 64-bit helper.</summary>
        public static string RuntimeId
        {
            get
            {
                string os = RuntimeInformation.IsOSPlatform(OSPlatform.Windows) ? "win"
                    : RuntimeInformation.IsOSPlatform(OSPlatform.OSX) ? "osx" : "linux";
                string arch = RuntimeInformation.OSArchitecture == Architecture.Arm64 ? "arm64" : "x64";
                return os + "-" + arch;
            }
        }

        public static bool IsWindows => RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        /// <summary>The folder holding this assembly (the module's bin folder).</summary>
        public static string ModuleBinFolder => Path.GetDirectoryName(typeof(HelperLocator).Assembly.Location) ?? ".";

        public static string Find()
        {
            string rid = RuntimeId;
            string? overridden = Environment.GetEnvironmentVariable(OverrideVariable);
            string path = string.IsNullOrWhiteSpace(overridden)
                ? Path.Combine(Path.Combine(ModuleBinFolder, rid), IsWindows ? FileName + ".exe" : FileName)
                : overridden!;
            if (!File.Exists(path))
            {
                string build = IsWindows ? ".\\build.ps1 Build" : "./build.sh Build";
                throw new StorageTestException("EngineNotInstalled",
                    $"The ExchStorageTest engine for {rid} is not installed: '{path}' does not exist. Build it from the repository root with: {build}",
                    ErrorCategory.NotInstalled, path);
            }
            return path;
        }
    }
}
