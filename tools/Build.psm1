# The build's tasks, one implementation for both entry points: build.ps1 imports this module (on Windows, in Windows
# PowerShell 5.1 or PowerShell 7), and build.sh starts build.ps1 in the repository's PowerShell 7 (`dotnet pwsh`, the
# local tool of .config/dotnet-tools.json). Windows PowerShell 5.1 syntax throughout (tests/QA/syntax checks it), so
# the suites run side by side as processes (Start-Process), not with ForEach-Object -Parallel.

$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0

$script:Root = Split-Path -Parent $PSScriptRoot
$script:Results = Join-Path $script:Root 'out/test-results'
$script:Configuration = 'Release'

function Write-Step([string] $Message) { Write-Host "==> $Message" }

function Test-OnWindows { return ($PSVersionTable.PSEdition -eq 'Desktop') -or $IsWindows }

function Invoke-Native {
    # Runs an external command, its output on the console, and fails the build on a non-zero exit code.
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
    if (Test-OnWindows) { return "win-$arch" }
    if ($IsMacOS) { return "osx-$arch" }
    return "linux-$arch"
}

function Invoke-Bootstrap {
    # PowerShell 7 as the local .NET tool (`dotnet pwsh`) and Pester into the NuGet packages folder, where the
    # test runner finds it: nothing is downloaded from outside the NuGet source.
    Write-Step 'Restoring PowerShell 7 (dotnet tool restore) and Pester (.config/pester.csproj) from NuGet'
    $null = Invoke-Native dotnet @('tool', 'restore')
    # Pester once, before the runners read it (a restore of the same project from several at once would race).
    $null = Invoke-Native dotnet @('restore', (Join-Path $script:Root '.config/pester.csproj'), '--nologo', '-v', 'quiet')
}

function Invoke-Build {
    # One solution build: the engine, the cmdlets (copied to bin/) and the help compiler, which runs as
    # part of its own build and writes en-US/ExchStorageTest.dll-Help.xml and the about topic.
    Write-Step "Building the engine, the cmdlets and the help ($script:Configuration)"
    $null = Invoke-Native dotnet @('build', (Join-Path $script:Root 'native/ExchStorageTest.sln'), '-c', $script:Configuration, '--nologo', '-v', 'quiet')
    $rid = Get-HostRid
    # Exchange servers have no .NET 8: a self-contained Windows engine ships too, when the NuGet source has its packs.
    $rids = @($rid)
    if ($rid -ne 'win-x64') { $rids += 'win-x64' }
    Publish-Engine -Rid $rids
}

function Publish-Engine([string[]] $Rid) {
    # Each platform's engine published at once: trimming is one thread's work a platform, and the solution build's
    # restore already holds every platform's packs (RuntimeIdentifiers), so the publishes share no restore. This
    # machine's own platform must publish; another's failing is a warning.
    $project = Join-Path $script:Root 'native/src/ExchStorageTest.Engine.Cli/ExchStorageTest.Engine.Cli.csproj'
    $publishes = foreach ($r in $Rid) {
        Write-Step "Publishing the engine for $r -> bin/$r"
        $arguments = ConvertTo-CommandLine @('publish', $project, '-c', $script:Configuration, '-r', $r, '--self-contained', '--no-restore',
            '-o', (Join-Path $script:Root "bin/$r"), '--nologo', '-v', 'quiet')
        $process = Start-Process -FilePath dotnet -ArgumentList $arguments -NoNewWindow -PassThru
        $null = $process.Handle # keeps the exit code readable after the process ends (Windows PowerShell 5.1)
        [pscustomobject]@{ Rid = $r; Process = $process }
    }
    foreach ($publish in @($publishes)) {
        $publish.Process.WaitForExit()
        if ($publish.Process.ExitCode -eq 0) { continue }
        if ($publish.Rid -eq $Rid[0]) { throw "Publishing the engine for $($publish.Rid) failed (exit code $($publish.Process.ExitCode))." }
        Write-Warning "$($publish.Rid) engine not published (runtime packs missing from the NuGet source)"
    }
}

