# Register-/Unregister-StorageTestTask on Linux: the systemd units are written to a scratch -UnitPath and read
# back, systemctl is a recording stand-in first on PATH (systemd is not PID 1 here, and a test must not touch
# /etc/systemd). The runner script itself is run for real in RunnerScript.Tests.ps1.

BeforeDiscovery {
    # case, ErrorId, category
    $BadRegistrations = @(
        @{ Case = 'weekly without days'; ErrorId = 'DaysOfWeekMissing'; Category = 'InvalidArgument' }
        @{ Case = 'missing profile'; ErrorId = 'ProfileNotFound'; Category = 'ObjectNotFound' }
        @{ Case = 'zero duration'; ErrorId = 'DurationOutOfRange'; Category = 'InvalidArgument' }
        @{ Case = 'missing PowerShell'; ErrorId = 'PowerShellNotFound'; Category = 'ObjectNotFound' }
        @{ Case = 'no systemctl'; ErrorId = 'SystemctlNotFound'; Category = 'NotInstalled' }
    )
}

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $RegisterCommand = 'ExchStorageTest.Commands.RegisterStorageTestTaskCommand'
    $UnregisterCommand = 'ExchStorageTest.Commands.UnregisterStorageTestTaskCommand'

    function New-Layout {
        # A saved profile (in $Fixtures) and where the task goes (in $Target).
        $profilePath = Join-Path $Fixtures 'nightly.profile.json'
        $null = New-MailboxProfile -Name nightly -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -ThreadCount 1 -Path (New-Item -ItemType Directory -Path (Join-Path $Fixtures 'db')).FullName -SaveTo $profilePath
        [pscustomobject]@{
            ProfilePath  = $profilePath
            ScriptFolder = Join-Path $Target 'tasks'
            UnitPath     = Join-Path $Target 'units'
            OutputPath   = Join-Path $Target 'out'
        }
    }

    function Get-ServiceFile([string] $Name) { Join-Path $Layout.UnitPath "exchstoragetest-$Name.service" }
    function Get-TimerFile([string] $Name) { Join-Path $Layout.UnitPath "exchstoragetest-$Name.timer" }
    function Get-RunnerFile([string] $Name) { Join-Path $Layout.ScriptFolder "$Name.ps1" }

    function Register-Task {
        # Register-StorageTestTask with the layout's paths; returns the task, or the error it stopped with.
        param([string] $Name, $PowerShellPath, [hashtable] $Schedule, [hashtable] $Extra = @{})
        $parameters = @{ Name = $Name; ProfilePath = $Layout.ProfilePath; OutputPath = $Layout.OutputPath; ScriptFolder = $Layout.ScriptFolder; UnitPath = $Layout.UnitPath }
        if ($PowerShellPath) { $parameters.PowerShellPath = $PowerShellPath }
        foreach ($k in $Schedule.Keys) { $parameters[$k] = $Schedule[$k] }
        foreach ($k in $Extra.Keys) { $parameters[$k] = $Extra[$k] }
        try { Register-StorageTestTask @parameters } catch { $_ }
    }

    function Get-DailyAt([string] $Time) { @{ Daily = $true; At = [DateTime]::Parse("2024-06-01 $Time", [Globalization.CultureInfo]::InvariantCulture) } }

    function New-Credential([string] $User) {
        New-Object System.Management.Automation.PSCredential -ArgumentList $User, (ConvertTo-SecureString -String 'unused' -AsPlainText -Force)
    }
}

