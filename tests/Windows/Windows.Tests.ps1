# What only a real Windows host can show, part of the module's Pester suites (tests/Invoke-ModuleTests.ps1; the
# CI workflow runs them in Windows PowerShell 5.1 and in PowerShell 7). Elsewhere every block here is skipped
# with its reason. Keep this file to the Windows-only parts:
#   - the binary module loading in Windows PowerShell 5.1 (the Exchange Management Shell's engine);
#   - a real run on NTFS through the IOCP backend, stopped and not stopped;
#   - Register-/Unregister-StorageTestTask against the real Task Scheduler;
#   - Invoke-StorageTest -ComputerName over WinRM to this machine, where remoting is enabled.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    $repoRoot = Get-RepositoryRoot
    $root = New-ScratchFolder 'windows'
}

AfterAll {
    Remove-ScratchFolder $root
}

Describe 'The binary module in this edition of PowerShell' -Tag 'Needs:Windows' -Skip:(Test-Missing Windows) {
    BeforeAll { Import-ExchStorageTest }

    It 'imports and exports every command as a cmdlet of one assembly' {
        $module = Get-Module -Name ExchStorageTest
        $module | Should -Not -BeNullOrEmpty
        $commands = @(Get-Command -Module ExchStorageTest)
        $commands.Count | Should -Be 8
        @($commands | Where-Object { $_.CommandType -ne 'Cmdlet' }).Count | Should -Be 0
        @($commands | ForEach-Object { $_.ImplementingType.Assembly.GetName().Name } | Select-Object -Unique) | Should -Be @('ExchStorageTest')
    }

    It 'finds the compiled help in this edition' {
        $help = Get-Help -Name Invoke-StorageTest -Full
        $help.Synopsis | Should -Match 'Jetstress-style storage test'
        @($help.Examples.Example).Count | Should -BeGreaterThan 0
        (Get-Help -Name about_ExchStorageTest | Out-String) | Should -Match 'ERRORID CATALOGUE'
    }
}

Describe 'A run on NTFS through the IOCP backend' -Tag 'Needs:Windows' -Skip:(Test-Missing Windows) {
    BeforeAll { Import-ExchStorageTest }

    It 'measures, judges and reports' {
        $folder = Join-Path -Path $root -ChildPath 'run'
        $null = New-Item -Path $folder -ItemType Directory
        $result = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -Path $folder |
            Invoke-StorageTest -Duration 00:00:20 -Force
        $result.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.TestResult'
        $result.IoBackend | Should -Be 'iocp'
        $result.DirectIo | Should -BeTrue
        $result.Completion | Should -Be 'Complete'
        $result.Result | Should -BeIn @('Pass', 'Fail')
        Test-Path -LiteralPath $result.ResultsPath | Should -BeTrue
        $report = $result | Get-TestReport -Format Html
        @($report.Files | Where-Object { $_ -like '*.html' }).Count | Should -Be 1
    }

    It 'stops cleanly from a job and Receive-Job returns the partial result' {
        $folder = Join-Path -Path $root -ChildPath 'stop'
        $null = New-Item -Path $folder -ItemType Directory
        $job = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -Path $folder |
            Invoke-StorageTest -Duration 00:10:00 -ThreadCount 1 -SampleIntervalSeconds 1 -Warmup 0 -AsJob -Force
        $deadline = [DateTime]::UtcNow.AddMinutes(3)
        while (-not @($job.Progress | Where-Object { $_.CurrentOperation -eq 'Measuring' }) -and [DateTime]::UtcNow -lt $deadline) {
            Start-Sleep -Milliseconds 500
        }
        Stop-Job -Job $job
        $partial = Receive-Job -Job $job
        Remove-Job -Job $job
        $partial.Completion | Should -Be 'Stopped'
        Test-Path -LiteralPath $partial.ResultsPath | Should -BeTrue
        @(Get-Process -Name exchstoragetest-engine -ErrorAction SilentlyContinue | Where-Object { $_.Path -like "$repoRoot*" }).Count | Should -Be 0
    }
}

Describe 'Scheduled runs with the Task Scheduler' -Tag 'Needs:TaskScheduler' -Skip:(Test-Missing TaskScheduler) {
    BeforeAll { Import-ExchStorageTest }

    It 'registers a daily task under \ExchStorageTest\ and removes it again' {
        $folder = Join-Path -Path $root -ChildPath 'task'
        $null = New-Item -Path $folder -ItemType Directory
        $profilePath = Join-Path -Path $root -ChildPath 'task.profile.json'
        $null = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -Path $folder -SaveTo $profilePath
        $name = 'EST-Pester-' + [guid]::NewGuid().ToString('N').Substring(0, 8)
        try {
            $null = Register-StorageTestTask -Name $name -ProfilePath $profilePath -OutputPath (Join-Path -Path $root -ChildPath 'task-results') -At ([DateTime]::Today.AddDays(1).AddHours(2)) -Daily -Duration 00:00:20 -Force
            $task = Get-ScheduledTask -TaskPath '\ExchStorageTest\' -TaskName $name
            $task | Should -Not -BeNullOrEmpty
            $task.Actions[0].Arguments | Should -Match '-File'
        }
        finally {
            Unregister-StorageTestTask -Name $name -Force -Confirm:$false -ErrorAction SilentlyContinue
        }
        Get-ScheduledTask -TaskPath '\ExchStorageTest\' -TaskName $name -ErrorAction SilentlyContinue | Should -BeNullOrEmpty
    }
}

Describe 'Multi-host over WinRM to this machine' -Tag 'Needs:WinRM' -Skip:(Test-Missing WinRM) {
    BeforeAll { Import-ExchStorageTest }

    It 'runs on localhost and returns the host result and the aggregate' {
        $folder = Join-Path -Path $root -ChildPath 'remote'
        $null = New-Item -Path $folder -ItemType Directory
        $out = Join-Path -Path $root -ChildPath 'remote-results'
        $profile = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -Path $folder
        $results = @(Invoke-StorageTest -MailboxProfile $profile -ComputerName localhost -Duration 00:00:20 -OutputPath $out -StartAtUtc ([DateTime]::UtcNow.AddSeconds(90)) -Force)
        @($results | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' }).Count | Should -Be 1
        @($results | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.AggregateResult' }).Count | Should -Be 1
    }
}
