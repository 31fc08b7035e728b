#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# Register-/Unregister-StorageTestTask with the ScheduledTasks cmdlets and systemctl mocked, and
# the generated runner script run for real against a stand-in module to prove its exit codes.

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force

    # The ScheduledTasks module exists on Windows only; stand-ins let the mocks attach elsewhere.
    if ($null -eq (Get-Command -Name 'Register-ScheduledTask' -ErrorAction SilentlyContinue)) {
        function global:New-ScheduledTaskAction {
            param($Execute, $Argument)
        }
        function global:New-ScheduledTaskTrigger {
            param([switch] $Daily, [switch] $Weekly, [switch] $Once, $DaysOfWeek, $At)
        }
        function global:New-ScheduledTaskSettingsSet {
            param([switch] $StartWhenAvailable, $MultipleInstances, $ExecutionTimeLimit)
        }
        function global:Register-ScheduledTask {
            param($TaskName, $TaskPath, $Action, $Trigger, $Settings, $RunLevel, $Description, [switch] $Force, $User, $Password)
        }
        function global:Get-ScheduledTask {
            param($TaskName, $TaskPath)
        }
        function global:Unregister-ScheduledTask {
            param($TaskName, $TaskPath, [switch] $Confirm)
        }
    }

    $profileDb = Join-Path -Path $TestDrive -ChildPath 'db'
    $null = New-Item -Path $profileDb -ItemType Directory -Force
    $profilePath = Join-Path -Path $TestDrive -ChildPath 'nightly.profile.json'
    $null = New-MailboxProfile -Name 'nightly' -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $profileDb -SaveTo $profilePath -Force
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Register-StorageTestTask on Windows' {
    BeforeEach {
        $scriptFolder = Join-Path -Path $TestDrive -ChildPath ('tasks-' + [guid]::NewGuid().ToString('N').Substring(0, 6))
        Mock -ModuleName ExchStorageTest -CommandName Test-WindowsHost -MockWith { $true }
        Mock -ModuleName ExchStorageTest -CommandName Get-ScheduledTask -MockWith { $null }
        Mock -ModuleName ExchStorageTest -CommandName New-ScheduledTaskAction -MockWith { [pscustomobject]@{ Execute = $Execute; Arguments = $Argument } }
        Mock -ModuleName ExchStorageTest -CommandName New-ScheduledTaskTrigger -MockWith { [pscustomobject]@{ Daily = [bool]$Daily; Weekly = [bool]$Weekly; Once = [bool]$Once; At = $At } }
        Mock -ModuleName ExchStorageTest -CommandName New-ScheduledTaskSettingsSet -MockWith { [pscustomobject]@{ MultipleInstances = $MultipleInstances } }
        Mock -ModuleName ExchStorageTest -CommandName Register-ScheduledTask -MockWith { [pscustomobject]@{ TaskName = $TaskName; TaskPath = $TaskPath } }
    }

    It 'registers a daily task that runs the runner script with powershell.exe as SYSTEM' {
        $task = Register-StorageTestTask -Name 'Nightly' -ProfilePath $profilePath -OutputPath (Join-Path -Path $TestDrive -ChildPath 'out') -Duration 02:00:00 -Daily -At '01:00' -ScriptFolder $scriptFolder -Force

        $task.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ScheduledTest'
        $task.Platform | Should -Be 'Windows'
        $task.RunnerScript | Should -Be (Join-Path -Path $scriptFolder -ChildPath 'Nightly.ps1')
        Test-Path -LiteralPath $task.RunnerScript | Should -BeTrue
        Should -Invoke -ModuleName ExchStorageTest -CommandName New-ScheduledTaskAction -Times 1 -Exactly -ParameterFilter {
            $Execute -eq 'powershell.exe' -and $Argument -like '-NoProfile -NonInteractive -ExecutionPolicy Bypass -File "*Nightly.ps1"'
        }
        Should -Invoke -ModuleName ExchStorageTest -CommandName New-ScheduledTaskTrigger -Times 1 -Exactly -ParameterFilter { $Daily -and -not $Weekly }
        Should -Invoke -ModuleName ExchStorageTest -CommandName Register-ScheduledTask -Times 1 -Exactly -ParameterFilter {
            $TaskName -eq 'Nightly' -and $TaskPath -eq '\ExchStorageTest\' -and $User -eq 'NT AUTHORITY\SYSTEM' -and $RunLevel -eq 'Highest' -and $null -eq $Password
        }
        $runner = Get-Content -LiteralPath $task.RunnerScript -Raw
        $runner | Should -Match 'Invoke-StorageTest @parameters'
        $runner | Should -Match 'Confirm = \$false'
        $runner | Should -Match ([regex]::Escape("[timespan]::Parse('02:00:00'"))
        $runner | Should -Match 'exit \$exitCode'
    }

    It 'registers a weekly task under the given account' {
        $password = ConvertTo-SecureString -String 'P@ss' -AsPlainText -Force
        $credential = New-Object -TypeName System.Management.Automation.PSCredential -ArgumentList 'LAB\svc-esrp', $password
        $null = Register-StorageTestTask -Name 'Weekend' -ProfilePath $profilePath -OutputPath $TestDrive -TestType Stress -Weekly -DaysOfWeek @('Saturday') -At '20:00' -Credential $credential -ScriptFolder $scriptFolder -Confirm:$false

        Should -Invoke -ModuleName ExchStorageTest -CommandName New-ScheduledTaskTrigger -Times 1 -Exactly -ParameterFilter { $Weekly -and @($DaysOfWeek) -contains [System.DayOfWeek]::Saturday }
        Should -Invoke -ModuleName ExchStorageTest -CommandName Register-ScheduledTask -Times 1 -Exactly -ParameterFilter { $User -eq 'LAB\svc-esrp' -and $Password -eq 'P@ss' }
    }

    It 'refuses to replace an existing task without -Force' {
        Mock -ModuleName ExchStorageTest -CommandName Get-ScheduledTask -MockWith { [pscustomobject]@{ TaskName = 'Nightly' } }
        { Register-StorageTestTask -Name 'Nightly' -ProfilePath $profilePath -OutputPath $TestDrive -Once -At (Get-Date).AddHours(1) -ScriptFolder $scriptFolder -Confirm:$false } | Should -Throw -ErrorId 'ExchStorageTest.TaskExists,Register-StorageTestTask'
        Should -Invoke -ModuleName ExchStorageTest -CommandName Register-ScheduledTask -Times 0 -Exactly
    }

    It 'registers nothing with -WhatIf' {
        $null = Register-StorageTestTask -Name 'Nightly' -ProfilePath $profilePath -OutputPath $TestDrive -Daily -At '01:00' -ScriptFolder $scriptFolder -WhatIf
        Should -Invoke -ModuleName ExchStorageTest -CommandName Register-ScheduledTask -Times 0 -Exactly
        Test-Path -LiteralPath (Join-Path -Path $scriptFolder -ChildPath 'Nightly.ps1') | Should -BeFalse
    }

    It 'refuses a profile that does not exist' {
        { Register-StorageTestTask -Name 'Nightly' -ProfilePath (Join-Path -Path $TestDrive -ChildPath 'missing.json') -OutputPath $TestDrive -Daily -At '01:00' -ScriptFolder $scriptFolder -Force } | Should -Throw -ErrorId 'ExchStorageTest.ProfileNotFound,Register-StorageTestTask'
    }

    It 'Unregister-StorageTestTask removes the task and its runner script' {
        $task = Register-StorageTestTask -Name 'Nightly' -ProfilePath $profilePath -OutputPath $TestDrive -Daily -At '01:00' -ScriptFolder $scriptFolder -Force
        Mock -ModuleName ExchStorageTest -CommandName Get-ScheduledTask -MockWith { [pscustomobject]@{ TaskName = 'Nightly' } }
        Mock -ModuleName ExchStorageTest -CommandName Unregister-ScheduledTask -MockWith { return }

        Unregister-StorageTestTask -Name 'Nightly' -ScriptFolder $scriptFolder -Force

        Should -Invoke -ModuleName ExchStorageTest -CommandName Unregister-ScheduledTask -Times 1 -Exactly -ParameterFilter { $TaskName -eq 'Nightly' -and $TaskPath -eq '\ExchStorageTest\' }
        Test-Path -LiteralPath $task.RunnerScript | Should -BeFalse
    }

    It 'Unregister-StorageTestTask reports a task that is not registered' {
        { Unregister-StorageTestTask -Name 'Nope' -ScriptFolder $scriptFolder -Force } | Should -Throw -ErrorId 'ExchStorageTest.TaskNotFound,Unregister-StorageTestTask'
    }
}