function New-Package {
    # The module's package from what Build made (tools/Package.ps1), in the repository's PowerShell 7 (dotnet pwsh):
    # Compress-PSResource is not in Windows PowerShell 5.1.
    Write-Step 'Packaging the module (tools/Package.ps1)'
    $null = Invoke-Native dotnet @('pwsh', '-NoProfile', '-NonInteractive', '-File', (Join-Path $script:Root 'tools/Package.ps1'))
}

function Invoke-Package {
    Invoke-Build
    Invoke-Bootstrap
    New-Package
}

function Invoke-Demo([string] $Path) {
    # Build, then the README's pipeline (tools/Demo.ps1) in this PowerShell.
    Invoke-Build
    $demo = Join-Path $script:Root 'tools/Demo.ps1'
    if ($Path) { & $demo -Path $Path } else { & $demo }
}

function Invoke-Docs {
    # platyPS is not needed: building the help compiler runs it (docs/*.md -> en-US/).
    Write-Step 'Help from docs/ (MAML and about topics) -> en-US'
    $null = Invoke-Native dotnet @('build', (Join-Path $script:Root 'tools/ExchStorageTest.HelpCompiler/ExchStorageTest.HelpCompiler.csproj'), '-c', $script:Configuration, '--nologo')
}

function Invoke-Analyze {
    if (-not (Get-Module -ListAvailable -Name PSScriptAnalyzer)) {
        Write-Warning 'PSScriptAnalyzer is not installed (it is published only to the PowerShell Gallery): skipped. The QA tests still check 5.1 syntax and help.'
        return
    }
    Write-Step 'PSScriptAnalyzer'
    $found = Invoke-ScriptAnalyzer -Path (Join-Path $script:Root 'src') -Recurse -Settings (Join-Path $script:Root 'PSScriptAnalyzerSettings.psd1')
    $found | Format-Table -AutoSize | Out-String | Write-Host
    if ($found | Where-Object Severity -eq 'Error') { throw 'PSScriptAnalyzer reported errors.' }
}

function Invoke-Bench([string[]] $Arguments) {
    # The comparison lives in the benchmarks project (it runs our load driver in-process and fio as a child);
    # arguments pass through (docs/benchmarks.md): seconds, repeats, scenario|all, pin|nopin, plain|-, creation MiB
    # (default 5 5 all pin - 1024). 'exchange' first runs the Exchange scaling part alone: counts|max, sessions per
    # database, seconds, warm-up seconds, repeats, database MiB. The Exchange part runs the published engine, so
    # the build comes first. Exit code 1 on a regression.
    $benchArgs = @($Arguments | Where-Object { $null -ne $_ })
    Invoke-Build
    $project = Join-Path $script:Root 'native/benchmarks/ExchStorageTest.Benchmarks'
    $command = 'bench'
    if ($benchArgs.Count -gt 0 -and $benchArgs[0] -eq 'exchange') {
        $command = 'exchange-scaling'
        $benchArgs = @($benchArgs | Select-Object -Skip 1)
    }
    $null = Invoke-Native dotnet (@('run', '-c', 'Release', '--project', $project, '--', $command) + $benchArgs)
}

# ---- Test: every suite, the slow ones side by side, and one summary ----------------------------------------------

# The summary's last lines: each suite's counts and every failed test with the first line of its message, so that the
# end of the output, often all a CI shows, says what failed and why without the logs above it.
$script:Summary = $null
function Reset-TestSummary {
    $script:Summary = [pscustomobject]@{
        Passed   = 0
        Failed   = 0
        Suites   = New-Object System.Collections.Generic.List[string]
        Failures = New-Object System.Collections.Generic.List[string]
        NotRun   = New-Object System.Collections.Generic.List[string]
    }
}
Reset-TestSummary

function Add-SuiteCount([int] $Passed, [int] $Failed, [string] $Suite) {
    $script:Summary.Passed += $Passed
    $script:Summary.Failed += $Failed
    $line = '{0}: {1} passed, {2} failed' -f $Suite, $Passed, $Failed
    Write-Host $line
    $script:Summary.Suites.Add($line)
}

