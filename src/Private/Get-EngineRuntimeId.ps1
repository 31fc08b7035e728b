function Get-EngineRuntimeId {
    <#
    .SYNOPSIS
    Returns the .NET runtime identifier (win-x64, linux-x64, linux-arm64, osx-arm64, ...) of this host.

    .DESCRIPTION
    The build publishes one engine per RID under bin/<rid>/. Windows PowerShell 5.1 only runs on
    Windows and has no $IsLinux/$IsMacOS, so the OS comes from the edition there; the
    architecture comes from the OS (not the process), so 32-bit PowerShell on 64-bit Windows
    still picks the 64-bit engine.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param()

    $os = 'win'
    if ($PSVersionTable.PSEdition -eq 'Core') {
        if ($IsLinux) {
            $os = 'linux'
        }
        elseif ($IsMacOS) {
            $os = 'osx'
        }
    }

    $architecture = ''
    try {
        $architecture = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString()
    }
    catch {
        # .NET Framework before 4.7.1 lacks RuntimeInformation; the environment knows instead.
        $architecture = $env:PROCESSOR_ARCHITEW6432
        if ([string]::IsNullOrEmpty($architecture)) {
            $architecture = $env:PROCESSOR_ARCHITECTURE
        }
    }

    switch -Regex ($architecture) {
        '^(X64|AMD64)$' { $arch = 'x64'; break }
        '^(Arm64|ARM64)$' { $arch = 'arm64'; break }
        '^(X86)$' { $arch = 'x86'; break }
        '^(Arm)$' { $arch = 'arm'; break }
        default { $arch = 'x64' }
    }
    '{0}-{1}' -f $os, $arch
}
