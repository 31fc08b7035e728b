using System.ComponentModel;
using System.IO;
using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// A package does not keep Unix file modes (a .nupkg is a zip NuGet writes without them), so a copy installed by
    /// Install-PSResource, Save-PSResource or a folder copied from Windows has an engine and a JetstressCmd that
    /// cannot be started ("Permission denied"). The module gives them their execute bits back when it is imported and
    /// before it starts the engine. Windows has no such bit: nothing to do there.
    /// </summary>
    internal static class ExecuteBit
    {
        private const int ExecuteAccess = 1; // X_OK
        private const uint OwnerAllGroupOthersReadExecute = 0x1ED; // 0755, as the build publishes them

        [DllImport("libc", EntryPoint = "access", SetLastError = true)]
        private static extern int Access(string path, int mode);

        [DllImport("libc", EntryPoint = "chmod", SetLastError = true)]
        private static extern int Chmod(string path, uint mode);

        /// <summary>Makes <paramref name="path"/> executable where it exists and is not; null when it is (or is now),
        /// else why it could not be (the system's words: "Read-only file system", "Operation not permitted").</summary>
        public static string? Ensure(string path)
        {
            if (EngineLocator.IsWindows || !File.Exists(path) || Access(path, ExecuteAccess) == 0) return null;
            if (Chmod(path, OwnerAllGroupOthersReadExecute) == 0) return null;
            return new Win32Exception(Marshal.GetLastWin32Error()).Message;
        }
    }
}
