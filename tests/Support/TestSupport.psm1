# What the module's Pester suites share: where the repository and the built module are, scratch folders
# on a real disk, the prerequisites a test can lack (with the reason the runner prints when it skips),
# engine processes under a process, runspaces with the module imported, stand-in programs, and the
# format views checked against real objects. Plain PowerShell that Windows PowerShell 5.1 can read.

Set-StrictMode -Version 2.0

$script:RepositoryRoot = (Resolve-Path -LiteralPath (Join-Path $PSScriptRoot '../..')).Path
$script:IsWindowsHost = [System.Environment]::OSVersion.Platform -eq [System.PlatformID]::Win32NT

function Get-RepositoryRoot { $script:RepositoryRoot }

function Get-ModuleManifest { Join-Path $script:RepositoryRoot 'ExchStorageTest.psd1' }

function Import-ExchStorageTest {
    # The module loads from one folder per process (the same DLL from two paths fails), as users import it.
    Import-Module -Name (Get-ModuleManifest) -Global -ErrorAction Stop
}

#region Prerequisites

# What a test can need that a machine may lack. A block or test that needs one says so twice: with the tag
# 'Needs:<Name>' (the runner prints the reason below for every test it skipped) and with
# -Skip:(Test-Missing <Name>). A skipped test without such a tag fails the run: no test skips silently.
$script:Prerequisites = [ordered]@{
    Linux          = @{ Reason = 'Linux only: systemd units, /proc and POSIX signals'; Test = { [System.Environment]::OSVersion.Platform -eq [System.PlatformID]::Unix -and (Test-Path -LiteralPath '/proc/self/stat') } }
    Unix           = @{ Reason = 'the stand-in programs are shell scripts (not on Windows)'; Test = { -not $script:IsWindowsHost } }
    Windows        = @{ Reason = 'Windows only: Windows PowerShell 5.1, IOCP on NTFS, Windows path forms'; Test = { $script:IsWindowsHost } }
    Root           = @{ Reason = 'needs root on Linux (bind mounts)'; Test = { -not $script:IsWindowsHost -and "$(& id -u)" -eq '0' } }
    Terminal       = @{ Reason = 'needs tmux (a terminal to type Ctrl+C into)'; Test = { -not $script:IsWindowsHost -and [bool](Get-Command -Name tmux -CommandType Application -ErrorAction SilentlyContinue) } }
    PowerShell7    = @{ Reason = 'needs PowerShell 7 (System.Reflection.Metadata is not part of Windows PowerShell 5.1)'; Test = { $PSVersionTable.PSEdition -eq 'Core' } }
    # Test-WSMan throws, even with -ErrorAction SilentlyContinue, where the WSMan client's COM class is not registered
    # (Wine: REGDB_E_CLASSNOTREG): caught, so discovery goes on, and its message becomes the reason.
    WinRM          = @{ Reason = { 'needs WinRM enabled on this Windows machine (Test-WSMan localhost' + $(if ($script:WinRmProblem) { ': ' + $script:WinRmProblem }) + ')' }
                        Test   = { $script:IsWindowsHost -and (Test-WinRm) } }
    # What real Windows and Linux both run, but the Wine run leaves to them: a combination whose parts Wine already runs
    # apart, too long for the CI's critical path, which the Wine run is.
    NotWine        = @{ Reason = 'run on Linux and real Windows: under Wine its parts run apart, and the whole would lengthen the CI''s critical path (the Wine run)'
                        Test   = { -not ($script:IsWindowsHost -and (Test-Path -LiteralPath 'HKLM:\Software\Wine')) } }
    TaskScheduler  = @{ Reason = 'needs the Windows Task Scheduler (the ScheduledTasks module of Windows 8 / Server 2012 and later; Wine has none)'
                        Test   = { $script:IsWindowsHost -and [bool](Get-Module -ListAvailable -Name ScheduledTasks) } }
    # The two loopback sshd of tests/Remoting; the rig names what it lacks.
    SshRig         = @{ Reason = { Import-Module -Name (Join-Path $PSScriptRoot '../Remoting/SshRig.psm1'); Get-SshRigSkipReason }
                        Test   = { Import-Module -Name (Join-Path $PSScriptRoot '../Remoting/SshRig.psm1'); -not (Get-SshRigSkipReason) } }
}

