# Invoke-StorageTest -StartFile: hosts that cannot be remoted into, synchronised through a start file on a share.
# Two runspaces of this process stand in for two hosts; both have this machine's name, which is exactly the case
# the no-overwrite rule (<host>-<testId>.json) exists for.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $FullyQualified = ',ExchStorageTest.Commands.InvokeStorageTestCommand'
    $Profile = '$p = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 2 -Path $args[0]; '

    function New-SmallProfile([string] $Path) { New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 2 -Path $Path }
    function New-Folder([string] $Path) { (New-Item -ItemType Directory -Path $Path -Force).FullName }
    function Get-StartAt([string] $StartFile) {
        $text = [regex]::Match((Get-Content -Raw -LiteralPath $StartFile), '"startAtUtc":\s*"([^"]+)"').Groups[1].Value
        [DateTime]::Parse($text, [Globalization.CultureInfo]::InvariantCulture, 'AdjustToUniversal')
    }
}

Describe 'Invoke-StorageTest -StartFile' {
    BeforeEach { $Dir = New-ScratchFolder 'sfr' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'starts two hosts together from one start file, and they share their results without overwriting' {
        $run = New-Folder (Join-Path $Dir 'run')
        $startFile = Join-Path $run 'start.json'
        $script = $Profile + '$p | Invoke-StorageTest -StartFile $args[1] -StartAtUtc $args[2] -Duration 00:00:15 -Warmup 0 -ThreadCount 2 -SampleIntervalSeconds 5 -Force -Verbose'
        $hostA = New-ModuleRunspace
        $hostB = New-ModuleRunspace
        try {
            # Each proposes its own instant; whichever creates the file first sets it for both.
            $startedA = Start-InRunspace $hostA $script -ArgumentList (New-Folder (Join-Path $Dir 'a')), $startFile, ([DateTime]::UtcNow.AddSeconds(30))
            $startedB = Start-InRunspace $hostB $script -ArgumentList (New-Folder (Join-Path $Dir 'b')), $startFile, ([DateTime]::UtcNow.AddSeconds(45))
            # A host that never finishes fails the test instead of holding the suite.
            Wait-Until { $startedA.Handle.IsCompleted -and $startedB.Handle.IsCompleted } -Timeout ([timespan]::FromMinutes(5)) | Should -BeTrue
            $a = Receive-FromRunspace $startedA
            $b = Receive-FromRunspace $startedB
        }
        finally {
            $hostA.Dispose()
            $hostB.Dispose()
        }
        $a.Exception | Should -BeNullOrEmpty
        $b.Exception | Should -BeNullOrEmpty
        $a.Output.Count | Should -Be 1
        $b.Output.Count | Should -Be 1
        $resultA = $a.Output[0]
        $resultB = $b.Output[0]

        # One start file, written by one of them, and both measured from its instant.
        $startAt = Get-StartAt $startFile
        $resultA.StartAtUtc | Should -Be $startAt
        $resultB.StartAtUtc | Should -Be $startAt
        @($a.Verbose + $b.Verbose | Where-Object { $_.Message -like 'Created the start file*' }).Count | Should -Be 1
        foreach ($result in $resultA, $resultB) {
            $json = Get-Content -Raw -LiteralPath $result.ResultsPath
            $measuredFrom = [DateTime]::Parse([regex]::Match($json, '"collectionStartUtc":\s*"([^"]+)"').Groups[1].Value, [Globalization.CultureInfo]::InvariantCulture, 'AdjustToUniversal')
            $measuredFrom | Should -BeGreaterOrEqual $startAt
            ($measuredFrom - $startAt).TotalSeconds | Should -BeLessThan 5
            $json | Should -Match '"name":\s*"WaitingForStart"'
        }
        # The engine's wait shows as progress.
        @($a.Progress + $b.Progress | Where-Object { $_.CurrentOperation -eq 'WaitingForStart' }) | Should -Not -BeNullOrEmpty

        # Both results are on the share: <host>.json for the first, <host>-<testId>.json for the second, each a copy of its own.
        $machine = [Environment]::MachineName
        $shared = @(Get-ChildItem -LiteralPath (Join-Path $run 'results') | ForEach-Object { $_.Name } | Sort-Object Length)
        $shared.Count | Should -Be 2
        $shared[0] | Should -Be "$machine.json"
        $shared[1] | Should -BeIn @("$machine-$($resultA.TestId).json", "$machine-$($resultB.TestId).json")
        foreach ($result in $resultA, $resultB) {
            [Convert]::ToBase64String([System.IO.File]::ReadAllBytes($result.SharedResultsPath)) | Should -Be ([Convert]::ToBase64String([System.IO.File]::ReadAllBytes($result.ResultsPath)))
            $result.ComputerName | Should -Be $machine
        }

        # Get-TestReport on the run's results folder merges both: each recorded the start file's run id, so they are the
        # two hosts of one run (two stand-ins on this machine, told apart by their database folders).
        $report = Get-TestReport -Path (Join-Path $run 'results')
        @($report).Count | Should -Be 1
        $report.RunId | Should -Be (Get-Content -Raw -LiteralPath $startFile | ConvertFrom-Json).runId
        $report.Hosts | Should -Be 2
        $report.TestId -split ', ' | Should -Contain $resultA.TestId
        $report.TestId -split ', ' | Should -Contain $resultB.TestId
        @($report.ResultsPath).Count | Should -Be 2
    }

    It 'refuses a start instant that has passed, and runs nothing' {
        $run = New-Folder (Join-Path $Dir 'run')
        $startFile = Join-Path $run 'start.json'
        Set-Content -LiteralPath $startFile -Value ('{"schema":"exchstoragetest/run","schemaVersion":1,"runId":"x","startAtUtc":"' + [DateTime]::UtcNow.AddMinutes(-5).ToString('yyyy-MM-ddTHH:mm:ss.fffZ') + '"}')
        $db = New-Folder (Join-Path $Dir 'db')
        $caught = $null
        try { New-SmallProfile $db | Invoke-StorageTest -StartFile $startFile -Duration 00:00:15 -Force } catch { $caught = $_ }
        $caught.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.StartTimePassed' + $FullyQualified)
        $caught.CategoryInfo.Category | Should -Be 'InvalidOperation'
        $caught.TargetObject | Should -Be $startFile
        Get-FolderEntry $db | Should -BeNullOrEmpty
        Get-FolderEntry $Dir | Where-Object { $_ -notlike 'db*' } | Should -Be @('run', (Join-Path 'run' 'start.json'))
    }

    It 'gives StartFileNotFound when the start file does not appear within the timeout, after waiting with a countdown' {
        $run = New-Folder (Join-Path $Dir 'run')
        $startFile = Join-Path $run 'start.json'
        $runspace = New-ModuleRunspace
        $clock = [System.Diagnostics.Stopwatch]::StartNew()
        try { $result = Invoke-InRunspace $runspace ($Profile + '$p | Invoke-StorageTest -StartFile $args[1] -StartFileTimeout 00:00:03 -Duration 00:00:15 -Force') -ArgumentList (New-Folder (Join-Path $Dir 'db')), $startFile }
        finally { $runspace.Dispose() }
        $result.Error.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.StartFileNotFound' + $FullyQualified)
        $result.Error.CategoryInfo.Category | Should -Be 'ObjectNotFound'
        $result.Error.Exception.Message | Should -Match ([regex]::Escape($startFile))
        $clock.Elapsed.TotalSeconds | Should -BeGreaterOrEqual 3
        # It waited with a countdown, and did not create the file it was told to wait for.
        @($result.Progress | Where-Object { $_.Activity -eq 'Waiting for the start file' -and $_.SecondsRemaining -gt 0 }) | Should -Not -BeNullOrEmpty
        Test-Path -LiteralPath $startFile | Should -BeFalse
        Get-FolderEntry $Dir | Should -Be @('db', 'run')
    }

    It 'gives StartFileMalformed for a file that is not a start file, and leaves it as it was' {
        $startFile = Join-Path $Dir 'start.json'
        Set-Content -LiteralPath $startFile -Value '{"schema":"something/else"}' -NoNewline
        $caught = $null
        try { New-SmallProfile (New-Folder (Join-Path $Dir 'db')) | Invoke-StorageTest -StartFile $startFile -Duration 00:00:15 -Force } catch { $caught = $_ }
        $caught.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.StartFileMalformed' + $FullyQualified)
        $caught.CategoryInfo.Category | Should -Be 'InvalidData'
        Get-Content -Raw -LiteralPath $startFile | Should -Be '{"schema":"something/else"}'
        Get-FolderEntry $Dir | Should -Be @('db', 'start.json')
    }

    It 'gives StartFileFolderNotFound for a start file in a missing folder' {
        $caught = $null
        try { New-SmallProfile (New-Folder (Join-Path $Dir 'db')) | Invoke-StorageTest -StartFile (Join-Path $Dir 'share/run/start.json') -Duration 00:00:15 -Force } catch { $caught = $_ }
        $caught.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.StartFileFolderNotFound' + $FullyQualified)
        Get-FolderEntry $Dir | Should -Be @('db')
    }

    It 'creates no start file with -WhatIf' {
        $run = New-Folder (Join-Path $Dir 'run')
        $output = @(New-SmallProfile (New-Folder (Join-Path $Dir 'db')) | Invoke-StorageTest -StartFile (Join-Path $run 'start.json') -Duration 00:00:15 -WhatIf)
        $output | Should -BeNullOrEmpty
        Get-FolderEntry $Dir | Should -Be @('db', 'run')
    }

    It 'refuses a start instant in the past before anything runs' {
        $caught = $null
        try { New-SmallProfile (New-Folder (Join-Path $Dir 'db')) | Invoke-StorageTest -StartAtUtc ([DateTime]::UtcNow.AddSeconds(-1)) -Duration 00:00:15 -Force } catch { $caught = $_ }
        $caught.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.StartTimeOutOfRange' + $FullyQualified)
        Get-FolderEntry $Dir | Should -Be @('db')
    }
}
