# What Windows does differently, made visible: every test here runs on both hosts (Linux, and Windows - under Wine in
# CI, docs/windows.md) and states what each OS does with the same input: which engine runs, drive letters, long and
# \\?\ paths, file names that differ only in case, the text reports' line ends, the default results folder, UNC paths.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $OnWindows = [System.Environment]::OSVersion.Platform -eq [System.PlatformID]::Win32NT

    function Invoke-ShortRun {
        # A five-second run of a small profile; returns the result (or the terminating error) and the warnings.
        param([Parameter(Mandatory)][string] $Path, [string] $LogPath)
        $profileArgs = @{ MailboxCount = 10; IopsPerMailbox = 0.2; MailboxSizeMB = 10; DatabaseCount = 1; Path = $Path }
        if ($LogPath) { $profileArgs.LogPath = $LogPath }
        $caught = $null
        $records = @(try { New-MailboxProfile @profileArgs | Invoke-StorageTest -Duration 00:00:05 -Warmup 0 -ThreadCount 1 -SampleIntervalSeconds 1 -Force 3>&1 } catch { $caught = $_ })
        [pscustomobject]@{
            Result   = @($records | Where-Object { $_ -isnot [System.Management.Automation.WarningRecord] })[0]
            Warnings = @($records | Where-Object { $_ -is [System.Management.Automation.WarningRecord] } | ForEach-Object { $_.Message })
            Error    = $caught
        }
    }

    function Get-FreeDriveLetter {
        # A drive letter this machine does not have (on Linux any: there are none).
        $used = @(Get-PSDrive -PSProvider FileSystem | ForEach-Object { $_.Name })
        foreach ($letter in 'Q', 'R', 'S', 'T', 'U', 'V', 'W', 'X', 'Y') { if ($letter -notin $used) { return $letter } }
        throw 'No free drive letter from Q to Y.'
    }
}

