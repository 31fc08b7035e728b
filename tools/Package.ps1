<#
.SYNOPSIS
    The module's package: the folder an installed copy holds, and the .nupkg PowerShell repositories take.

.DESCRIPTION
    Stages out/package/ExchStorageTest/<version>/ with only what runs - the manifest, the root module and the format
    and types files of src/, the cmdlets (bin/ExchStorageTest.dll), every platform's published engine under
    bin/<rid>/ with JetstressCmd beside it, the compiled help (en-US/), the DSC v3 resource manifests (dsc/) and the
    README - and no sources, symbols or XML documentation. Then Compress-PSResource (PSResourceGet, in PowerShell
    7.4 and later) writes out/package/ExchStorageTest.<version>.nupkg from it: the file Publish-PSResource -NupkgPath
    pushes to the PowerShell Gallery or an internal feed, or a folder repository takes as it is (docs/install.md).

    build.sh Package and build.ps1 Package run this script in the repository's pwsh (dotnet pwsh) after Build;
    build.sh Test runs it too, since the suites install the package and test the installed copy. Exit code 0 with
    the package written, 1 on an error (a platform's engine missing, the manifest refused).

.EXAMPLE
    dotnet pwsh -NoProfile -File tools/Package.ps1
#>
[CmdletBinding()]
param(
    # Where the staged module folder and the .nupkg go (default: out/package under the repository root).
    [string] $OutputPath
)

$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0
$root = Split-Path -Parent $PSScriptRoot
if (-not $OutputPath) { $OutputPath = Join-Path $root 'out/package' }

# Every platform the package promises (the manifest says Desktop and Core, Windows and Linux): each one's engine must
# be built, or the package would install and then fail on that platform's first run.
$platforms = @('linux-x64', 'win-x64')
$manifest = Import-PowerShellDataFile (Join-Path $root 'ExchStorageTest.psd1')
$version = $manifest.ModuleVersion

$missing = @($platforms | Where-Object { -not (Test-Path -Path (Join-Path $root "bin/$_/exchstoragetest-engine*")) })
if ($missing) {
    throw "The package needs the engine for every platform; bin/ has none for: $($missing -join ', '). Build first (./build.sh Build or ./build.ps1 Build; win-x64 needs its runtime pack in the NuGet source)."
}

$staging = Join-Path $OutputPath 'ExchStorageTest'
$module = Join-Path $staging $version
if (Test-Path -LiteralPath $staging) { Remove-Item -LiteralPath $staging -Recurse -Force }
$null = New-Item -ItemType Directory -Force -Path (Join-Path $module 'src'), (Join-Path $module 'bin')

Copy-Item -LiteralPath (Join-Path $root 'ExchStorageTest.psd1'), (Join-Path $root 'README.md') -Destination $module
# src/ holds the C# sources too: only the PowerShell files the manifest loads ship.
Get-ChildItem -LiteralPath (Join-Path $root 'src') -File | Where-Object { $_.Extension -in '.psm1', '.ps1xml' } |
    Copy-Item -Destination (Join-Path $module 'src')
Copy-Item -LiteralPath (Join-Path $root 'bin/ExchStorageTest.dll') -Destination (Join-Path $module 'bin')
foreach ($platform in $platforms) {
    $target = Join-Path $module "bin/$platform"
    $null = New-Item -ItemType Directory -Path $target
    # Symbols and the compiler's XML documentation are for developers; a stack trace still names the method.
    Get-ChildItem -LiteralPath (Join-Path $root "bin/$platform") -File | Where-Object { $_.Extension -notin '.pdb', '.xml' } |
        Copy-Item -Destination $target
}
Copy-Item -LiteralPath (Join-Path $root 'en-US'), (Join-Path $root 'dsc') -Destination $module -Recurse

$nupkg = Join-Path $OutputPath "ExchStorageTest.$version.nupkg"
if (Test-Path -LiteralPath $nupkg) { Remove-Item -LiteralPath $nupkg -Force }
Compress-PSResource -Path $module -DestinationPath $OutputPath
if (-not (Test-Path -LiteralPath $nupkg)) { throw "Compress-PSResource wrote no $nupkg." }

$folderBytes = (Get-ChildItem -LiteralPath $module -Recurse -File | Measure-Object -Property Length -Sum).Sum
Write-Host ("Package: {0} ({1:N1} MB; installed {2:N1} MB)" -f $nupkg, ((Get-Item -LiteralPath $nupkg).Length / 1MB), ($folderBytes / 1MB))
