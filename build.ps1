<#
.SYNOPSIS
    Builds, tests and demonstrates ExchStorageTest. Plain PowerShell: runs on Windows PowerShell 5.1 and PowerShell 7.

.DESCRIPTION
    The same tasks as build.sh, done the same way; build.sh needs no PowerShell, this needs no bash.

    Tasks:
      Bootstrap  restore Pester from NuGet (.config/pester.csproj) for the Windows-only Pester suites
      Build      build the engine, the cmdlets (bin/ExchStorageTest.dll) and the help compiled from docs/
                 (en-US/), and publish the native helper into bin/<rid>/ (plus self-contained win-x64 where the
                 NuGet source has the runtime packs)
      Test       Build, then every suite: xUnit (engine), xUnit (the module in a hosted PowerShell engine), the
                 Windows PowerShell 5.1 syntax QA, and on Windows the Pester suites; ends with one line
                 "N passed, N failed" and a non-zero exit code on any failure
      Analyze    PSScriptAnalyzer over src/ when it is installed (says so when it is not)
      Docs       the help alone: MAML and about topics from docs/ into en-US/ (tools/ExchStorageTest.HelpCompiler)
      Demo       Build, then a short Performance test of a built-in profile in a temporary folder, with reports
      Package    the module folder (manifest, src, bin, en-US, docs) under out/ and a zip of it
      Bench      our engine against fio on the same file (Linux; needs fio), printing ratios ours/fio

.EXAMPLE
    ./build.ps1 Test

.EXAMPLE
    ./build.ps1 Demo -DemoPath D:\EST-Demo
#>
[CmdletBinding()]
param(
    [Parameter(Position = 0)]
    [ValidateSet('Bootstrap', 'Build', 'Test', 'Analyze', 'Docs', 'Demo', 'Package', 'Bench')]
    [string[]] $Task = @('Build'),

    [ValidateSet('Debug', 'Release')]
    [string] $Configuration = 'Release',

    # Where Demo puts its databases and reports (default: a new temporary folder).
    [string] $DemoPath,

    # Bench: arguments for compare-fio (folder, seconds, paced seconds, repeats, scenario, pin|nopin).
    [Parameter(ValueFromRemainingArguments = $true)]
    [string[]] $BenchArguments
)

$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0
$Root = $PSScriptRoot
$Native = Join-Path $Root 'native'
$Out = Join-Path $Root 'out'
$script:Passed = 0
$script:Failed = 0

function Write-Step([string] $Message) { Write-Host "==> $Message" -ForegroundColor Cyan }

function Invoke-Native {
    # Runs an external command and fails the build on a non-zero exit code.
    param([string] $File, [string[]] $Arguments, [switch] $AllowFailure)
    # Output goes to the host, so the only thing this function returns is the exit code.
    & $File @Arguments | Out-Host
    $code = $LASTEXITCODE
    if ($code -ne 0 -and -not $AllowFailure) { throw "'$File $($Arguments -join ' ')' failed with exit code $code." }
    return $code
}