function Add-NotRun([string] $Tool, [string] $Reason) {
    # One word each on the NOTE line: "Tool(reason-in-words)".
    $word = ('{0}({1})' -f $Tool, $Reason) -replace ' ', '-'
    $script:Summary.NotRun.Add($word)
}

function Get-FailureReason([string] $Message) {
    # The first line of a test's message, cut short.
    $first = ($Message -split "`r?`n")[0]
    if ($first.Length -gt 300) { return $first.Substring(0, 300) + '...' }
    return $first
}

function Get-TrxSuite([string] $Path) {
    # A TRX file's counts and failed tests ("name -- first line of its message"). A test that errored, timed out or
    # was aborted counts as failed; NotExecuted (skipped) counts as neither.
    $run = ([xml](Get-Content -Raw -LiteralPath $Path)).TestRun
    $counters = $run.ResultSummary.Counters
    $failed = 0
    foreach ($name in @('failed', 'error', 'timeout', 'aborted')) {
        $value = $counters.GetAttribute($name)
        if ($value) { $failed += [int]$value }
    }
    $failures = New-Object System.Collections.Generic.List[string]
    $results = @()
    if ($run.SelectSingleNode("*[local-name()='Results']")) { $results = @($run.Results.SelectNodes("*[local-name()='UnitTestResult']")) }
    foreach ($result in $results) {
        if (@('Passed', 'NotExecuted') -contains $result.outcome) { continue }
        $name = Get-FailureReason $result.testName
        $message = $result.SelectSingleNode("*[local-name()='Output']/*[local-name()='ErrorInfo']/*[local-name()='Message']")
        if ($message -and $message.InnerText) { $failures.Add("$name -- $(Get-FailureReason $message.InnerText)") }
        else { $failures.Add($name) }
    }
    $passed = 0
    if ($counters.GetAttribute('passed')) { $passed = [int]$counters.GetAttribute('passed') }
    return [pscustomobject]@{ Passed = $passed; Failed = $failed; Failures = $failures.ToArray() }
}

function Get-PesterLogSuite([string] $Path, [string] $Name) {
    # A Pester runner's log: its counts from its last "<Name>: N passed, N failed" line (Status Counted), or why it
    # did not run ("<Name>: not run: <reason>", Status NotRun), or Status NoSummary when the runner itself failed;
    # and each failed test, which Pester marks "[-] name <time>" with the first line of its message on the next line.
    $lines = @(Get-Content -LiteralPath $Path)
    $failures = New-Object System.Collections.Generic.List[string]
    $summary = $null
    for ($i = 0; $i -lt $lines.Count; $i++) {
        $line = [string]$lines[$i]
        if ($line.StartsWith("${Name}: ")) { $summary = $line.Substring($Name.Length + 2) }
        if ($line -match '^ *\[-\] (.*)$') {
            $test = $Matches[1] -replace ' [0-9.]+m?s \(.*$', ''
            if ($i + 1 -lt $lines.Count) { $failures.Add("$test -- $(Get-FailureReason ([string]$lines[$i + 1]).TrimStart(' '))") }
            else { $failures.Add($test) }
        }
    }
    $suite = [pscustomobject]@{ Status = 'NoSummary'; Passed = 0; Failed = 0; Reason = ''; Failures = $failures.ToArray() }
    if ($null -ne $summary -and $summary.StartsWith('not run: ')) { $suite.Status = 'NotRun'; $suite.Reason = $summary.Substring(9) }
    elseif ($null -ne $summary -and $summary -match '^(\d+) passed, (\d+) failed') {
        $suite.Status = 'Counted'; $suite.Passed = [int]$Matches[1]; $suite.Failed = [int]$Matches[2]
    }
    return $suite
}

function Add-Failures([string] $Label, [string[]] $Failures) {
    foreach ($failure in $Failures) { if ($failure) { $script:Summary.Failures.Add("${Label}: $failure") } }
}