Describe 'Register-StorageTestTask on Linux' {
    BeforeEach {
        $unitFolder = Join-Path -Path $TestDrive -ChildPath ('units-' + [guid]::NewGuid().ToString('N').Substring(0, 6))
        $scriptFolder = Join-Path -Path $TestDrive -ChildPath ('tasks-' + [guid]::NewGuid().ToString('N').Substring(0, 6))
        Mock -ModuleName ExchStorageTest -CommandName Test-WindowsHost -MockWith { $false }
        Mock -ModuleName ExchStorageTest -CommandName Invoke-Systemctl -MockWith { return }
    }

    It 'writes a oneshot service and a timer with OnCalendar, then enables the timer' {
        $task = Register-StorageTestTask -Name 'Weekend' -ProfilePath $profilePath -OutputPath $TestDrive -Weekly -DaysOfWeek @('Saturday', 'Sunday') -At '20:00' -ScriptFolder $scriptFolder -UnitPath $unitFolder -PowerShellPath '/usr/bin/pwsh' -Force

        $task.Platform | Should -Be 'Linux'
        $service = Get-Content -LiteralPath (Join-Path -Path $unitFolder -ChildPath 'exchstoragetest-Weekend.service') -Raw
        $timer = Get-Content -LiteralPath (Join-Path -Path $unitFolder -ChildPath 'exchstoragetest-Weekend.timer') -Raw
        $service | Should -Match 'Type=oneshot'
        $service | Should -Match ([regex]::Escape('ExecStart="/usr/bin/pwsh" -NoProfile -NonInteractive -File "' + (Join-Path -Path $scriptFolder -ChildPath 'Weekend.ps1') + '"'))
        $timer | Should -Match 'OnCalendar=Sun,Sat \*-\*-\* 20:00:00'
        $timer | Should -Match 'Unit=exchstoragetest-Weekend.service'
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-Systemctl -Times 1 -Exactly -ParameterFilter { @($ArgumentList) -join ' ' -eq 'enable --now exchstoragetest-Weekend.timer' }
    }

    It 'Unregister-StorageTestTask disables the timer and deletes the units' {
        $null = Register-StorageTestTask -Name 'Daily1' -ProfilePath $profilePath -OutputPath $TestDrive -Daily -At '01:30' -ScriptFolder $scriptFolder -UnitPath $unitFolder -Force
        Unregister-StorageTestTask -Name 'Daily1' -ScriptFolder $scriptFolder -UnitPath $unitFolder -Force
        @(Get-ChildItem -LiteralPath $unitFolder).Count | Should -Be 0
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-Systemctl -Times 1 -Exactly -ParameterFilter { @($ArgumentList) -join ' ' -eq 'disable --now exchstoragetest-Daily1.timer' }
    }

    It 'turns schedules into systemd calendar expressions' {
        InModuleScope ExchStorageTest {
            ConvertTo-SystemdCalendar -Schedule Daily -At ([datetime]'2024-06-01 01:30') | Should -Be '*-*-* 01:30:00'
            ConvertTo-SystemdCalendar -Schedule Once -At ([datetime]'2024-06-01 02:00') | Should -Be '2024-06-01 02:00:00'
            ConvertTo-SystemdCalendar -Schedule Weekly -At ([datetime]'2024-06-01 20:00') -DaysOfWeek @([System.DayOfWeek]::Monday, [System.DayOfWeek]::Friday) | Should -Be 'Mon,Fri *-*-* 20:00:00'
        }
    }
}

