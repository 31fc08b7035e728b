using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System.Security.Cryptography;
using System.Text.RegularExpressions;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// Puts this module on a host that lacks it: the manifest and every file it names (root and nested modules,
    /// format and type files), the help beside them, and the engine for the host's platform (bin/&lt;rid&gt;/), into
    /// &lt;host temp&gt;/ExchStorageTest-&lt;version&gt;-&lt;build&gt;. The build part is a hash of this assembly, so a copy
    /// is reused by later runs of the same build and never mistaken for another one. The manifest goes last: a
    /// copy that has its manifest is complete.
    /// </summary>
    internal sealed class ModuleCopy
    {
        private const string ModuleName = "ExchStorageTest";

        // Null when the DLL was imported by itself rather than through the manifest: hosts must then have the module installed.
        private readonly PSModuleInfo? _module;

        public ModuleCopy(PSModuleInfo? module) => _module = module;

        /// <summary>The module version the hosts must have: the manifest's, or the assembly's when there is no manifest.</summary>
        public Version Version => _module?.Version ?? new Version(typeof(ModuleCopy).Assembly.GetName().Version.ToString(3));

        private string ManifestPath => _module == null ? "" : Path.Combine(_module.ModuleBase, ModuleName + ".psd1");

        /// <summary>The copy's manifest path on the host.</summary>
        public string RemoteManifest(HostFacts facts) => RemoteFolder(facts) + facts.Separator + ModuleName + ".psd1";

        /// <summary>
        /// Whether the module may be copied to the host, asked on the command's thread (ShouldProcess: -WhatIf copies
        /// nothing, -Confirm asks, -Force does not). Throws EngineNotAvailable when there is no engine here for the host's
        /// platform, ModuleNotAvailable when the copy cannot be made or was declined.
        /// </summary>
        public void Confirm(IRunOutput output, HostFacts facts, string hostName)
        {
            string engineFolder = EngineFolder(facts);
            if (!Directory.Exists(engineFolder))
                throw new StorageTestException(ErrorCodes.EngineNotAvailable,
                    $"ExchStorageTest {Version} is not installed on '{hostName}', and there is no engine for its platform ({facts.RuntimeId}) to copy from '{engineFolder}'. Install the module there, or build the engine for {facts.RuntimeId}.",
                    hostName);
            if (_module == null || !File.Exists(ManifestPath))
                throw new StorageTestException(ErrorCodes.ModuleNotAvailable,
                    $"ExchStorageTest is not installed on '{hostName}', and this module was not imported through its manifest (ExchStorageTest.psd1), so it cannot be copied. Install the module on the host.",
                    hostName);
            string target = RemoteFolder(facts);
            if (!output.ShouldRun($"Copy ExchStorageTest {Version} and its engine for {facts.RuntimeId} to '{target}' on {hostName}, where it is not installed.",
                    $"Copy ExchStorageTest {Version} to '{target}' on {hostName}?", "Invoke-StorageTest"))
                throw new StorageTestException(ErrorCodes.ModuleNotAvailable,
                    $"ExchStorageTest {Version} is not installed on the host and was not copied there (declined, or -WhatIf): its plan can only be made once the module is there.",
                    hostName);
        }

        /// <summary>Copies the module (confirmed with <see cref="Confirm"/>) to the host: every file, the engine made executable, the manifest last.</summary>
        public void CopyTo(IHostLink host, HostFacts facts)
        {
            string target = RemoteFolder(facts);
            foreach (string file in Files(_module!, EngineFolder(facts)))
                host.Send(file, target + facts.Separator + Relative(_module!, file).Replace(Path.DirectorySeparatorChar, facts.Separator));
            // A copy through a runspace does not carry the executable bit.
            if (!facts.IsWindows) host.MakeExecutable(target + "/bin/" + facts.RuntimeId + "/" + EngineFiles.Engine);
            host.Send(ManifestPath, RemoteManifest(facts));
        }

        private static string EngineFolder(HostFacts facts) => Path.Combine(EngineLocator.ModuleBinFolder, facts.RuntimeId);

        private string RemoteFolder(HostFacts facts) =>
            facts.TempPath.TrimEnd('\\', '/') + facts.Separator + ModuleName + "-" + Version + "-" + BuildHash();

        /// <summary>Every file to copy but the manifest (which goes last), the engine included.</summary>
        private static IEnumerable<string> Files(PSModuleInfo module, string engineFolder)
        {
            var named = new List<string>();
            if (!string.IsNullOrEmpty(module.RootModule)) named.Add(Path.Combine(module.ModuleBase, module.RootModule));
            named.AddRange(module.NestedModules.Select(m => m.Path));
            named.AddRange(module.ExportedFormatFiles);
            named.AddRange(module.ExportedTypeFiles);
            var files = new SortedSet<string>(StringComparer.Ordinal);
            var folders = new SortedSet<string>(StringComparer.Ordinal) { Path.GetFullPath(module.ModuleBase) };
            foreach (string file in named.Where(File.Exists).Select(Path.GetFullPath))
            {
                files.Add(file);
                folders.Add(Path.GetDirectoryName(file)!);
            }
            // Help where Get-Help looks: culture folders (en-US/ExchStorageTest.dll-Help.xml, about_*.help.txt) beside
            // the manifest or a module file, and MAML beside the DLL.
            foreach (string folder in folders)
            {
                foreach (string help in Directory.GetFiles(folder, "*-Help.xml")) files.Add(help);
                foreach (string culture in Directory.GetDirectories(folder).Where(IsCultureFolder))
                    foreach (string help in Directory.GetFiles(culture, "*", SearchOption.AllDirectories)) files.Add(help);
            }
            foreach (string file in Directory.GetFiles(engineFolder, "*", SearchOption.AllDirectories)) files.Add(file);
            return files;
        }

        private static string Relative(PSModuleInfo module, string file)
        {
            string root = module.ModuleBase.TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar;
            if (!file.StartsWith(root, StringComparison.Ordinal))
                throw new InvalidOperationException($"'{file}' is outside the module folder '{root}'.");
            return file.Substring(root.Length);
        }

        // A culture folder's name (en-US, de-DE, zh-Hans), by its shape: CultureInfo lookups fail where .NET runs
        // without culture data (invariant globalization), and the folder names what PowerShell looks for anyway.
        private static readonly Regex CultureName = new Regex("^[a-z]{2,3}-[A-Za-z]{2,4}$", RegexOptions.CultureInvariant);

        private static bool IsCultureFolder(string folder) => CultureName.IsMatch(Path.GetFileName(folder));

        private static string BuildHash()
        {
            using (var sha = SHA256.Create())
            using (var assembly = File.OpenRead(typeof(ModuleCopy).Assembly.Location))
                return BitConverter.ToString(sha.ComputeHash(assembly)).Replace("-", "").Substring(0, 8).ToLowerInvariant();
        }
    }
}