function Write-TestSummary {
    # The end of Test's output; returns whether every suite passed.
    Write-Host ''
    Write-Host 'Suites:'
    foreach ($line in $script:Summary.Suites) { Write-Host "  $line" }
    if ($script:Summary.Failures.Count -gt 0) {
        Write-Host 'Failed tests:'
        foreach ($line in $script:Summary.Failures) { Write-Host "  $line" }
    }
    if ($script:Summary.NotRun.Count -gt 0) { Write-Host "NOTE: not run for lack of a tool: $($script:Summary.NotRun -join ' ')" }
    Write-Host ('{0} passed, {1} failed' -f $script:Summary.Passed, $script:Summary.Failed)
    return ($script:Summary.Failed -eq 0)
}

# The suites by name; TEST_SUITES (names joined by commas) narrows Test to some of them, for checking the build itself.
$script:SuiteNames = @('engine', 'module', 'help-compiler', 'pester-windows', 'pester-1', 'pester-2', 'syntax-qa')
function Test-SuiteSelected([string] $Name) {
    $only = $env:TEST_SUITES
    if (-not $only) { return $true }
    return @($only -split ',' | ForEach-Object { $_.Trim() }) -contains $Name
}

function Invoke-XunitSuite([string] $Project, [string] $Name) {
    # One xUnit project as one suite of the summary, its output on the console as it runs.
    if (-not (Test-SuiteSelected $Name)) { return }
    Write-Step "xUnit: $Name"
    $null = New-Item -ItemType Directory -Force -Path $script:Results
    $trx = Join-Path $script:Results "$Name.trx"
    if (Test-Path -LiteralPath $trx) { Remove-Item -Force -LiteralPath $trx }
    $code = Invoke-Native dotnet @('test', (Join-Path $script:Root $Project), '-c', $script:Configuration, '--nologo', '--no-build',
        '--logger', "trx;LogFileName=$Name.trx", '--logger', 'console;verbosity=normal', '--results-directory', $script:Results) -AllowFailure
    if (-not (Test-Path -LiteralPath $trx)) { Add-SuiteCount 0 1 "xUnit $Name (no results file)"; return }
    $suite = Get-TrxSuite $trx
    $failed = $suite.Failed
    if ($code -ne 0 -and $failed -eq 0) { $failed = 1 }
    Add-SuiteCount $suite.Passed $failed "xUnit $Name"
    Add-Failures "xUnit $Name" $suite.Failures
}

function ConvertTo-CommandLine([string[]] $Arguments) {
    # Start-Process joins its arguments with spaces: quote those that need it.
    return (@($Arguments | ForEach-Object { if ($_ -match '[\s"]' -or $_ -eq '') { '"' + ($_ -replace '"', '\"') + '"' } else { $_ } }) -join ' ')
}

