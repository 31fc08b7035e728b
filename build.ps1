<#
.SYNOPSIS
    Builds, tests and demonstrates ExchStorageTest. Plain PowerShell: runs on Windows PowerShell 5.1 and PowerShell 7.

.DESCRIPTION
    The same tasks as build.sh, done the same way; build.sh needs no PowerShell, this needs no bash.

    PowerShell 7 and Pester come from NuGet: the local .NET tool of .config/dotnet-tools.json (`dotnet pwsh`)
    and .config/pester.csproj.

    Tasks:
      Bootstrap  restore PowerShell 7 (dotnet tool restore) and Pester (.config/pester.csproj) from NuGet
      Build      build the engine, the cmdlets (bin/ExchStorageTest.dll) and the help compiled from docs/
                 (en-US/), and publish the native helper into bin/<rid>/ with JetstressCmd[.exe] beside it (plus
                 self-contained win-x64 where the NuGet source has the runtime packs; docs/jetstress.md)
      Test       Build, then every suite: xUnit (the engine, the module's C#, the help compiler), the module's Pester
                 suites (tests/Invoke-ModuleTests.ps1, in a new process of the PowerShell running this script; on Linux
                 also in Windows PowerShell 7 under Wine, tests/Invoke-WindowsTests.sh) and the Windows PowerShell
                 5.1 syntax QA; ends with one line "N passed, N failed" and a non-zero exit code on any failure
      Analyze    PSScriptAnalyzer over src/ when it is installed (says so when it is not)
      Docs       the help alone: MAML and about topics from docs/ into en-US/ (tools/ExchStorageTest.HelpCompiler)
      Demo       Build, then the README's pipeline (New-MailboxProfile | Invoke-StorageTest | Get-TestReport) on a
                 built-in profile for 30 s in a temporary folder or -DemoPath (tools/Demo.ps1, as build.sh Demo)
      Package    Build, then the module's package (tools/Package.ps1, as build.sh Package): the installed layout under
                 out/package/ExchStorageTest/<version>/ and out/package/ExchStorageTest.<version>.nupkg (docs/install.md)
      Bench      our engine against fio (defaults and fixedbufs+registerfiles) on the virtio disk and a RAM-backed
                 device, database creation, the Exchange mix on 1, 2 ... RAM-backed volumes, and the regression
                 check (Linux; needs fio, root for the RAM device); 'Bench exchange' the Exchange part alone

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

    # Bench: arguments for bench (seconds, repeats, scenario|all, pin|nopin, plain|-, creation MiB).
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

function Invoke-Bootstrap {
    # PowerShell 7 as the local .NET tool (`dotnet pwsh`) and Pester into the NuGet packages folder, where the
    # test runner finds it: nothing is downloaded from outside the NuGet source.
    Write-Step 'Restoring PowerShell 7 (dotnet tool restore) and Pester (.config/pester.csproj) from NuGet'
    $null = Invoke-Native dotnet @('tool', 'restore')
    $null = Invoke-Native dotnet @('restore', (Join-Path $Root '.config/pester.csproj'), '--nologo', '-v', 'quiet')
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

function Invoke-PesterSuite {
    # The module's Pester suites in a new process of the PowerShell running this script (Windows PowerShell 5.1
    # or PowerShell 7), so the suites import the module into a session of their own.
    Write-Step "Pester: the module's suites (tests/Invoke-ModuleTests.ps1)"
    $shell = Join-Path $PSHOME 'powershell.exe'
    if ($PSVersionTable.PSEdition -eq 'Core') {
        $shell = @('pwsh.exe', 'pwsh') | ForEach-Object { Join-Path $PSHOME $_ } | Where-Object { Test-Path -LiteralPath $_ } | Select-Object -First 1
    }
    $log = Join-Path $Out 'test-results/pester.log'
    # A line on standard error must not stop this script (Windows PowerShell 5.1 turns it into an error record).
    $ErrorActionPreference = 'Continue'
    $lines = & $shell -NoProfile -NonInteractive -File (Join-Path $Root 'tests/Invoke-ModuleTests.ps1') 2>&1 | ForEach-Object { Write-Host $_; "$_" }
    $null = New-Item -ItemType Directory -Force -Path (Split-Path -Parent $log)
    Set-Content -LiteralPath $log -Value $lines
    $summary = $lines | Where-Object { $_ -match '^Pester: (\d+) passed, (\d+) failed' } | Select-Object -Last 1
    if ($summary -and $summary -match '^Pester: (\d+) passed, (\d+) failed') { Add-Counts ([int]$Matches[1]) ([int]$Matches[2]) 'Pester' }
    else { Add-Counts 0 1 'Pester (no summary)' }
}

function Invoke-WinePesterSuite {
    # On Linux, the same suites in Windows PowerShell 7 under Wine against the win-x64 helper, as build.sh Test runs
    # them (tests/Invoke-WindowsTests.sh, docs/windows.md). On Windows the suites above already ran in Windows.
    if (-not ($PSVersionTable.PSEdition -eq 'Core' -and $IsLinux)) { return }
    if (-not (Test-Path -LiteralPath '/usr/lib/wine/wine64')) {
        Write-Warning 'wine64 is not installed: the Pester suites under Wine did NOT run (apt-get install wine64).'
        return
    }
    Write-Step 'Pester (Windows under Wine): the module in Windows PowerShell 7 against bin/win-x64'
    $null = Invoke-Native dotnet @('publish', (Join-Path $Root 'tests/WindowsHost/WindowsHost.csproj'), '-c', $Configuration, '-o', (Join-Path $Out 'windows-host'), '--nologo', '-v', 'quiet') -AllowFailure
    $ErrorActionPreference = 'Continue'
    $lines = & bash (Join-Path $Root 'tests/Invoke-WindowsTests.sh') 2>&1 | ForEach-Object { Write-Host $_; "$_" }
    $summary = $lines | Where-Object { $_ -match '^Pester \(Windows under Wine\): (\d+) passed, (\d+) failed' } | Select-Object -Last 1
    if ($summary -and $summary -match '^Pester \(Windows under Wine\): (\d+) passed, (\d+) failed') { Add-Counts ([int]$Matches[1]) ([int]$Matches[2]) 'Pester (Windows under Wine)' }
    elseif ($lines | Where-Object { $_ -match '^Pester \(Windows under Wine\): not run: ' }) { Write-Warning 'The Pester suites under Wine did NOT run (the reason is above).' }
    else { Add-Counts 0 1 'Pester (Windows under Wine) (no summary)' }
}

function Invoke-SyntaxQa {
    # Windows PowerShell 5.1 syntax of the PowerShell files (the DSC root module, the manifest, this script,
    # tools/, the Pester suites), parsed with tree-sitter: the same check build.sh runs.
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
    Invoke-XunitSuite 'tests/ExchStorageTest.Commands.Tests/ExchStorageTest.Commands.Tests.csproj' 'module'
    Invoke-XunitSuite 'tools/ExchStorageTest.HelpCompiler.Tests/ExchStorageTest.HelpCompiler.Tests.csproj' 'help-compiler'
    Invoke-Bootstrap
    # The suites install the package and run the installed copy (README example, JetstressCmd).
    New-Package
    Invoke-PesterSuite
    Invoke-WinePesterSuite
    Invoke-SyntaxQa
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
    # The same demo as build.sh Demo: one script, run here in this PowerShell.
    Invoke-Build
    $demo = Join-Path $Root 'tools/Demo.ps1'
    if ($DemoPath) { & $demo -Path $DemoPath } else { & $demo }
}

function Invoke-Package {
    Invoke-Build
    Invoke-Bootstrap
    New-Package
}

function New-Package {
    # The module's package from what Build made, by the same script as build.sh Package (tools/Package.ps1), in the
    # repository's PowerShell 7 (dotnet pwsh): Compress-PSResource is not in Windows PowerShell 5.1.
    Write-Step 'Packaging the module (tools/Package.ps1)'
    $null = Invoke-Native dotnet @('pwsh', '-NoProfile', '-NonInteractive', '-File', (Join-Path $Root 'tools/Package.ps1'))
}

function Invoke-Bench {
    # The comparison lives in the benchmarks project (it runs our load driver in-process and fio as a
    # child). Extra arguments pass through: seconds, repeats, scenario|all, pin|nopin, plain|-, creation MiB;
    # 'exchange' first runs the Exchange scaling part alone (counts|max, sessions per database, seconds,
    # warm-up seconds, repeats, database MiB). The Exchange part runs the published helper: build first.
    $benchArgs = if ($BenchArguments) { @($BenchArguments) } else { @() }
    Invoke-Build
    $project = Join-Path $Root 'native/benchmarks/ExchStorageTest.Benchmarks'
    if ($benchArgs.Count -gt 0 -and $benchArgs[0] -eq 'exchange') {
        Write-Step 'The Exchange mix on 1, 2 ... RAM-backed volumes and its regression check'
        $rest = if ($benchArgs.Count -gt 1) { @($benchArgs[1..($benchArgs.Count - 1)]) } else { @() }
        $null = Invoke-Native dotnet (@('run', '-c', 'Release', '--project', $project, '--', 'exchange-scaling') + $rest)
        return
    }
    Write-Step 'Engine vs fio, database creation, the Exchange mix scaling and the regression check'
    $null = Invoke-Native dotnet (@('run', '-c', 'Release', '--project', $project, '--', 'bench') + $benchArgs)
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
