<#
.SYNOPSIS
    Runs the module's Pester suites: every tests/**/*.Tests.ps1, in the PowerShell that runs this script.

.DESCRIPTION
    Pester 5 comes from the NuGet feed (.config/pester.csproj restored into the NuGet packages folder);
    the module is imported from the repository root as users import it, so build it first
    (./build.sh Build or ./build.ps1 Build). build.sh Test runs this script in `dotnet pwsh` (the
    local tool of .config/dotnet-tools.json), build.ps1 Test in the PowerShell that runs build.ps1.

    Ends with every skipped test and the reason its prerequisite gives (a test skipped without a
    'Needs:' tag fails the run), then one line "Pester: N passed, N failed, N skipped". Exit code 1
    on any failure. Results: out/test-results/pester.xml (NUnit).

.EXAMPLE
    dotnet pwsh -NoProfile -File tests/Invoke-ModuleTests.ps1

.EXAMPLE
    dotnet pwsh -NoProfile -File tests/Invoke-ModuleTests.ps1 -Path tests/Module/New-MailboxProfile.Tests.ps1
#>
[CmdletBinding()]
param(
    # Test files or folders (default: every *.Tests.ps1 under tests/).
    [string[]] $Path,

    # Test files or folders to leave out (build.sh Test runs the suites in two processes: one takes a list with
    # -Path, the other everything else with -ExcludePath and the same list).
    [string[]] $ExcludePath,

    # Only tests whose full name matches one of these wildcards.
    [string[]] $FullNameFilter,

    # Pester.psd1 to use instead of the one restored from NuGet.
    [string] $PesterPath,

    # The NUnit results file's name under out/test-results (two runs at once, Linux and Windows under Wine, need two).
    [string] $ResultName = 'pester'
)

# Not strict: the tests run in the mode an admin's console has.
$ErrorActionPreference = 'Stop'
$root = (Resolve-Path -LiteralPath (Join-Path $PSScriptRoot '..')).Path

function Get-RestoredPester {
    # The version .config/pester.csproj names, restored into the NuGet global packages folder.
    $project = Join-Path $root '.config/pester.csproj'
    $version = ([xml](Get-Content -Raw -LiteralPath $project)).Project.ItemGroup.PackageDownload.Version.Trim('[', ']')
    & dotnet restore $project --nologo -v quiet | Out-Host
    if ($LASTEXITCODE -ne 0) { throw "dotnet restore $project failed (exit code $LASTEXITCODE): Pester $version is not in the NuGet source." }
    $packages = ((& dotnet nuget locals global-packages --list) -replace '^global-packages:\s*', '').Trim()
    $manifest = Join-Path $packages "pester/$version/tools/Pester.psd1"
    if (-not (Test-Path -LiteralPath $manifest)) { throw "Pester $version was restored, but $manifest is missing." }
    $manifest
}

if (-not $PesterPath) { $PesterPath = Get-RestoredPester }
Import-Module -Name $PesterPath -Force
Import-Module -Name (Join-Path $PSScriptRoot 'Support/TestSupport.psm1') -Force

# pwsh -File passes "a,b" as one string: take it as a list.
$Path = @($Path | ForEach-Object { $_ -split ',' } | Where-Object { $_ })
$FullNameFilter = @($FullNameFilter | ForEach-Object { $_ -split ',' } | Where-Object { $_ })
$ExcludePath = @($ExcludePath | ForEach-Object { $_ -split ',' } | Where-Object { $_ } | ForEach-Object { (Resolve-Path -LiteralPath $_).Path })
if (-not $Path) { $Path = @(Get-ChildItem -LiteralPath $PSScriptRoot -Recurse -Filter '*.Tests.ps1' | Sort-Object FullName | ForEach-Object { $_.FullName }) }
$results = Join-Path $root 'out/test-results'
$null = New-Item -ItemType Directory -Force -Path $results

# The commands' progress bars are not wanted in a log; tests that check progress collect the records in a
# runspace of their own, where this preference does not apply.
$global:ProgressPreference = 'SilentlyContinue'

$config = New-PesterConfiguration
$config.Run.Path = $Path
if ($ExcludePath) { $config.Run.ExcludePath = @($ExcludePath | ForEach-Object { if (Test-Path -LiteralPath $_ -PathType Container) { Join-Path $_ '*' } else { $_ } }) }
$config.Run.PassThru = $true
$config.Output.Verbosity = 'Detailed'
# Plain text for a log: output redirected, or a terminal lent only to give a console (NO_COLOR, Invoke-WindowsTests.sh).
if ([Console]::IsOutputRedirected -or $env:NO_COLOR) { $config.Output.RenderMode = 'Plaintext' }
$config.TestResult.Enabled = $true
$config.TestResult.OutputFormat = 'NUnitXml'
$config.TestResult.OutputPath = Join-Path $results "$ResultName.xml"
if ($FullNameFilter) { $config.Filter.FullName = $FullNameFilter }

$clock = [System.Diagnostics.Stopwatch]::StartNew()
try {
    $run = Invoke-Pester -Configuration $config
}
catch {
    Write-Host "Pester itself failed: $_"
    Write-Host 'Pester: 0 passed, 1 failed, 0 skipped'
    exit 1
}
finally {
    Remove-FinishedRun
    Remove-ModulePackage
}
$clock.Stop()

# Every skip with its reason; one without a stated prerequisite is a failure.
$unexplained = 0
if ($run.SkippedCount -gt 0) {
    Write-Host ''
    Write-Host 'Skipped:'
    foreach ($test in $run.Skipped) {
        $tags = @($test.Tag)
        for ($block = $test.Block; $null -ne $block; $block = $block.Parent) { $tags += @($block.Tag) }
        $reason = Get-SkipReason -Tag ($tags | Where-Object { $_ })
        if (-not $reason) {
            $reason = 'NO REASON STATED (tag the test or its block Needs:<prerequisite>): counted as a failure'
            $unexplained++
        }
        Write-Host ("  {0}: {1}" -f $test.ExpandedPath, $reason)
    }
}

$failed = $run.FailedCount + $run.FailedBlocksCount + $run.FailedContainersCount + $unexplained
Write-Host ''
Write-Host ("Pester: {0} tests in {1:0} s under PowerShell {2} ({3})." -f $run.TotalCount, $clock.Elapsed.TotalSeconds, $PSVersionTable.PSVersion, $PSVersionTable.PSEdition)
Write-Host ("Pester: {0} passed, {1} failed, {2} skipped" -f $run.PassedCount, $failed, $run.SkippedCount)
if ($failed -gt 0) { exit 1 }
exit 0