$script:WinRmProblem = $null
function Test-WinRm {
    # Whether WinRM answers on this machine; why not in $script:WinRmProblem.
    try {
        $answer = Test-WSMan -ComputerName localhost -ErrorAction Stop
        return [bool]$answer
    }
    catch {
        $script:WinRmProblem = $_.Exception.Message
        return $false
    }
}

function Test-Missing {
    # True when the named prerequisite is missing here: for -Skip:(Test-Missing Root).
    param([Parameter(Mandatory)][string] $Name)
    if (-not $script:Prerequisites.Contains($Name)) { throw "Unknown prerequisite '$Name' (known: $($script:Prerequisites.Keys -join ', '))." }
    -not (& $script:Prerequisites[$Name].Test)
}

function Get-SkipReason {
    # Why a test with these tags was skipped: the reasons of its missing 'Needs:' prerequisites, or $null.
    param([string[]] $Tag)
    $reasons = @(foreach ($t in $Tag) {
            if ($t -match '^Needs:(.+)$' -and $script:Prerequisites.Contains($Matches[1]) -and (Test-Missing $Matches[1])) {
                $reason = $script:Prerequisites[$Matches[1]].Reason
                if ($reason -is [scriptblock]) { & $reason } else { $reason }
            }
        })
    if ($reasons.Count -eq 0) { return $null }
    $reasons -join '; '
}

#endregion

#region Scratch folders

function New-ScratchFolder {
    # A new folder on a real disk for one test (direct I/O needs a block-backed file system, so /var/tmp
    # rather than a tmpfs /tmp). Remove it with Remove-ScratchFolder.
    param([string] $Name = 'ps')
    $root = [System.IO.Path]::GetTempPath()
    if (-not $script:IsWindowsHost -and (Test-Path -LiteralPath '/var/tmp')) { $root = '/var/tmp' }
    $path = Join-Path (Join-Path $root 'exst-pester') ($Name + '-' + [guid]::NewGuid().ToString('N').Substring(0, 8))
    (New-Item -ItemType Directory -Path $path -Force).FullName
}

function Remove-ScratchFolder {
    param([string[]] $Path)
    foreach ($p in $Path) {
        if ($p -and (Test-Path -LiteralPath $p)) { Remove-Item -LiteralPath $p -Recurse -Force -ErrorAction SilentlyContinue }
    }
}

$script:PackageScratch = $null
$script:PSResourceGetData = $null
function Install-ModulePackage {
    # The module as an admin installs it (docs/install.md): the build's package saved into an empty module path by
    # PSResourceGet (Save-ModulePackage), once a process, removed by Remove-ModulePackage when the runner ends. Returns
    # the installed module's folder (<module path>/ExchStorageTest/<version>); Get-PackageImportCommand puts its module
    # path on PSModulePath. On Linux it is imported once in a new PowerShell, the admin's first step, which gives the
    # engine and JetstressCmd back the execute bits the package cannot carry.
    if ($script:PackageScratch) { return (Get-ChildItem -Directory -LiteralPath (Join-Path $script:PackageScratch 'Modules/ExchStorageTest'))[0].FullName }
    $scratch = New-ScratchFolder 'package'
    $installed = Save-ModulePackage -Path (Join-Path $scratch 'Modules')
    $script:PackageScratch = $scratch
    if (-not $script:IsWindowsHost) {
        $import = Invoke-PowerShellProcess -Command (Get-PackageImportCommand 'Import-Module ExchStorageTest -ErrorAction Stop')
        if ($import.ExitCode -ne 0) { throw "The installed package does not import: $($import.Errors -join ' ')" }
    }
    $installed
}

function Get-ModulePackagePath {
    # The build's package: out/package/ExchStorageTest.<version>.nupkg (tools/Package.ps1; build.sh Test makes it).
    $version = (Import-PowerShellDataFile (Get-ModuleManifest)).ModuleVersion
    $nupkg = Join-Path $script:RepositoryRoot "out/package/ExchStorageTest.$version.nupkg"
    if (-not (Test-Path -LiteralPath $nupkg)) { throw "There is no package at ${nupkg}: make it with tools/Package.ps1 (build.sh Test does)." }
    $nupkg
}