function Get-HostRid {
    $arch = 'x64'
    if ($PSVersionTable.PSEdition -eq 'Core') {
        $a = [System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString().ToLowerInvariant()
        if ($a -eq 'arm64') { $arch = 'arm64' }
    }
    $onWindows = ($PSVersionTable.PSEdition -eq 'Desktop') -or $IsWindows
    if ($onWindows) { return "win-$arch" }
    if ($IsMacOS) { return "osx-$arch" }
    return "linux-$arch"
}

function Test-WindowsHost {
    return ($PSVersionTable.PSEdition -eq 'Desktop') -or ((Test-Path variable:IsWindows) -and $IsWindows)
}

function Invoke-Bootstrap {
    Write-Step 'Restoring Pester from NuGet'
    $code = Invoke-Native dotnet @('restore', (Join-Path $Root '.config/pester.csproj'), '--packages', (Join-Path $Root 'tools/packages')) -AllowFailure
    if ($code -ne 0) { Write-Warning 'Pester could not be restored from the configured NuGet sources; the Pester suites will use an installed Pester if there is one.' }
}

function Invoke-Build {
    # One solution build: the engine, the cmdlets (copied to bin/) and the help compiler, which runs as
    # part of its own build and writes en-US/ExchStorageTest.dll-Help.xml and the about topic.
    Write-Step "Building the engine, the cmdlets and the help ($Configuration)"
    $null = Invoke-Native dotnet @('build', (Join-Path $Native 'ExchStorageTest.sln'), '-c', $Configuration, '--nologo')
    $rid = Get-HostRid
    Publish-Helper -Rid $rid
    if ($rid -ne 'win-x64') {
        # Exchange servers have no .NET 8: ship a self-contained Windows helper when the NuGet source has the packs.
        try { Publish-Helper -Rid 'win-x64' } catch { Write-Warning "win-x64 helper not published: $($_.Exception.Message)" }
    }
}

function Publish-Helper([string] $Rid) {
    $target = Join-Path $Root "bin/$Rid"
    Write-Step "Publishing the native helper for $Rid -> $target"
    $project = Join-Path $Native 'src/ExchStorageTest.Host/ExchStorageTest.Host.csproj'
    $null = Invoke-Native dotnet @('publish', $project, '-c', $Configuration, '-r', $Rid, '--self-contained', '-o', $target, '--nologo')
}

function Get-PesterModule {
    $restored = Get-ChildItem -Path (Join-Path $Root 'tools/packages/pester') -Filter 'Pester.psd1' -Recurse -ErrorAction SilentlyContinue | Select-Object -First 1
    if ($restored) { return $restored.FullName }
    $installed = Get-Module -ListAvailable -Name Pester | Where-Object { $_.Version -ge [version]'5.5.0' } | Sort-Object Version -Descending | Select-Object -First 1
    if ($installed) { return $installed.Path }
    return $null
}

function Add-Counts([int] $Passed, [int] $Failed, [string] $Suite) {
    $script:Passed += $Passed
    $script:Failed += $Failed
    Write-Host ("{0}: {1} passed, {2} failed" -f $Suite, $Passed, $Failed)
}

function Invoke-XunitSuite([string] $Project, [string] $Name) {
    # One xUnit project as one suite of the summary.
    Write-Step "xUnit: $Name"
    $results = Join-Path $Out 'test-results'
    $null = New-Item -ItemType Directory -Force -Path $results
    $trx = Join-Path $results "$Name.trx"
    if (Test-Path $trx) { Remove-Item -Force $trx }
    $code = Invoke-Native dotnet @('test', (Join-Path $Root $Project), '-c', $Configuration, '--nologo', '--no-build',
        '--logger', "trx;LogFileName=$Name.trx", '--logger', 'console;verbosity=normal', '--results-directory', $results) -AllowFailure
    if (-not (Test-Path $trx)) { Add-Counts 0 1 "xUnit $Name (no results file)"; return }
    $counters = ([xml](Get-Content -Raw -LiteralPath $trx)).TestRun.ResultSummary.Counters
    $failed = [int]$counters.failed + [int]$counters.error + [int]$counters.timeout + [int]$counters.aborted
    if ($code -ne 0 -and $failed -eq 0) { $failed = 1 }
    Add-Counts ([int]$counters.passed) $failed "xUnit $Name"
}

function Invoke-PesterTests {
    # The Pester suites cover what only Windows has (Task Scheduler, WinRM, Windows PowerShell 5.1 itself).
    if (-not (Test-WindowsHost)) {
        Write-Host 'NOTE: the Pester suites (tests/) are for Windows only; the hosted-PowerShell xUnit suite covers the module here.'
        return
    }
    Invoke-Bootstrap
    $pester = Get-PesterModule
    if (-not $pester) {
        Write-Warning 'Pester 5 is not available (not restored from NuGet, not installed): the Pester suites did NOT run.'
        Add-Counts 0 1 'Pester (unavailable)'
        return
    }
    Write-Step "Pester: the Windows-only suite ($pester)"
    Import-Module $pester -Force
    $config = New-PesterConfiguration
    $config.Run.Path = @(Join-Path $Root 'tests/Windows')
    $config.Run.PassThru = $true
    $config.Output.Verbosity = 'Normal'
    $config.TestResult.Enabled = $true
    $config.TestResult.OutputFormat = 'NUnitXml'
    $config.TestResult.OutputPath = Join-Path $Out 'test-results/pester.xml'
    $result = Invoke-Pester -Configuration $config
    Add-Counts $result.PassedCount ($result.FailedCount + $result.FailedBlocksCount + $result.FailedContainersCount) 'Pester'
}

function Invoke-SyntaxQa {
    # Windows PowerShell 5.1 syntax of the PowerShell files that remain (the DSC root module, the manifest,
    # this script, the Pester suites), parsed with tree-sitter: the same check build.sh runs.
    $qa = Join-Path $Root 'tests/QA/syntax'
    if (-not (Test-Path (Join-Path $qa 'check.js'))) { return }
    if (-not (Get-Command node -ErrorAction SilentlyContinue)) {
        Write-Warning 'node is not installed: the 5.1 syntax QA did NOT run.'
        return
    }
    $null = Invoke-Native npm @('ci', '--prefix', $qa, '--no-audit', '--no-fund', '--silent') -AllowFailure
    Write-Step 'Windows PowerShell 5.1 syntax QA (tree-sitter parser)'
    $lines = & node (Join-Path $qa 'check.js') $Root 2>&1
    $lines | Where-Object { "$_" -notmatch '^PASS ' } | ForEach-Object { Write-Host $_ }
    $summary = $lines | Where-Object { "$_" -match '^(\d+) passed, (\d+) failed' } | Select-Object -Last 1
    if ($summary -and "$summary" -match '^(\d+) passed, (\d+) failed') { Add-Counts ([int]$Matches[1]) ([int]$Matches[2]) 'Syntax QA' }
    else { Add-Counts 0 1 'Syntax QA (no summary)' }
}

function Invoke-Test {
    Invoke-Build
    Invoke-XunitSuite 'native/tests/ExchStorageTest.Engine.Tests/ExchStorageTest.Engine.Tests.csproj' 'engine'
    Invoke-XunitSuite 'tools/ExchStorageTest.HelpCompiler.Tests/ExchStorageTest.HelpCompiler.Tests.csproj' 'help-compiler'
    Invoke-XunitSuite 'native/tests/ExchStorageTest.PowerShell.Tests/ExchStorageTest.PowerShell.Tests.csproj' 'powershell'
    Invoke-SyntaxQa
    Invoke-PesterTests
    Write-Host ''
    Write-Host ("{0} passed, {1} failed" -f $script:Passed, $script:Failed)
    if ($script:Failed -gt 0) { exit 1 }
}

function Invoke-Analyze {
    if (-not (Get-Module -ListAvailable -Name PSScriptAnalyzer)) {
        Write-Warning 'PSScriptAnalyzer is not installed (it is published only to the PowerShell Gallery): skipped. The QA tests still check 5.1 syntax and help.'
        return
    }
    Write-Step 'PSScriptAnalyzer'
    $issues = Invoke-ScriptAnalyzer -Path (Join-Path $Root 'src') -Recurse -Settings (Join-Path $Root 'PSScriptAnalyzerSettings.psd1')
    $issues | Format-Table -AutoSize | Out-String | Write-Host
    if ($issues | Where-Object Severity -eq 'Error') { throw 'PSScriptAnalyzer reported errors.' }
}

function Invoke-Docs {
    # platyPS is not needed: building the help compiler runs it (docs/*.md -> en-US/).
    Write-Step 'Help from docs/ (MAML and about topics) -> en-US'
    $null = Invoke-Native dotnet @('build', (Join-Path $Root 'tools/ExchStorageTest.HelpCompiler/ExchStorageTest.HelpCompiler.csproj'), '-c', $Configuration, '--nologo')
}

function Invoke-Demo {
    Invoke-Build
    if (-not $DemoPath) { $DemoPath = Join-Path (Get-DemoTempRoot) ('ExchStorageTest-demo-' + (Get-Date -Format 'yyyyMMdd-HHmmss')) }
    $null = New-Item -ItemType Directory -Force -Path $DemoPath
    Write-Step "Demo: 100 mailboxes x 0.5 IOPS, 10 MB each, 2 databases, 30 s in $DemoPath"
    Import-Module (Join-Path $Root 'ExchStorageTest.psd1') -Force
    $result = New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 2 -Path $DemoPath -ThreadCount 2 |
        Invoke-StorageTest -Duration '00:00:30' -SampleIntervalSeconds 5 -OutputPath (Join-Path $DemoPath 'Results') -Confirm:$false
    $result | Format-List | Out-String | Write-Host
    $result | Get-TestReport -Format @('Text', 'Html') -OutputPath (Join-Path $DemoPath 'Results') | Out-String | Write-Host
}

function Get-DemoTempRoot {
    # /tmp is often tmpfs on Linux, which cannot do direct I/O; /var/tmp is on disk.
    if ((Test-Path '/var/tmp') -and -not $env:TMPDIR) { return '/var/tmp' }
    return [System.IO.Path]::GetTempPath()
}

function Invoke-Package {
    Invoke-Build
    $version = (Import-PowerShellDataFile (Join-Path $Root 'ExchStorageTest.psd1')).ModuleVersion
    $target = Join-Path $Out "ExchStorageTest/$version"
    Write-Step "Packaging module $version -> $target"
    if (Test-Path $target) { Remove-Item -Recurse -Force $target }
    $null = New-Item -ItemType Directory -Force -Path $target
    foreach ($item in @('ExchStorageTest.psd1', 'src', 'bin', 'en-US', 'docs', 'README.md')) {
        Copy-Item -Recurse -Force -Path (Join-Path $Root $item) -Destination $target
    }
    $zip = Join-Path $Out "ExchStorageTest-$version.zip"
    if (Test-Path $zip) { Remove-Item -Force $zip }
    Compress-Archive -Path (Join-Path $Out 'ExchStorageTest') -DestinationPath $zip
    Write-Host "Package: $zip"
}

function Invoke-Bench {
    # The comparison lives in the benchmarks project (it runs our load driver in-process and fio as a
    # child). Extra arguments pass through: folder, seconds, paced seconds, repeats, scenario, pin|nopin.
    $benchArgs = if ($BenchArguments) { @($BenchArguments) } else { @('/var/tmp/est-bench', '15', '60', '3') }
    Write-Step 'Engine vs fio on the same file (ratios ours/fio)'
    $project = Join-Path $Root 'native/benchmarks/ExchStorageTest.Benchmarks'
    $null = Invoke-Native dotnet (@('run', '-c', 'Release', '--project', $project, '--', 'compare-fio') + $benchArgs)
}

foreach ($t in $Task) {
    switch ($t) {
        'Bootstrap' { Invoke-Bootstrap }
        'Build' { Invoke-Build }
        'Test' { Invoke-Test }
        'Analyze' { Invoke-Analyze }
        'Docs' { Invoke-Docs }
        'Demo' { Invoke-Demo }
        'Package' { Invoke-Package }
        'Bench' { Invoke-Bench }
    }
}