function Start-LoggedSuite([string] $Log, [string] $Name, [string] $Label, [string] $File, [string[]] $Arguments) {
    # One suite in a process of its own, its output in out/test-results/<Log>.log (standard error in <Log>.err until
    # it ends); returns what Complete-LoggedSuite needs.
    # No input: an empty file, as bash gives a background job /dev/null.
    $out = Join-Path $script:Results "$Log.log"
    $err = Join-Path $script:Results "$Log.err"
    $none = Join-Path $script:Results 'no-input'
    if (-not (Test-Path -LiteralPath $none)) { $null = New-Item -ItemType File -Path $none }
    $process = Start-Process -FilePath $File -ArgumentList (ConvertTo-CommandLine $Arguments) -WorkingDirectory $script:Root `
        -RedirectStandardInput $none -RedirectStandardOutput $out -RedirectStandardError $err -NoNewWindow -PassThru
    return [pscustomobject]@{ Process = $process; Log = $Log; Name = $Name; Label = $Label }
}

function Complete-LoggedSuite($Suite) {
    # Waits for a suite Start-LoggedSuite began, prints its log whole and counts it (its runner's last line
    # "<Name>: N passed, N failed"; "<Name>: not run: <reason>" joins the tools not run).
    $Suite.Process.WaitForExit()
    $log = Join-Path $script:Results "$($Suite.Log).log"
    $err = Join-Path $script:Results "$($Suite.Log).err"
    if ((Test-Path -LiteralPath $err) -and (Get-Item -LiteralPath $err).Length -gt 0) { Get-Content -LiteralPath $err | Add-Content -LiteralPath $log }
    Remove-Item -LiteralPath $err -ErrorAction SilentlyContinue
    Write-Step "$($Suite.Label): finished (log: out/test-results/$($Suite.Log).log)"
    Get-Content -LiteralPath $log | ForEach-Object { Write-Host $_ }
    $result = Get-PesterLogSuite $log $Suite.Name
    switch ($result.Status) {
        'Counted' { Add-SuiteCount $result.Passed $result.Failed $Suite.Label }
        'NotRun' { Add-NotRun $Suite.Label $result.Reason }
        default { Add-SuiteCount 0 1 "$($Suite.Label) (no summary)" }
    }
    Add-Failures $Suite.Label $result.Failures
}

function Get-PowerShellCommand {
    # A new process of the PowerShell running this script (Windows PowerShell 5.1 or PowerShell 7), so the suites
    # import the module into a session of their own; `dotnet pwsh` where this PowerShell has no executable of its own.
    if ($PSVersionTable.PSEdition -eq 'Desktop') { return @((Join-Path $PSHOME 'powershell.exe')) }
    foreach ($name in @('pwsh.exe', 'pwsh')) {
        $candidate = Join-Path $PSHOME $name
        if (Test-Path -LiteralPath $candidate) { return @($candidate) }
    }
    return @('dotnet', 'pwsh')
}

function Start-WindowsHostPublish {
    # On Linux and macOS the module's suites also run in Windows PowerShell 7 under Wine against the win-x64 engine
    # (tests/Invoke-WindowsTests.sh, docs/windows.md), in the test host tests/WindowsHost published to out/windows-host.
    # It depends on nothing the build makes, so it is published while the build runs: the Wine run, the CI's critical
    # path, starts as soon as the build is done. Null where the Wine run will not be (Windows, no wine64, not selected).
    if ((Test-OnWindows) -or -not (Test-SuiteSelected 'pester-windows') -or -not (Test-Path -LiteralPath '/usr/lib/wine/wine64')) { return $null }
    Write-Step 'Publishing the Windows PowerShell test host (tests/WindowsHost) -> out/windows-host, beside the build'
    $arguments = ConvertTo-CommandLine @('publish', (Join-Path $script:Root 'tests/WindowsHost/WindowsHost.csproj'), '-c', $script:Configuration,
        '-o', (Join-Path $script:Root 'out/windows-host'), '--nologo', '-v', 'quiet')
    $process = Start-Process -FilePath dotnet -ArgumentList $arguments -NoNewWindow -PassThru
    $null = $process.Handle # keeps the exit code readable after the process ends (Windows PowerShell 5.1)
    return $process
}

function Test-WindowsHost($Publish) {
    # Whether the Wine run can start: wine64, the win-x64 engine and the test host (Start-WindowsHostPublish's process,
    # waited for here); false, with the reason among the tools not run, where it cannot. On Windows the suites already
    # run in Windows.
    if (Test-OnWindows) { return $false }
    if (-not (Test-Path -LiteralPath '/usr/lib/wine/wine64')) { Add-NotRun 'Pester-under-Wine' 'wine64 not installed'; return $false }
    if (-not (Test-Path -LiteralPath (Join-Path $script:Root 'bin/win-x64/exchstoragetest-engine.exe'))) { Add-NotRun 'Pester-under-Wine' 'no win-x64 engine'; return $false }
    if ($null -eq $Publish) { Add-SuiteCount 0 1 'Pester (Windows under Wine): the test host was not published'; return $false }
    $Publish.WaitForExit()
    if ($Publish.ExitCode -ne 0) { Add-SuiteCount 0 1 'Pester (Windows under Wine): the test host did not publish'; return $false }
    return $true
}

# The first Linux process takes these files, the second every other one: the SSH rig's hosts, the build scripts'
# demos and the scheduled runner, whose tests each start their own processes (about half the Linux run's time);
# the second keeps the files that share one set of finished runs (Get-FinishedRun) together.
$script:PesterFirstPart = 'tests/Remoting,tests/Build,tests/Module/RunnerScript.Tests.ps1,tests/Module/Capacity.Tests.ps1,tests/Module/Calculator.Tests.ps1,tests/Module/DscResource.Tests.ps1'

function Start-PesterSuites($WindowsHostPublish) {
    # The module's Pester suites, begun while the xUnit suites run: under Wine first (the longest, CI's critical path),
    # then in a new process of this PowerShell, two processes split by file. The Linux runs spend most of their time
    # waiting on timed runs and remote hosts, the xUnit rigs and Wine most of theirs on the CPU, so together they take
    # little longer than the longest, the Wine run. Each runner prints its counts as its last line,
    # "Pester[ (Windows under Wine)]: N passed, N failed, N skipped", every skip listed above it with its reason.
    $null = New-Item -ItemType Directory -Force -Path $script:Results
    $started = @()
    if ((Test-SuiteSelected 'pester-windows') -and (Test-WindowsHost $WindowsHostPublish)) {
        Write-Step 'Pester (Windows under Wine): the module in Windows PowerShell 7 against bin/win-x64 (log: out/test-results/pester-windows.log)'
        $limit = '2400'
        if ($env:WINE_PESTER_LIMIT) { $limit = $env:WINE_PESTER_LIMIT }
        $wineRunner = Join-Path $script:Root 'tests/Invoke-WindowsTests.sh'
        # At a lower disk priority: the Linux runs' verdicts stand on real latencies, while the page cache serves
        # every I/O under Wine, whose verdicts mean nothing (docs/windows.md). Not at a lower CPU priority: it is
        # the longest.
        if (Get-Command ionice -ErrorAction SilentlyContinue) { $file = 'ionice'; $arguments = @('-c', '2', '-n', '7', $wineRunner, $limit) }
        else { $file = $wineRunner; $arguments = @($limit) }
        $started += Start-LoggedSuite 'pester-windows' 'Pester (Windows under Wine)' 'Pester (Windows under Wine)' $file $arguments
    }
    $shell = @(Get-PowerShellCommand)
    $runner = Join-Path $script:Root 'tests/Invoke-ModuleTests.ps1'
    $common = @($shell | Select-Object -Skip 1) + @('-NoProfile', '-NonInteractive', '-File', $runner)
    $parts = @(
        @{ Log = 'pester-1'; Label = 'Pester (part 1)'; Arguments = @('-Path', $script:PesterFirstPart) },
        @{ Log = 'pester-2'; Label = 'Pester (part 2)'; Arguments = @('-ExcludePath', $script:PesterFirstPart) }
    ) | Where-Object { Test-SuiteSelected $_.Log }
    if (@($parts).Count -gt 0) {
        $edition = 'real pwsh'
        if ($PSVersionTable.PSEdition -eq 'Desktop') { $edition = 'Windows PowerShell' }
        Write-Step "Pester: the module in $edition, two processes (tests/Invoke-ModuleTests.ps1; logs: out/test-results/pester-1.log, pester-2.log)"
    }
    foreach ($part in $parts) {
        $started += Start-LoggedSuite $part.Log 'Pester' $part.Label $shell[0] ($common + $part.Arguments + @('-ResultName', $part.Log))
    }
    return $started
}

function Invoke-SyntaxQa {
    # Windows PowerShell 5.1 syntax of the PowerShell files (the DSC root module, the manifest, build.ps1, tools/,
    # the Pester suites): parsed with tree-sitter, since PowerShell 7 accepts syntax 5.1 does not.
    if (-not (Test-SuiteSelected 'syntax-qa')) { return }
    $qa = Join-Path $script:Root 'tests/QA/syntax'
    if (-not (Test-Path -LiteralPath (Join-Path $qa 'check.js'))) { return }
    if (-not (Get-Command node -ErrorAction SilentlyContinue)) { Add-NotRun 'syntax-QA' 'node not installed'; return }
    $ErrorActionPreference = 'Continue'
    $null = & npm ci --prefix $qa --no-audit --no-fund --silent 2>&1
    if ($LASTEXITCODE -ne 0) { Add-SuiteCount 0 1 'Syntax QA (npm ci failed)'; return }
    Write-Step 'Windows PowerShell 5.1 syntax QA (tree-sitter parser)'
    $lines = @(& node (Join-Path $qa 'check.js') $script:Root 2>&1 | ForEach-Object { "$_" })
    $lines | Where-Object { $_ -notmatch '^PASS ' } | ForEach-Object { Write-Host $_ }
    $summary = $lines | Where-Object { $_ -match '^(\d+) passed, (\d+) failed' } | Select-Object -Last 1
    if ($summary -and $summary -match '^(\d+) passed, (\d+) failed') { Add-SuiteCount ([int]$Matches[1]) ([int]$Matches[2]) 'Syntax QA' }
    else { Add-SuiteCount 0 1 'Syntax QA (no summary)' }
}

function Invoke-Test {
    # Build and Package (the suites install the package and run the installed copy), then at once the Pester suites
    # in processes of their own and the xUnit suites here, then each Pester log whole as it ends, the syntax QA and
    # the summary.
    Reset-TestSummary
    $windowsHost = Start-WindowsHostPublish
    try { Invoke-Build }
    catch { Write-Host $_.Exception.Message; $script:Summary.Failed = 1; Write-Host '0 passed, 1 failed'; return }
    if (Test-Path -LiteralPath $script:Results) { Remove-Item -Recurse -Force -LiteralPath $script:Results }
    if ($env:TEST_SUITES) { Write-Step "Only the suites TEST_SUITES names: $env:TEST_SUITES (of $($script:SuiteNames -join ', '))" }
    $pester = @()
    if ($script:SuiteNames[3..5] | Where-Object { Test-SuiteSelected $_ }) {
        $ready = $true
        try { Invoke-Bootstrap } catch { Write-Host $_.Exception.Message; Add-SuiteCount 0 1 'Pester (no pwsh or Pester)'; $ready = $false }
        if ($ready) {
            try { New-Package } catch { Add-SuiteCount 0 1 'Package (tools/Package.ps1 failed: the suites'' installed copy is missing)' }
            $pester = @(Start-PesterSuites $windowsHost)
        }
    }
    Invoke-XunitSuite 'tests/ExchStorageTest.Engine.Tests/ExchStorageTest.Engine.Tests.csproj' 'engine'
    Invoke-XunitSuite 'tests/ExchStorageTest.Commands.Tests/ExchStorageTest.Commands.Tests.csproj' 'module'
    Invoke-XunitSuite 'tests/ExchStorageTest.HelpCompiler.Tests/ExchStorageTest.HelpCompiler.Tests.csproj' 'help-compiler'
    foreach ($suite in $pester) { Complete-LoggedSuite $suite }
    Invoke-SyntaxQa
    $null = Write-TestSummary
}

function Invoke-BuildTask {
    # One task by name, its output on the console; returns the process's exit code (a failed task other than Test
    # throws).
    param([string] $Task, [string] $Configuration = 'Release', [string] $DemoPath, [string[]] $Arguments)
    $script:Configuration = $Configuration
    switch ($Task) {
        'Bootstrap' { Invoke-Bootstrap | Out-Host }
        'Build' { Invoke-Build | Out-Host }
        'Test' {
            Invoke-Test | Out-Host
            if ($script:Summary.Failed -gt 0) { return 1 }
        }
        'Analyze' { Invoke-Analyze | Out-Host }
        'Docs' { Invoke-Docs | Out-Host }
        'Demo' { Invoke-Demo $DemoPath | Out-Host }
        'Package' { Invoke-Package | Out-Host }
        'Bench' { Invoke-Bench $Arguments | Out-Host }
    }
    return 0
}

# The tasks; and the summary's readers, for the build's own tests.
Export-ModuleMember -Function Invoke-BuildTask, Get-TrxSuite, Get-PesterLogSuite