function Save-ModulePackage {
    # Packages (default: the build's) published to a folder repository of their own and saved from it with
    # PSResourceGet into the module path $Path, as Save-PSResource does for an offline server; returns the folder of
    # the newest version saved.
    param([Parameter(Mandatory)][string] $Path, [string[]] $Nupkg = @(Get-ModulePackagePath))
    $scratch = New-ScratchFolder 'feed'
    $null = New-Item -ItemType Directory -Force -Path $Path
    # PSResourceGet keeps its repositories in the user's data folder: on Linux this process's own (XDG_DATA_HOME when
    # PSResourceGet first opens its store, which it then keeps for the process), so that the suites' two Linux processes
    # never write one file at once; Remove-ModulePackage removes it. It must exist: .NET answers "" for a missing one,
    # and PSResourceGet would write into the current folder. Under Wine the prefix is the run's own.
    $data = $env:XDG_DATA_HOME
    if (-not $script:IsWindowsHost) {
        if (-not $script:PSResourceGetData) { $script:PSResourceGetData = New-ScratchFolder 'psresourceget' }
        $env:XDG_DATA_HOME = $script:PSResourceGetData
    }
    $repository = "ExchStorageTest-tests-$PID"
    try {
        Import-Module -Name Microsoft.PowerShell.PSResourceGet -ErrorAction Stop
        Register-PSResourceRepository -Name $repository -Uri $scratch -Trusted
        foreach ($file in $Nupkg) {
            Publish-PSResource -NupkgPath $file -Repository $repository
            # ExchStorageTest.<version>.nupkg
            $version = [System.IO.Path]::GetFileNameWithoutExtension($file).Substring('ExchStorageTest.'.Length)
            Save-PSResource -Name ExchStorageTest -Version $version -Repository $repository -Path $Path -TrustRepository
        }
    }
    finally {
        Unregister-PSResourceRepository -Name $repository -ErrorAction SilentlyContinue
        $env:XDG_DATA_HOME = $data
        Remove-ScratchFolder $scratch
    }
    $newest = @(Get-ChildItem -Directory -LiteralPath (Join-Path $Path 'ExchStorageTest') | Sort-Object { [version]$_.Name } -Descending)[0]
    $newest.FullName
}

