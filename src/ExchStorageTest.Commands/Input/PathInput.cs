using System;
using System.Collections;
using System.Collections.Generic;
using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Input
{
    /// <summary>Paths as users give them: strings, FileSystemInfo, or Exchange's path objects.</summary>
    internal static class PathInput
    {
        /// <summary>
        /// Plain strings from anything path-like. Get-MailboxDatabase returns EdbFilePath and LogFolderPath as
        /// typed path objects; through the Exchange Management Shell's implicit remoting they arrive deserialized,
        /// where PathName holds the path. FileSystemInfo carries FullName. Everything else gives ToString().
        /// </summary>
        public static IEnumerable<string> ToStrings(object? input)
        {
            input = SettingSource.Unwrap(input);
            if (input == null) yield break;
            if (input is IEnumerable items && !(input is string))
            {
                foreach (object? item in items)
                    foreach (string text in ToStrings(item))
                        yield return text;
                yield break;
            }
            string? path = null;
            if (input is string s) path = s;
            else if (input is FileSystemInfo info) path = info.FullName;
            else
            {
                var bag = PSObject.AsPSObject(input);
                foreach (string name in new[] { "PathName", "FullName", "Path" })
                {
                    string? candidate = bag.Properties[name]?.Value?.ToString();
                    if (!string.IsNullOrWhiteSpace(candidate)) { path = candidate; break; }
                }
                path ??= input.ToString();
            }
            if (!string.IsNullOrWhiteSpace(path)) yield return path!.Trim();
        }

        /// <summary>How two paths compare on this OS: without regard to case on Windows, exactly elsewhere.</summary>
        public static StringComparer Comparer =>
            System.Runtime.InteropServices.RuntimeInformation.IsOSPlatform(System.Runtime.InteropServices.OSPlatform.Windows) ? StringComparer.OrdinalIgnoreCase : StringComparer.Ordinal;

        /// <summary>The folder of an .edb file (Get-MailboxDatabase's EdbFilePath), or the path itself.</summary>
        public static string DatabaseFolder(string path)
        {
            if (path.EndsWith(".edb", StringComparison.OrdinalIgnoreCase))
            {
                string? parent = Path.GetDirectoryName(path);
                if (!string.IsNullOrEmpty(parent)) return parent!;
            }
            return path;
        }

        /// <summary>
        /// Makes a user's path absolute against the current PowerShell location (.NET resolves against the
        /// process directory, which is not the same). A drive that does not exist here (a profile planned for
        /// another server) is kept as typed when it is already rooted. A path PowerShell leaves unrooted is not one
        /// of this computer's file system: on Linux a UNC path (\\server\share) comes back as typed, and .NET took it
        /// for a relative name under the process directory (a folder named like the share was made there), so it
        /// is refused.
        /// </summary>
        public static string Resolve(PSCmdlet cmdlet, string path)
        {
            string resolved;
            try
            {
                resolved = cmdlet.GetUnresolvedProviderPathFromPSPath(path);
            }
            catch (Exception ex) when (!(ex is PipelineStoppedException))
            {
                if (Path.IsPathRooted(path)) return path;
                throw new StorageTestException(ErrorCodes.PathNotResolvable, $"The path '{path}' cannot be resolved: {ex.Message}", path, ex);
            }
            if (!Path.IsPathRooted(resolved))
                throw new StorageTestException(ErrorCodes.PathNotResolvable,
                    $"The path '{path}' is not a path of this computer's file system{(System.Runtime.InteropServices.RuntimeInformation.IsOSPlatform(System.Runtime.InteropServices.OSPlatform.Windows) ? "" : ": a UNC path names a Windows share; give the folder where the share is mounted")}.",
                    path);
            return resolved;
        }
    }
}
