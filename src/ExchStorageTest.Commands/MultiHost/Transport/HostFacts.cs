using System;
using System.Collections;
using System.Management.Automation;
using System.Management.Automation.Runspaces;
using System.Runtime.InteropServices;
using ExchStorageTest.Engine;
using ExchStorageTest.Input;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// What a host says about itself: its platform (which engine it needs), its temporary folder (where the module is
    /// copied when missing), and whether this module's version is there, imported into the session, with its engine.
    /// </summary>
    internal sealed class HostFacts
    {
        // Runs on the host before anything of this module may be there: core language and .NET only, for Windows
        // PowerShell 5.1 and PowerShell 7. The module is looked for loaded, at ModulePath (a copy), or installed.
        private const string Script = @"
param([string] $Version, [string] $ModulePath)
$facts = @{
    ComputerName = [Environment]::MachineName
    PSVersion    = $PSVersionTable.PSVersion.ToString()
    IsWindows    = [Environment]::OSVersion.Platform -eq [PlatformID]::Win32NT
    IsMacOS      = [bool]$IsMacOS
    Architecture = 'X64'
    TempPath     = [IO.Path]::GetTempPath()
    ModuleBase   = $null
    EnginePath   = $null
    ModuleError  = $null
}
try {
    $facts.Architecture = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString()
}
catch {
    if ($env:PROCESSOR_ARCHITEW6432 -eq 'ARM64' -or $env:PROCESSOR_ARCHITECTURE -eq 'ARM64') { $facts.Architecture = 'Arm64' }
}
try {
    $module = @(Get-Module -Name ExchStorageTest | Where-Object { $_.Version -eq [version]$Version })[0]
    if ($null -eq $module) {
        $path = $null
        if ($ModulePath) {
            if ([IO.File]::Exists($ModulePath)) { $path = $ModulePath }
        }
        else {
            $path = @(Get-Module -ListAvailable -Name ExchStorageTest | Where-Object { $_.Version -eq [version]$Version } | ForEach-Object { $_.Path })[0]
        }
        if ($path) { $module = @(Import-Module -Name $path -PassThru -ErrorAction Stop)[0] }
    }
    if ($null -ne $module) {
        $facts.ModuleBase = $module.ModuleBase
        $facts.EnginePath = [ExchStorageTest.MultiHost.HostAgent]::EnginePath()
    }
}
catch {
    $facts.ModuleError = $_.Exception.Message
}
$facts
";

        public string ComputerName { get; set; } = "";
        public string PSVersion { get; set; } = "";
        public bool IsWindows { get; set; }
        public string RuntimeId { get; set; } = "";
        public string TempPath { get; set; } = "";
        /// <summary>The module's folder on the host, or null when the module is not there.</summary>
        public string? ModuleBase { get; set; }
        public string? EnginePath { get; set; }
        /// <summary>Why the module was found but could not be imported.</summary>
        public string? ModuleError { get; set; }
        /// <summary>True when this run copied the module to the host.</summary>
        public bool ModuleCopied { get; set; }

        /// <summary>The host's directory separator, for paths built here for the host.</summary>
        public char Separator => IsWindows ? '\\' : '/';

        /// <summary>Asks the host; <paramref name="modulePath"/> is a copy's manifest to import, or null for an installed module.</summary>
        public static HostFacts Read(Runspace runspace, Func<bool> stopping, Version version, string? modulePath)
        {
            var answer = RemoteScript.Invoke(runspace, stopping, Script, RemoteScript.DefaultTimeout, version.ToString(), modulePath ?? "");
            if (answer.Count == 0 || !(SettingSource.Unwrap(answer[0]) is IDictionary facts))
                throw new InvalidOperationException("the host's check returned nothing.");
            string arch = Text(facts["Architecture"]) ?? "X64";
            bool windows = LanguagePrimitives.IsTrue(facts["IsWindows"]);
            return new HostFacts
            {
                ComputerName = Text(facts["ComputerName"]) ?? "",
                PSVersion = Text(facts["PSVersion"]) ?? "",
                IsWindows = windows,
                RuntimeId = EngineLocator.RuntimeIdFor(windows, LanguagePrimitives.IsTrue(facts["IsMacOS"]),
                    Enum.TryParse(arch, true, out Architecture parsed) ? parsed : Architecture.X64),
                TempPath = Text(facts["TempPath"]) ?? "",
                ModuleBase = Text(facts["ModuleBase"]),
                EnginePath = Text(facts["EnginePath"]),
                ModuleError = Text(facts["ModuleError"]),
            };
        }

        private static string? Text(object? value)
        {
            string? text = SettingSource.Unwrap(value)?.ToString();
            return string.IsNullOrWhiteSpace(text) ? null : text;
        }
    }
}