function Get-PackageImportCommand {
    # A command for a new PowerShell that finds the installed package by name (Install-ModulePackage's module path
    # first on PSModulePath, as an install's scope is), then runs $Command.
    param([Parameter(Mandatory)][string] $Command)
    $modules = Join-Path $script:PackageScratch 'Modules'
    "`$env:PSModulePath = '$($modules -replace "'", "''")' + [System.IO.Path]::PathSeparator + `$env:PSModulePath; $Command"
}

function Remove-ModulePackage {
    Remove-ScratchFolder $script:PackageScratch, $script:PSResourceGetData
    $script:PackageScratch = $null; $script:PSResourceGetData = $null
}

function Get-FolderEntry {
    # Every file and folder under a folder, relative, sorted ordinally: "nothing was written" is an empty list.
    param([Parameter(Mandatory)][string] $Path)
    $base = (Resolve-Path -LiteralPath $Path).Path.TrimEnd('/', '\')
    [string[]] $entries = @(Get-ChildItem -LiteralPath $base -Recurse -Force | ForEach-Object { $_.FullName.Substring($base.Length + 1) })
    [Array]::Sort($entries, [System.StringComparer]::Ordinal)
    $entries
}

function Get-RunReportSet {
    # A results folder after one run that asked for no report files: the run's results documents (one expected), the
    # reports it writes beside its results that are missing, and every other file there. A second copy would be
    # "<stem>_2.<extension>" (docs/files.md); the stem's own last number is the run's start second, which may be 2,
    # so the others are told by the stem, not by a pattern.
    param([Parameter(Mandatory)][string] $Path)
    $documents = @(Get-ChildItem -LiteralPath $Path -Filter '*.json')
    $missing = @(); $others = @()
    if ($documents.Count -eq 1) {
        $stem = $documents[0].BaseName
        $missing = @('.txt', '.html', '.xml', '.timeseries.csv', '.perfmon.csv', '.esrp.txt' |
            Where-Object { -not (Test-Path -LiteralPath (Join-Path $Path ($stem + $_))) } | ForEach-Object { $stem + $_ })
        $others = @(Get-ChildItem -LiteralPath $Path | Where-Object { -not $_.Name.StartsWith($stem + '.') } | ForEach-Object Name)
    }
    [pscustomobject]@{ Documents = $documents; Missing = $missing; Others = $others }
}

#endregion

#region Run fixtures

function New-RunFixture {
    # What a test of a run starts from: a scratch folder on a real disk, and the small profile the run tests share
    # (20 mailboxes of 20 MB, 2 databases at 0.5 IOPS each unless asked otherwise) with its databases in that
    # folder. Profile is New-MailboxProfile's command line, for a runspace or a console of its own; NewProfile()
    # runs it here; Remove() deletes the folder (in AfterEach).
    param([string] $Name = 'run', [double] $IopsPerMailbox = 0.5, [int] $DatabaseCount = 2)
    $folder = New-ScratchFolder $Name
    $fixture = [pscustomobject]@{
        Folder  = $folder
        Profile = "New-MailboxProfile -MailboxCount 20 -IopsPerMailbox $IopsPerMailbox -MailboxSizeMB 20 -DatabaseCount $DatabaseCount -Path '$($folder -replace "'", "''")'"
    }
    $fixture | Add-Member -MemberType ScriptMethod -Name NewProfile -Value { & ([scriptblock]::Create($this.Profile)) }
    $fixture | Add-Member -MemberType ScriptMethod -Name Remove -Value { Remove-ScratchFolder $this.Folder }
    $fixture
}

#endregion

#region Finished runs

$script:FinishedRuns = $null

function Get-FinishedRun {
    # Two short real runs of one small profile in one scratch folder, made once per process for the tests that
    # read what a run leaves behind (Get-TestReport, Test-DatabaseChecksum): the first creates the databases,
    # the second attaches them with another load, so the Results folder holds two runs of one host. Tests copy
    # what they change. Remove-FinishedRun (the runner calls it) deletes them.
    if ($null -eq $script:FinishedRuns) {
        $fixture = New-RunFixture 'runs'
        $folder = $fixture.Folder
        $first = $fixture.NewProfile() | Invoke-StorageTest -Duration 00:00:15 -SampleIntervalSeconds 5 -Force -ErrorAction Stop
        $second = $fixture.NewProfile() |
            Invoke-StorageTest -DatabaseSource Attach -ThreadCount 1 -Duration 00:00:15 -SampleIntervalSeconds 5 -Force -ErrorAction Stop
        if (@($first).Count -ne 1 -or @($second).Count -ne 1) { throw "The runs for the report and checksum tests returned $(@($first).Count) and $(@($second).Count) results." }
        $script:FinishedRuns = [pscustomobject]@{
            Folder        = $folder
            ResultsFolder = Join-Path $folder 'Results'
            First         = $first
            Second        = $second
        }
    }
    $script:FinishedRuns
}

function Remove-FinishedRun {
    if ($null -ne $script:FinishedRuns) {
        Remove-ScratchFolder $script:FinishedRuns.Folder
        $script:FinishedRuns = $null
    }
}

#endregion

#region Processes

function Get-ParentProcessId {
    param([int] $Id)
    if ($script:IsWindowsHost) {
        # PowerShell 7's Process.Parent (NtQueryInformationProcess) needs no CIM, which Wine lacks; 5.1 has only CIM.
        if ($PSVersionTable.PSEdition -eq 'Core') {
            $p = Get-Process -Id $Id -ErrorAction SilentlyContinue
            if ($p -and $p.Parent) { return [int]$p.Parent.Id }
            return -1
        }
        $p = Get-CimInstance -ClassName Win32_Process -Filter "ProcessId = $Id" -ErrorAction SilentlyContinue
        if ($p) { return [int]$p.ParentProcessId }
        return -1
    }
    try {
        # /proc/<pid>/stat: "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ')'.
        $stat = [System.IO.File]::ReadAllText("/proc/$Id/stat")
        return [int]($stat.Substring($stat.LastIndexOf(')') + 2).Split(' ')[1])
    }
    catch {
        return -1
    }
}

function Get-EngineProcessId {
    # The native engines (exchstoragetest-engine) descending from a process, so a test can prove none outlived
    # its command without counting engines that other test processes on the machine run.
    param([int] $Under = $PID)
    Get-Process -Name 'exchstoragetest-engine' -ErrorAction SilentlyContinue | Where-Object {
            $id = $_.Id
            for ($depth = 0; $depth -lt 32 -and $id -gt 1; $depth++) {
                $id = Get-ParentProcessId $id
                if ($id -eq $Under) { return $true }
                if ($id -le 0) { return $false }
            }
            $false
        } | ForEach-Object { $_.Id }
}

function Suspend-TestProcess {
    # Freezes a process as a debugger or an OS hang would: it keeps its pipes open and says nothing. Unix: SIGSTOP;
    # Windows: NtSuspendProcess (every thread suspended).
    param([Parameter(Mandatory)][int] $Id)
    if ($script:IsWindowsHost) {
        if (-not ('ExchStorageTestSupport.ProcessFreezer' -as [type])) {
            Add-Type -Namespace ExchStorageTestSupport -Name ProcessFreezer -MemberDefinition @'
[System.Runtime.InteropServices.DllImport("ntdll.dll")] public static extern int NtSuspendProcess(System.IntPtr process);
'@
        }
        $process = [System.Diagnostics.Process]::GetProcessById($Id)
        try {
            $status = [ExchStorageTestSupport.ProcessFreezer]::NtSuspendProcess($process.Handle)
            if ($status -ne 0) { throw ("NtSuspendProcess({0}) failed: NTSTATUS 0x{1:X8}" -f $Id, $status) }
        }
        finally { $process.Dispose() }
        return
    }
    & (Get-Command -Name kill -CommandType Application | Select-Object -First 1).Source -STOP $Id
    if ($LASTEXITCODE -ne 0) { throw "kill -STOP $Id failed (exit code $LASTEXITCODE)." }
}

function Stop-TestProcess {
    # Kills a process without warning (SIGKILL on Unix, TerminateProcess on Windows): a crash, as far as its parent can tell.
    param([Parameter(Mandatory)][int] $Id)
    $process = [System.Diagnostics.Process]::GetProcessById($Id)
    try { $process.Kill() } finally { $process.Dispose() }
}

function Get-PowerShellPath {
    # The executable of the PowerShell running the tests, as a scheduler or a shell would start it.
    if ($PSVersionTable.PSEdition -eq 'Desktop') { return Join-Path $PSHOME 'powershell.exe' }
    foreach ($name in @('pwsh', 'pwsh.exe')) {
        $candidate = Join-Path $PSHOME $name
        if (Test-Path -LiteralPath $candidate) { return $candidate }
    }
    throw "No pwsh executable in '$PSHOME'."
}

function Invoke-Process {
    # Runs a program to its end with both pipes read as they fill (a full pipe would block it) and returns
    # its exit code and its standard output and error as lines. The environment is this process's.
    param(
        [Parameter(Mandatory)][string] $FilePath,
        [string[]] $ArgumentList = @(),
        [string] $WorkingDirectory = (Get-Location).ProviderPath,
        [timespan] $Timeout = [timespan]::FromMinutes(10)
    )
    $psi = New-Object System.Diagnostics.ProcessStartInfo
    $psi.FileName = $FilePath
    # One quoted string (ProcessStartInfo.ArgumentList is not in .NET Framework): each argument in double
    # quotes, its own quotes and the backslashes before them doubled as the C runtime reads them.
    $psi.Arguments = ($ArgumentList | ForEach-Object { '"' + ($_ -replace '(\\*)"', '$1$1\"' -replace '(\\+)$', '$1$1') + '"' }) -join ' '
    $psi.WorkingDirectory = $WorkingDirectory
    $psi.UseShellExecute = $false
    $psi.RedirectStandardInput = $true
    $psi.RedirectStandardOutput = $true
    $psi.RedirectStandardError = $true
    $process = [System.Diagnostics.Process]::Start($psi)
    try {
        $process.StandardInput.Close()
        $stdout = $process.StandardOutput.ReadToEndAsync()
        $stderr = $process.StandardError.ReadToEndAsync()
        if (-not $process.WaitForExit([int]$Timeout.TotalMilliseconds)) {
            $process.Kill()
            throw "'$FilePath $($psi.Arguments)' did not finish within $Timeout."
        }
        $process.WaitForExit()
        [pscustomobject]@{
            ExitCode = $process.ExitCode
            Output   = @($stdout.Result -split '\r?\n' | Where-Object { $_ -ne '' })
            Errors   = @($stderr.Result -split '\r?\n' | Where-Object { $_ -ne '' })
        }
    }
    finally {
        $process.Dispose()
    }
}

function Invoke-PowerShellProcess {
    # Runs a command in a new PowerShell process of this edition (as an admin's console would), without profile;
    # with -ImportModule, after importing the built module by its manifest.
    param(
        [Parameter(Mandatory)][string] $Command,
        [string] $WorkingDirectory = (Get-Location).ProviderPath,
        [timespan] $Timeout = [timespan]::FromMinutes(10),
        [switch] $ImportModule
    )
    if ($ImportModule) { $Command = "Import-Module '$((Get-ModuleManifest) -replace "'", "''")'; $Command" }
    Invoke-Process -FilePath (Get-PowerShellPath) -ArgumentList @('-NoProfile', '-NonInteractive', '-Command', $Command) -WorkingDirectory $WorkingDirectory -Timeout $Timeout
}

#endregion

#region Runspaces

function Get-WhatIfText {
    # What a command prints with -WhatIf, in a console of its own with the module imported: the What if text goes to
    # the host, not to a stream a test could collect. The command must exit 0 without errors.
    param([Parameter(Mandatory)][string] $Command)
    $run = Invoke-PowerShellProcess -ImportModule "$Command -WhatIf"
    if ($run.ExitCode -ne 0 -or $run.Errors.Count -gt 0) { throw "'$Command -WhatIf' exited $($run.ExitCode): $($run.Errors -join ' ')" }
    $run.Output -join "`n"
}