Describe 'What Windows does differently' {
    BeforeEach { $Dir = New-ScratchFolder 'os' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'runs the engine of this OS: the win-x64 executable on IOCP on Windows, the linux-x64 one elsewhere' {
        $run = Get-FinishedRun
        $document = Get-Content -Raw -LiteralPath $run.First.ResultsPath | ConvertFrom-Json
        if ($OnWindows) {
            $document.environment.operatingSystem | Should -BeLike 'Microsoft Windows*'
            $document.environment.ioBackend | Should -Be 'iocp'
            $run.First.IoBackend | Should -Be 'iocp'
        }
        else {
            $document.environment.operatingSystem | Should -Not -BeLike '*Windows*'
            $document.environment.ioBackend | Should -Not -Be 'iocp'
        }
        $document.environment.directIo | Should -BeTrue
    }

    It 'keeps a drive letter this machine lacks as typed on Windows (a profile for another server), and cannot resolve it elsewhere' {
        $path = "$(Get-FreeDriveLetter):\Exchange\DB1"
        if ($OnWindows) {
            $profile = New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.2 -MailboxSizeMB 10 -Path $path
            @($profile.DatabasePaths) | Should -Be @($path)
            { $profile | Invoke-StorageTest -Force } | Should -Throw -ErrorId 'ExchStorageTest.PathNotFound,*'
        }
        else {
            { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.2 -MailboxSizeMB 10 -Path $path } | Should -Throw -ErrorId 'ExchStorageTest.PathNotResolvable,*'
        }
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }

    It 'runs on a database folder whose path is longer than the 260 characters of MAX_PATH' {
        $long = Join-Path (Join-Path $Dir ('L' * 125)) ('M' * 125)
        $null = New-Item -ItemType Directory -Path $long
        $long.Length | Should -BeGreaterThan 260
        $run = Invoke-ShortRun -Path $long
        $run.Error | Should -BeNullOrEmpty
        $run.Result.Completion | Should -Be 'Complete'
        Test-Path -LiteralPath (Join-Path (Join-Path $long 'DB1') 'ExchStorageTest001.edb') | Should -BeTrue
        Test-Path -LiteralPath $run.Result.ResultsPath | Should -BeTrue
    }

    It 'takes a \\?\ path on Windows, and names its volume without the prefix' -Tag 'Needs:Windows' -Skip:(Test-Missing Windows) {
        # Elsewhere \\?\ is no path prefix at all (a folder name with backslashes), so only Windows has this case.
        $run = Invoke-ShortRun -Path ('\\?\' + $Dir)
        $run.Error | Should -BeNullOrEmpty
        $run.Result.Completion | Should -Be 'Complete'
        Test-Path -LiteralPath (Join-Path (Join-Path $Dir 'DB1') 'ExchStorageTest001.edb') | Should -BeTrue
        # The disk counters name the volume as Windows does ("LogicalDisk(C:)"), read or not.
        $document = Get-Content -Raw -LiteralPath $run.Result.ResultsPath | ConvertFrom-Json
        @($document.hostCounters | Where-Object { $_.name -like '*\\?\*' }) | Should -BeNullOrEmpty
        @($run.Warnings | Where-Object { $_ -like '*LogicalDisk(\\?\*' }) | Should -BeNullOrEmpty
    }

    It 'takes a database folder and a log folder typed in two cases for one folder on Windows, for two elsewhere' {
        $db = (New-Item -ItemType Directory -Path (Join-Path $Dir 'CaseDB')).FullName
        $logs = Join-Path $Dir 'casedb'
        $run = Invoke-ShortRun -Path $db -LogPath $logs
        if ($OnWindows) {
            # One folder, so one run lock (a run that took its own lock twice would refuse itself as FolderInUse).
            $run.Error | Should -BeNullOrEmpty
            $run.Result.Completion | Should -Be 'Complete'
        }
        else {
            $run.Error.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.PathNotFound,*'
            $run.Error.Exception.Message | Should -BeLike "*$logs*"
        }
    }

    It 'writes the text reports with the line ends of this OS: CRLF on Windows, LF elsewhere' {
        $run = Get-FinishedRun
        $stem = [System.IO.Path]::ChangeExtension($run.First.ResultsPath, $null).TrimEnd('.')
        foreach ($file in "$stem.txt", "$stem.esrp.txt") {
            $text = [System.IO.File]::ReadAllText($file)
            $lines = ([regex]::Matches($text, "`n")).Count
            $lines | Should -BeGreaterThan 5
            if ($OnWindows) { ([regex]::Matches($text, "`r`n")).Count | Should -Be $lines -Because "$file is read in Notepad" }
            else { $text | Should -Not -Match "`r" -Because $file }
        }
    }

    It 'puts the results under the first database folder by default, joined with this OS''s separator' {
        $run = Get-FinishedRun
        [System.IO.Path]::GetDirectoryName($run.First.ResultsPath) | Should -Be ($run.Folder.TrimEnd('\', '/') + [System.IO.Path]::DirectorySeparatorChar + 'Results')
        if ($OnWindows) { $run.First.ResultsPath | Should -Match '^[A-Za-z]:\\' }
        else { $run.First.ResultsPath | Should -Match '^/' }
    }

    It 'reports a UNC run folder that cannot be reached on Windows, and refuses it as no path of this computer elsewhere' {
        $unc = '\\exst-no-such-server.invalid\share\run'
        $started = [System.IO.Directory]::GetCurrentDirectory()
        $before = @(Get-ChildItem -LiteralPath $started -Force | ForEach-Object { $_.Name })
        $caught = $null
        try { New-StorageTestRun -Path $unc -StartAtUtc ([DateTime]::UtcNow.AddHours(1)) -Force } catch { $caught = $_ }
        $caught | Should -Not -BeNullOrEmpty
        $caught.Exception.Message | Should -BeLike "*$unc*"
        if ($OnWindows) { $caught.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.PathNotWritable,*' }
        else {
            $caught.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.PathNotResolvable,*'
            # Not a folder named like the share under the process's directory.
            @(Get-ChildItem -LiteralPath $started -Force | ForEach-Object { $_.Name }) | Should -Be $before
        }
    }
}