Describe 'The generated runner script' {
    BeforeAll {
        # A stand-in module: Invoke-StorageTest returns what FAKE_OUTCOME says, so the runner's
        # exit codes are observed from a real child process.
        $fakeModule = Join-Path -Path $TestDrive -ChildPath 'fake/Fake.psm1'
        $null = New-Item -Path (Split-Path -Path $fakeModule -Parent) -ItemType Directory -Force
        Set-Content -LiteralPath $fakeModule -Value @'
function Invoke-StorageTest {
    param($ProfilePath, $OutputPath, $TestType, $Force, $Confirm, $Duration)
    switch ($env:FAKE_OUTCOME) {
        'Pass' { [pscustomobject]@{ Result = 'Pass'; Completion = 'Complete' } }
        'Fail' { [pscustomobject]@{ Result = 'Fail'; Completion = 'Complete' } }
        'Stopped' { [pscustomobject]@{ Result = 'Fail'; Completion = 'Stopped' } }
        default { throw 'engine exploded' }
    }
}
'@
        $runnerPath = Join-Path -Path $TestDrive -ChildPath 'runner.ps1'
        $text = InModuleScope ExchStorageTest -Parameters @{ Module = $fakeModule; Output = (Join-Path -Path $TestDrive -ChildPath 'runner out') } {
            param($Module, $Output)
            New-StorageTestRunnerScript -Name "it's" -ModuleManifestPath $Module -ProfilePath '/p.json' -OutputPath $Output -TestType 'Performance' -Duration ([timespan]::FromMinutes(5))
        }
        Set-Content -LiteralPath $runnerPath -Value $text
        $powershell = [System.Diagnostics.Process]::GetCurrentProcess().MainModule.FileName
    }

    It 'exits <Code> when the test outcome is <Outcome>' -TestCases @(
        @{ Outcome = 'Pass'; Code = 0 }
        @{ Outcome = 'Fail'; Code = 1 }
        @{ Outcome = 'Error'; Code = 2 }
        @{ Outcome = 'Stopped'; Code = 3 }
    ) {
        $env:FAKE_OUTCOME = $Outcome
        try {
            $null = & $powershell -NoProfile -NonInteractive -File $runnerPath
            $LASTEXITCODE | Should -Be $Code
        }
        finally {
            Remove-Item -Path Env:FAKE_OUTCOME -ErrorAction SilentlyContinue
        }
    }
}