function New-ModuleRunspace {
    # A runspace of this process with the module imported: for a pipeline that is stopped part-way, for a
    # second "host" beside the test's own session, and for the streams only the PowerShell API collects
    # (progress records).
    $runspace = [System.Management.Automation.Runspaces.RunspaceFactory]::CreateRunspace([System.Management.Automation.Runspaces.InitialSessionState]::CreateDefault2())
    $runspace.Open()
    $ps = [System.Management.Automation.PowerShell]::Create()
    try {
        $ps.Runspace = $runspace
        $null = $ps.AddCommand('Import-Module').AddParameter('Name', (Get-ModuleManifest)).AddParameter('ErrorAction', 'Stop').Invoke()
    }
    finally {
        $ps.Dispose()
    }
    $runspace
}

function Start-InRunspace {
    # Starts a script in a runspace without waiting; Receive-FromRunspace collects what it produced.
    param(
        [Parameter(Mandatory)][System.Management.Automation.Runspaces.Runspace] $Runspace,
        [Parameter(Mandatory)][string] $Script,
        [object[]] $ArgumentList = @()
    )
    $ps = [System.Management.Automation.PowerShell]::Create()
    $ps.Runspace = $Runspace
    $null = $ps.AddScript($Script)
    foreach ($a in $ArgumentList) { $null = $ps.AddArgument($a) }
    [pscustomobject]@{ PowerShell = $ps; Handle = $ps.BeginInvoke() }
}