Describe 'Register-StorageTestTask and Unregister-StorageTestTask with systemd' -Tag 'Needs:Linux' -Skip:(Test-Missing Linux) {
    BeforeEach {
        $Fixtures = New-ScratchFolder 'stt'
        $Target = New-ScratchFolder 'stt'
        $Layout = New-Layout
    }
    AfterEach {
        if ($StandIn) { Restore-Path $StandIn; $StandIn = $null }
        Remove-ScratchFolder $Fixtures, $Target
    }

    It 'writes a oneshot service and its timer for a daily task, then enables the timer' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $task = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:30') @{ Duration = [timespan]::FromHours(2); Force = $true }

        $task.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ScheduledTest'
        $task.Platform | Should -Be 'Linux'
        $task.Schedule | Should -Be 'Daily at 01:30'
        $task.Account | Should -Be 'root'
        $task.ServiceUnit | Should -Be (Get-ServiceFile Nightly)
        $task.TimerUnit | Should -Be (Get-TimerFile Nightly)
        $task.RunnerScript | Should -Be (Get-RunnerFile Nightly)

        $service = [System.IO.File]::ReadAllText((Get-ServiceFile Nightly))
        $service | Should -Match ([regex]::Escape("`n[Service]`nType=oneshot`n"))
        $service | Should -Match ([regex]::Escape("`nExecStart=`"$($StandIn.Pwsh)`" -NoProfile -NonInteractive -File `"$(Get-RunnerFile Nightly)`"`n"))
        $service | Should -Not -Match ([regex]::Escape('User='))
        $timer = [System.IO.File]::ReadAllText((Get-TimerFile Nightly))
        $timer | Should -Match ([regex]::Escape("`nOnCalendar=*-*-* 01:30:00`n"))
        $timer | Should -Match ([regex]::Escape("`nPersistent=true`nUnit=exchstoragetest-Nightly.service`n"))
        $timer | Should -Match ([regex]::Escape("`n[Install]`nWantedBy=timers.target`n"))

        # The runner imports the module by its manifest and runs the saved profile for the given window.
        $runner = [System.IO.File]::ReadAllText((Get-RunnerFile Nightly))
        [System.IO.File]::ReadAllBytes((Get-RunnerFile Nightly))[0..2] | Should -Be @(0xEF, 0xBB, 0xBF) -Because 'Windows PowerShell 5.1 reads UTF-8 only with a byte order mark'
        $runner | Should -Match ([regex]::Escape("# Generated by Register-StorageTestTask for the scheduled storage test 'Nightly'"))
        $runner | Should -Match ([regex]::Escape("Import-Module -Name '$(Get-ModuleManifest)' -ErrorAction Stop"))
        $runner | Should -Match ([regex]::Escape("ProfilePath = '$($Layout.ProfilePath)'"))
        $runner | Should -Match ([regex]::Escape("[timespan]::Parse('02:00:00'"))
        $runner | Should -Match ([regex]::Escape('Invoke-StorageTest @parameters'))
        $runner | Should -Match ([regex]::Escape('exit $exitCode'))

        Get-SystemctlCall $StandIn | Should -Be @('daemon-reload', 'enable --now exchstoragetest-Nightly.timer')
    }

    It 'makes weekly and once schedules systemd calendar expressions' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $at = [DateTime]::Parse('2031-02-03 20:05', [Globalization.CultureInfo]::InvariantCulture)
        $weekly = Register-Task Weekend $StandIn.Pwsh @{ Weekly = $true; At = $at; DaysOfWeek = 'Saturday', 'Sunday', 'Saturday' } @{ Force = $true }
        $once = Register-Task Trial $StandIn.Pwsh @{ Once = $true; At = $at } @{ Force = $true }

        $weekly.Schedule | Should -Be 'Weekly on Sunday, Saturday at 20:05'
        [System.IO.File]::ReadAllText((Get-TimerFile Weekend)) | Should -Match ([regex]::Escape("`nOnCalendar=Sun,Sat *-*-* 20:05:00`n"))
        $once.Schedule | Should -Be 'Once at 2031-02-03 20:05'
        [System.IO.File]::ReadAllText((Get-TimerFile Trial)) | Should -Match ([regex]::Escape("`nOnCalendar=2031-02-03 20:05:00`n"))
    }

    It 'runs the service as the user of -Credential and refuses a user name with a line break' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $task = Register-Task AsUser $StandIn.Pwsh (Get-DailyAt '03:00') @{ Force = $true; Credential = (New-Credential 'svc-esrp') }
        $task.Account | Should -Be 'svc-esrp'
        [System.IO.File]::ReadAllText((Get-ServiceFile AsUser)) | Should -Match ([regex]::Escape("`nUser=svc-esrp`n"))

        $injected = Register-Task Injected $StandIn.Pwsh (Get-DailyAt '03:00') @{ Force = $true; Credential = (New-Credential "svc`nExecStartPre=/bin/rm") }
        $injected.FullyQualifiedErrorId | Should -Be "ExchStorageTest.InvalidUnitValue,$RegisterCommand"
        Test-Path -LiteralPath (Get-ServiceFile Injected) | Should -BeFalse
        Test-Path -LiteralPath (Get-RunnerFile Injected) | Should -BeFalse
    }

    It 'writes nothing and calls no systemctl with -WhatIf' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $output = @(Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ WhatIf = $true })
        $output | Should -BeNullOrEmpty
        Get-FolderEntry $Target | Should -BeNullOrEmpty
        Get-SystemctlCall $StandIn | Should -BeNullOrEmpty
    }

    It 'replaces an existing task only with -Force' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $null = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        $timerBefore = [System.IO.File]::ReadAllText((Get-TimerFile Nightly))

        $again = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '02:00') @{ Confirm = $false }
        $again.FullyQualifiedErrorId | Should -Be "ExchStorageTest.TaskExists,$RegisterCommand"
        $again.CategoryInfo.Category | Should -Be 'ResourceExists'
        [System.IO.File]::ReadAllText((Get-TimerFile Nightly)) | Should -Be $timerBefore
        @(Get-SystemctlCall $StandIn).Count | Should -Be 2 -Because 'only the first registration called systemctl'

        $replaced = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '02:00') @{ Force = $true }
        $replaced.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ScheduledTest'
        [System.IO.File]::ReadAllText((Get-TimerFile Nightly)) | Should -Match ([regex]::Escape("`nOnCalendar=*-*-* 02:00:00`n"))
    }

    It 'never replaces a file at the runner path that the module did not write' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $null = New-Item -ItemType Directory -Path $Layout.ScriptFolder
        [System.IO.File]::WriteAllText((Get-RunnerFile Nightly), "Write-Output 'my own script'`n")

        $run = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        $run.FullyQualifiedErrorId | Should -Be "ExchStorageTest.TaskExists,$RegisterCommand"
        [System.IO.File]::ReadAllText((Get-RunnerFile Nightly)) | Should -Be "Write-Output 'my own script'`n"
        Test-Path -LiteralPath $Layout.UnitPath | Should -BeFalse
        Get-SystemctlCall $StandIn | Should -BeNullOrEmpty
    }

    It 'unregisters a task bound from the pipeline: disables the timer, removes the units and the runner, keeps the output' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $task = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        $null = New-Item -ItemType Directory -Path $Layout.OutputPath
        Set-Content -LiteralPath (Join-Path $Layout.OutputPath 'kept.log') -Value "a run's log"

        $output = @($task | Unregister-StorageTestTask -ScriptFolder $Layout.ScriptFolder -UnitPath $Layout.UnitPath -Force)
        $output | Should -BeNullOrEmpty
        Test-Path -LiteralPath (Get-ServiceFile Nightly) | Should -BeFalse
        Test-Path -LiteralPath (Get-TimerFile Nightly) | Should -BeFalse
        Test-Path -LiteralPath (Get-RunnerFile Nightly) | Should -BeFalse
        Test-Path -LiteralPath (Join-Path $Layout.OutputPath 'kept.log') | Should -BeTrue
        Get-SystemctlCall $StandIn | Should -Be @('daemon-reload', 'enable --now exchstoragetest-Nightly.timer', 'disable --now exchstoragetest-Nightly.timer', 'daemon-reload')
    }

    It 'refuses to unregister an unknown name with TaskNotFound and touches nothing' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $units = (New-Item -ItemType Directory -Path (Join-Path $Target 'units')).FullName
        Set-Content -LiteralPath (Join-Path $units 'exchstoragetest-Other.timer') -Value '[Timer]'

        $caught = $null
        try { Unregister-StorageTestTask -Name Nope -ScriptFolder (Join-Path $Target 'tasks') -UnitPath $units -Force } catch { $caught = $_ }
        $caught.FullyQualifiedErrorId | Should -Be "ExchStorageTest.TaskNotFound,$UnregisterCommand"
        $caught.CategoryInfo.Category | Should -Be 'ObjectNotFound'
        $caught.TargetObject | Should -Be 'Nope'
        Get-FolderEntry $Target | Should -Be @('units', (Join-Path 'units' 'exchstoragetest-Other.timer'))
        Get-SystemctlCall $StandIn | Should -BeNullOrEmpty
    }

    It 'removes nothing with Unregister -WhatIf' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $null = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        $before = Get-FolderEntry $Target
        Unregister-StorageTestTask -Name Nightly -ScriptFolder $Layout.ScriptFolder -UnitPath $Layout.UnitPath -WhatIf
        Get-FolderEntry $Target | Should -Be $before
        @(Get-SystemctlCall $StandIn).Count | Should -Be 2
    }

    It 'refuses bad input (<Case>) with <ErrorId> before anything is written' -ForEach $BadRegistrations {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin') -AloneOnPath
        if ($Case -eq 'no systemctl') { Remove-Item -LiteralPath (Join-Path $StandIn.Folder 'systemctl') }
        $powerShell = if ($Case -eq 'missing PowerShell') { Join-Path $Fixtures 'no/pwsh' } else { $StandIn.Pwsh }
        $schedule = if ($Case -eq 'weekly without days') { @{ Weekly = $true; DaysOfWeek = [DayOfWeek[]]@(); At = [DateTime]::Now } } else { Get-DailyAt '01:00' }
        $extra = @{ Force = $true }
        if ($Case -eq 'zero duration') { $extra.Duration = [timespan]::Zero }
        if ($Case -eq 'missing profile') { Remove-Item -LiteralPath $Layout.ProfilePath }

        $run = Register-Task Nightly $powerShell $schedule $extra
        $run | Should -BeOfType [System.Management.Automation.ErrorRecord]
        $run.FullyQualifiedErrorId | Should -Be "ExchStorageTest.$ErrorId,$RegisterCommand"
        $run.CategoryInfo.Category | Should -Be $Category
        Get-FolderEntry $Target | Should -BeNullOrEmpty
        Get-SystemctlCall $StandIn | Should -BeNullOrEmpty
    }

    It 'starts an installed pwsh without -PowerShellPath, never one from a package cache' {
        # The .NET tool's PowerShell (the one this repository installs) runs from the NuGet packages folder, which an
        # update or a cache clean removes: the timer then gets a pwsh on PATH (here the stand-in) instead.
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin') -AloneOnPath
        $task = Register-Task Nightly $null (Get-DailyAt '01:00') @{ Force = $true }
        $task.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ScheduledTest'
        $expected = if ($PSHOME -match '/\.nuget/packages/|/\.dotnet/tools/\.store/') { $StandIn.Pwsh } else { Join-Path $PSHOME 'pwsh' }
        [System.IO.File]::ReadAllText((Get-ServiceFile Nightly)) | Should -Match ([regex]::Escape("`nExecStart=`"$expected`" -NoProfile"))
    }

    It 'reports a failing systemctl as SystemctlFailed with its message, leaves nothing behind, and registers again after' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin') -ExitCode 5
        $run = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        $run.FullyQualifiedErrorId | Should -Be "ExchStorageTest.SystemctlFailed,$RegisterCommand"
        $run.Exception.Message | Should -Match ([regex]::Escape('exit code 5'))
        $run.Exception.Message | Should -Match ([regex]::Escape('Unit file not found'))
        $run.Exception.Message | Should -Match ([regex]::Escape('What this registration wrote was removed'))
        Get-SystemctlCall $StandIn | Should -Be @('daemon-reload')
        Get-FolderEntry $Target | Should -BeNullOrEmpty -Because 'the units, the runner and the folders made for them are taken back'

        $null = Use-StandInSystemctl (Join-Path $Fixtures 'bin') | ForEach-Object { Restore-Path $_ } # systemctl works now
        $task = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Confirm = $false }
        $task.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ScheduledTest' -Because 'no TaskExists for what a refused registration wrote'
    }

    It 'takes back a timer systemd loaded but would not enable: disables it, removes the units, reloads; a replaced one keeps its earlier units' {
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin') -ExitCode 1 -FailOn enable
        $run = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        $run.FullyQualifiedErrorId | Should -Be "ExchStorageTest.SystemctlFailed,$RegisterCommand"
        Get-SystemctlCall $StandIn | Should -Be @('daemon-reload', 'enable --now exchstoragetest-Nightly.timer', 'disable exchstoragetest-Nightly.timer', 'daemon-reload')
        Get-FolderEntry $Target | Should -BeNullOrEmpty

        # -Force over a working registration: refused, its earlier units are back as they were, and still enabled.
        $null = Use-StandInSystemctl (Join-Path $Fixtures 'bin') | ForEach-Object { Restore-Path $_ }
        $null = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        $before = @{}
        foreach ($file in (Get-ServiceFile Nightly), (Get-TimerFile Nightly), (Get-RunnerFile Nightly)) { $before[$file] = [System.IO.File]::ReadAllText($file) }
        $null = Use-StandInSystemctl (Join-Path $Fixtures 'bin') -ExitCode 1 -FailOn enable | ForEach-Object { Restore-Path $_ }
        Remove-Item -LiteralPath $StandIn.Log
        $replaced = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '05:00') @{ Force = $true; Duration = [timespan]::FromHours(1) }
        $replaced.FullyQualifiedErrorId | Should -Be "ExchStorageTest.SystemctlFailed,$RegisterCommand"
        foreach ($file in $before.Keys) { [System.IO.File]::ReadAllText($file) | Should -Be $before[$file] }
        Get-SystemctlCall $StandIn | Should -Be @('daemon-reload', 'enable --now exchstoragetest-Nightly.timer', 'daemon-reload') -Because 'the earlier timer was enabled, and stays so'
    }

    It 'unregisters what a registration systemd refused left: units and runner with no enabled timer, or a runner alone' {
        # Left as an older version left them: written by a registration, then systemd stops answering.
        $StandIn = Use-StandInSystemctl (Join-Path $Fixtures 'bin')
        $null = Register-Task Nightly $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        $null = Register-Task Other $StandIn.Pwsh (Get-DailyAt '01:00') @{ Force = $true }
        Remove-Item -LiteralPath (Get-ServiceFile Other), (Get-TimerFile Other)
        $null = Use-StandInSystemctl (Join-Path $Fixtures 'bin') -ExitCode 1 | ForEach-Object { Restore-Path $_ } # systemctl fails from here
        Remove-Item -LiteralPath $StandIn.Log

        $warnings = $null
        Unregister-StorageTestTask -Name Nightly -ScriptFolder $Layout.ScriptFolder -UnitPath $Layout.UnitPath -Force -WarningVariable warnings -WarningAction SilentlyContinue
        $warnings[0] | Should -Match ([regex]::Escape('systemctl disable --now exchstoragetest-Nightly.timer failed (exit code 1)'))
        $warnings[0] | Should -Match ([regex]::Escape('The timer is not enabled'))
        Get-SystemctlCall $StandIn | Should -Be @('disable --now exchstoragetest-Nightly.timer', 'is-enabled --quiet exchstoragetest-Nightly.timer', 'daemon-reload')
        Unregister-StorageTestTask -Name Other -ScriptFolder $Layout.ScriptFolder -UnitPath $Layout.UnitPath -Force
        Get-FolderEntry $Layout.UnitPath | Should -BeNullOrEmpty
        Get-FolderEntry $Layout.ScriptFolder | Should -BeNullOrEmpty
    }
}
