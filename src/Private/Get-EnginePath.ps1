function Get-EnginePath {
    <#
    .SYNOPSIS
    Returns the full path of the engine helper for this host, or throws ExchStorageTest.EngineNotInstalled.

    .DESCRIPTION
    Looks for bin/<rid>/exchstoragetest-engine[.exe] under the module base. The environment
    variable EXCHSTORAGETEST_ENGINE overrides the location (development builds, CI, a shared
    engine on a file share). The error names the missing path and the build command, because the
    usual cause is a fresh clone that was never built.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param()

    if (-not [string]::IsNullOrWhiteSpace($env:EXCHSTORAGETEST_ENGINE)) {
        $candidate = $env:EXCHSTORAGETEST_ENGINE
    }
    else {
        $fileName = 'exchstoragetest-engine'
        if ((Get-EngineRuntimeId).StartsWith('win-', [System.StringComparison]::Ordinal)) {
            $fileName = 'exchstoragetest-engine.exe'
        }
        $candidate = [System.IO.Path]::Combine($script:ModuleRoot, 'bin', (Get-EngineRuntimeId), $fileName)
    }

    if (-not [System.IO.File]::Exists($candidate)) {
        $message = "The ExchStorageTest engine helper was not found at '$candidate'. Build it from the repository root with: ./build.ps1 Build"
        throw (New-ModuleErrorRecord -ErrorId 'EngineNotInstalled' -Message $message -Category NotInstalled -TargetObject $candidate)
    }
    $candidate
}