function Receive-FromRunspace {
    # Waits for a started script and returns what it produced on each stream; Exception is the terminating
    # error (a stop is a PipelineStoppedException), Error its record or the first non-terminating one.
    param([Parameter(Mandatory)] $Started)
    $ps = $Started.PowerShell
    $output = @()
    $exception = $null
    try {
        $output = @($ps.EndInvoke($Started.Handle))
    }
    catch {
        $exception = $_.Exception
        while ($exception -is [System.Management.Automation.MethodInvocationException] -and $exception.InnerException) { $exception = $exception.InnerException }
    }
    $errors = @($ps.Streams.Error)
    $record = $null
    if ($exception -is [System.Management.Automation.IContainsErrorRecord]) { $record = $exception.ErrorRecord }
    elseif ($errors.Count -gt 0) { $record = $errors[0] }
    $result = [pscustomobject]@{
        Output      = $output
        Errors      = $errors
        Warnings    = @($ps.Streams.Warning)
        Verbose     = @($ps.Streams.Verbose)
        Progress    = @($ps.Streams.Progress)
        Information = @($ps.Streams.Information)
        Exception   = $exception
        Error       = $record
    }
    $ps.Dispose()
    $result
}

function Invoke-InRunspace {
    # Runs a script in a runspace and returns what it produced on each stream (see Receive-FromRunspace).
    param(
        [Parameter(Mandatory)][System.Management.Automation.Runspaces.Runspace] $Runspace,
        [Parameter(Mandatory)][string] $Script,
        [object[]] $ArgumentList = @()
    )
    Receive-FromRunspace (Start-InRunspace -Runspace $Runspace -Script $Script -ArgumentList $ArgumentList)
}

function Invoke-InModuleRunspace {
    # Runs a script in a new runspace with the module imported (New-ModuleRunspace) and returns what it produced on
    # each stream (Receive-FromRunspace); one that has not finished within -Timeout is stopped and fails the test
    # instead of holding the suite.
    param(
        [Parameter(Mandatory)][string] $Script,
        [object[]] $ArgumentList = @(),
        [timespan] $Timeout = [timespan]::FromMinutes(5)
    )
    $runspace = New-ModuleRunspace
    try {
        $started = Start-InRunspace -Runspace $runspace -Script $Script -ArgumentList $ArgumentList
        if (-not $started.Handle.AsyncWaitHandle.WaitOne($Timeout)) {
            $started.PowerShell.Stop()
            $started.PowerShell.Dispose()
            throw "The script did not finish within $Timeout."
        }
        Receive-FromRunspace $started
    }
    finally {
        $runspace.Dispose()
    }
}

function Wait-Until {
    # Polls a condition until it holds or the timeout passes; returns whether it held.
    param([Parameter(Mandatory)][scriptblock] $Condition, [timespan] $Timeout = [timespan]::FromMinutes(2), [int] $IntervalMilliseconds = 200)
    $deadline = [DateTime]::UtcNow + $Timeout
    while ([DateTime]::UtcNow -lt $deadline) {
        if (& $Condition) { return $true }
        Start-Sleep -Milliseconds $IntervalMilliseconds
    }
    [bool](& $Condition)
}

#endregion

#region Stand-in programs

function Use-StandInSystemctl {
    # Stand-ins first on PATH for one test: a systemctl that records its arguments (one call a line) and exits
    # with a chosen code, and optionally a pwsh. systemd is not PID 1 on a build host, and a test must never
    # touch the real /etc/systemd. Undo with Restore-Path.
    param(
        [Parameter(Mandatory)][string] $Folder,
        [int] $ExitCode = 0,
        # Only calls with this subcommand (enable, disable ...) exit with -ExitCode; the others succeed.
        [string] $FailOn,
        [switch] $WithoutPwsh,
        [switch] $AloneOnPath
    )
    $null = New-Item -ItemType Directory -Path $Folder -Force
    $log = Join-Path $Folder 'systemctl.log'
    $body = "#!/bin/sh`necho `"`$*`" >> '$log'`n"
    if ($FailOn) { $body += "if [ `"`$1`" != '$FailOn' ]; then exit 0; fi`n" }
    if ($ExitCode -eq 0) { $body += "exit 0`n" }
    else { $body += "echo `"Failed to enable unit: Unit file not found.`" >&2`nexit $ExitCode`n" }
    New-ExecutableScript -Path (Join-Path $Folder 'systemctl') -Text $body
    $pwsh = $null
    if (-not $WithoutPwsh) {
        $pwsh = Join-Path $Folder 'pwsh'
        New-ExecutableScript -Path $pwsh -Text "#!/bin/sh`nexit 0`n"
    }
    $previous = $env:PATH
    if ($AloneOnPath) { $env:PATH = $Folder } else { $env:PATH = $Folder + [System.IO.Path]::PathSeparator + $previous }
    [pscustomobject]@{ Folder = $Folder; Log = $log; Pwsh = $pwsh; PreviousPath = $previous }
}

function Get-SystemctlCall {
    # The calls the stand-in systemctl received, in order.
    param([Parameter(Mandatory)] $StandIn)
    if (Test-Path -LiteralPath $StandIn.Log) { Get-Content -LiteralPath $StandIn.Log }
}

function Restore-Path {
    param([Parameter(Mandatory)] $StandIn)
    $env:PATH = $StandIn.PreviousPath
}

function New-ExecutableScript {
    param([Parameter(Mandatory)][string] $Path, [Parameter(Mandatory)][string] $Text)
    [System.IO.File]::WriteAllText($Path, $Text)
    if (-not $script:IsWindowsHost) { & chmod 755 $Path }
}

#endregion

#region Format views

function Get-ViewedProperty {
    # The properties the module's format views and default display set name for a type.
    param([Parameter(Mandatory)][string] $TypeName)
    $names = New-Object System.Collections.Generic.List[string]
    [xml] $format = Get-Content -Raw -LiteralPath (Join-Path $script:RepositoryRoot 'src/ExchStorageTest.Format.ps1xml')
    foreach ($view in $format.SelectNodes('//View')) {
        if (-not @($view.SelectNodes('ViewSelectedBy/TypeName') | Where-Object { $_.InnerText -eq $TypeName })) { continue }
        foreach ($p in $view.SelectNodes('.//PropertyName')) { $names.Add($p.InnerText) }
        foreach ($s in $view.SelectNodes('.//ScriptBlock')) {
            foreach ($m in [regex]::Matches($s.InnerText, '\$_\.(\w+)')) { $names.Add($m.Groups[1].Value) }
        }
    }
    [xml] $types = Get-Content -Raw -LiteralPath (Join-Path $script:RepositoryRoot 'src/ExchStorageTest.Types.ps1xml')
    foreach ($type in $types.SelectNodes('//Type')) {
        if ($type.Name -ne $TypeName) { continue }
        foreach ($n in $type.SelectNodes('.//ReferencedProperties/Name')) { $names.Add($n.InnerText) }
    }
    $names | Select-Object -Unique
}

function Get-MissingViewedProperty {
    # The properties an object's views name that the object lacks (a view naming one shows an empty column).
    param([Parameter(Mandatory)] $InputObject)
    $typeName = $InputObject.PSObject.TypeNames[0]
    $named = @(Get-ViewedProperty -TypeName $typeName)
    if ($named.Count -eq 0) { return "(no view names any property of $typeName)" }
    $named | Where-Object { -not $InputObject.PSObject.Properties[$_] }
}

#endregion

# ExchangeDsc's verdict, Test-JetstressSuccessful (dsccommunity/ExchangeDsc @ d8010f4cfa4412c5fcf7696103a0f02d3c45ca36,
# source/DSCResources/DSC_ExchJetstress/DSC_ExchJetstress.psm1): the newest "$Type*.html" in JetstressPath; the line
# after each label cell, between its first '>' and its last '<'; Pass, and [Decimal]::Parse(achieved) >= MinAchievedIOPS
# in the host's culture (given here, so the rule can be read under several). As there, an empty Achieved value is not
# parsed and does not meet the minimum, and any other value is parsed whatever the verdict (a word would throw).
function Test-ExchangeDscVerdict([string] $JetstressPath, [string] $Type, [decimal] $MinAchievedIOPS, [cultureinfo] $Culture) {
    $outputFiles = @(Get-ChildItem -LiteralPath $JetstressPath | Where-Object { $_.Name -like "$($Type)*.html" } | Sort-Object -Property LastWriteTime -Descending)
    if ($outputFiles.Count -eq 0) { return [pscustomobject]@{ File = $null; Result = $null; Achieved = $null; Passed = $false } }
    $content = @(Get-Content -LiteralPath $outputFiles[0].FullName)
    $overall = $null; $achieved = $null
    for ($i = 0; $i -lt $content.Length; $i++) {
        foreach ($label in 'Overall Test Result', 'Achieved Transactional I/O per Second') {
            if ($content[$i].Contains("<td class=`"grid_row_header`">$label</td>")) {
                $start = $content[$i + 1].IndexOf('>') + 1
                $value = $content[$i + 1].Substring($start, $content[$i + 1].LastIndexOf('<') - $start)
                if ($label -eq 'Overall Test Result') { $overall = $value } else { $achieved = $value }
            }
        }
    }
    $achievedMet = -not [string]::IsNullOrEmpty($achieved) -and ([decimal]::Parse($achieved, $Culture) -ge $MinAchievedIOPS)
    $passed = ($overall -like 'Pass') -and $achievedMet
    [pscustomobject]@{ File = $outputFiles[0]; Result = $overall; Achieved = $achieved; Passed = $passed }
}

Export-ModuleMember -Function *-*
