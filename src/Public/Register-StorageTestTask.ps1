function Register-StorageTestTask {
    <#
    .SYNOPSIS
    Schedules a saved storage test profile to run unattended: a Windows scheduled task, or a systemd timer on Linux.

    .DESCRIPTION
    Writes a runner script (New-StorageTestRunnerScript) that imports this module, runs
    Invoke-StorageTest -ProfilePath <profile> -OutputPath <folder> -Force -Confirm:$false and
    exits with a code the scheduler (or the pipeline reading it) can act on:
    0 Pass, 1 Fail (verdict), 2 error, 3 stopped before the end. A transcript of each run is
    written next to the results.

    On Windows it registers a scheduled task under \ExchStorageTest\ with the ScheduledTasks
    cmdlets: New-ScheduledTaskAction runs powershell.exe -NoProfile -NonInteractive
    -ExecutionPolicy Bypass -File <runner>, New-ScheduledTaskTrigger -Daily, -Weekly or -Once,
    and Register-ScheduledTask runs it as SYSTEM or as the account in -Credential, with highest
    privileges (unbuffered I/O on volumes needs them).

    On Linux it writes a systemd service and timer pair (exchstoragetest-<name>.service and
    .timer, OnCalendar from the schedule, Persistent=true) to -UnitPath and enables the timer
    with systemctl (root needed for /etc/systemd/system).

    Nothing prompts: it is meant for unattended set-up. Use -Force (or -Confirm:$false) in
    scripts; -Force also replaces an existing task of the same name.

    .PARAMETER Name
    The task name (Windows task \ExchStorageTest\<Name>; Linux units exchstoragetest-<Name>).

    .PARAMETER ProfilePath
    The saved profile to run (New-MailboxProfile -SaveTo). It is validated now.

    .PARAMETER OutputPath
    Folder for the results, reports and run transcripts. Created when the task runs.

    .PARAMETER TestType
    Performance (default), Stress, DatabaseBackup, SoftRecovery or Throughput.

    .PARAMETER Duration
    Length of the measured window. Omitted: the engine's default for the test type.

    .PARAMETER Daily
    Runs every day at -At.

    .PARAMETER Weekly
    Runs every week on -DaysOfWeek at -At.

    .PARAMETER DaysOfWeek
    With -Weekly: the days to run on.

    .PARAMETER Once
    Runs once at -At.

    .PARAMETER At
    The local time (and, with -Once, the date) to run at.

    .PARAMETER Credential
    Windows: the account the task runs as (its password is stored by Task Scheduler).
    Linux: the user the service runs as (User=); the password is not used. Omitted: SYSTEM / root.

    .PARAMETER PowerShellPath
    The PowerShell executable the scheduler starts. Default: powershell.exe on Windows (Windows
    PowerShell 5.1), the pwsh running this command on Linux.

    .PARAMETER ScriptFolder
    Where the runner script is written. Default: %ProgramData%\ExchStorageTest\Tasks on Windows,
    /var/lib/exchstoragetest/tasks on Linux.

    .PARAMETER UnitPath
    Linux: the folder for the systemd unit files. Default: /etc/systemd/system.

    .PARAMETER Force
    Replaces an existing task (or unit files) of the same name, and runs without asking for
    confirmation.

    .PARAMETER WhatIf
    Shows what would be registered, without writing anything.

    .PARAMETER Confirm
    Asks for confirmation before registering.

    .EXAMPLE
    Register-StorageTestTask -Name Nightly -ProfilePath D:\Esrp\esrp.profile.json -OutputPath D:\Esrp\Nightly -Duration 02:00:00 -Daily -At 01:00 -Force

    Runs a two-hour performance test every night at 01:00 as SYSTEM; each run's results,
    reports and transcript go to D:\Esrp\Nightly.

    .EXAMPLE
    Register-StorageTestTask -Name WeekendStress -ProfilePath /srv/esrp/lab.json -OutputPath /srv/esrp/stress -TestType Stress -Weekly -DaysOfWeek Saturday -At 20:00 -Confirm:$false

    On Linux: writes exchstoragetest-WeekendStress.service and .timer and enables the timer.

    .INPUTS
    None

    .OUTPUTS
    ExchStorageTest.ScheduledTest

    .LINK
    Unregister-StorageTestTask

    .LINK
    Invoke-StorageTest

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding(DefaultParameterSetName = 'Daily', SupportsShouldProcess = $true, ConfirmImpact = 'Medium')]
    [OutputType('ExchStorageTest.ScheduledTest')]
    param(
        [Parameter(Mandatory = $true, Position = 0)]
        [ValidatePattern('^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$')]
        [string] $Name,

        [Parameter(Mandatory = $true)]
        [string] $ProfilePath,

        [Parameter(Mandatory = $true)]
        [string] $OutputPath,

        [ValidateSet('Performance', 'Stress', 'DatabaseBackup', 'SoftRecovery', 'Throughput')]
        [string] $TestType = 'Performance',

        [timespan] $Duration,

        [Parameter(Mandatory = $true, ParameterSetName = 'Daily')]
        [switch] $Daily,

        [Parameter(Mandatory = $true, ParameterSetName = 'Weekly')]
        [switch] $Weekly,

        [Parameter(Mandatory = $true, ParameterSetName = 'Weekly')]
        [System.DayOfWeek[]] $DaysOfWeek,

        [Parameter(Mandatory = $true, ParameterSetName = 'Once')]
        [switch] $Once,

        [Parameter(Mandatory = $true)]
        [datetime] $At,

        [System.Management.Automation.PSCredential] $Credential,

        [string] $PowerShellPath,

        [string] $ScriptFolder,

        [string] $UnitPath = '/etc/systemd/system',

        [switch] $Force
    )

    if ($Force -and -not $PSBoundParameters.ContainsKey('Confirm')) {
        $ConfirmPreference = 'None'
    }
    try {
        $onWindows = Test-WindowsHost
        $profileFile = Resolve-UserPath -Path $ProfilePath
        $checkedProfile = Read-MailboxProfileFile -Path $profileFile
        $outputFolder = Resolve-UserPath -Path $OutputPath
        $durationValue = $null
        if ($PSBoundParameters.ContainsKey('Duration')) {
            if ($Duration -le [timespan]::Zero -or $Duration -gt [timespan]::FromDays(30)) {
                throw (New-ModuleErrorRecord -ErrorId 'InvalidDuration' -Message "Duration '$Duration' is not valid: it must be greater than zero and at most 30 days." -Category InvalidArgument -TargetObject $Duration)
            }
            $durationValue = $Duration
        }

        $folder = Get-StorageTestTaskFolder -ScriptFolder $ScriptFolder -OnWindows $onWindows
        $folder = Resolve-UserPath -Path $folder
        $runnerPath = [System.IO.Path]::Combine($folder, "$Name.ps1")
        $executable = $PowerShellPath
        if ([string]::IsNullOrWhiteSpace($executable)) {
            if ($onWindows) {
                $executable = 'powershell.exe'
            }
            else {
                $executable = [System.Diagnostics.Process]::GetCurrentProcess().MainModule.FileName
            }
        }
        $runner = New-StorageTestRunnerScript -Name $Name -ModuleManifestPath $script:ModuleManifestPath -ProfilePath $profileFile -OutputPath $outputFolder -TestType $TestType -Duration $durationValue
        $schedule = switch ($PSCmdlet.ParameterSetName) {
            'Weekly' { 'Weekly on {0} at {1:HH:mm}' -f [string]::Join(', ', @($DaysOfWeek | ForEach-Object { [string]$_ })), $At }
            'Once' { 'Once at {0:yyyy-MM-dd HH:mm}' -f $At }
            default { 'Daily at {0:HH:mm}' -f $At }
        }
        $account = 'SYSTEM'
        if ($null -ne $Credential) {
            $account = $Credential.UserName
        }
        elseif (-not $onWindows) {
            $account = 'root'
        }
        $what = "Schedule a $TestType storage test of profile '$($checkedProfile.Name)' ($schedule, as $account), results in '$outputFolder'"

        if ($onWindows) {
            $taskPath = '\ExchStorageTest\'
            $existing = Get-ScheduledTask -TaskName $Name -TaskPath $taskPath -ErrorAction SilentlyContinue
            if ($null -ne $existing -and -not $Force) {
                throw (New-ModuleErrorRecord -ErrorId 'TaskExists' -Message "A scheduled task '$taskPath$Name' already exists. Use -Force to replace it, or Unregister-StorageTestTask -Name $Name." -Category ResourceExists -TargetObject $Name)
            }
            if (-not $PSCmdlet.ShouldProcess("$taskPath$Name", $what)) {
                return
            }
            if (-not [System.IO.Directory]::Exists($folder)) {
                $null = New-Item -Path $folder -ItemType Directory -Force
            }
            # With a byte-order mark: Windows PowerShell 5.1 reads a script without one as ANSI.
            [System.IO.File]::WriteAllText($runnerPath, $runner, (New-Object -TypeName System.Text.UTF8Encoding -ArgumentList $true))

            $action = New-ScheduledTaskAction -Execute $executable -Argument ('-NoProfile -NonInteractive -ExecutionPolicy Bypass -File "{0}"' -f $runnerPath)
            if ($PSCmdlet.ParameterSetName -eq 'Weekly') {
                $trigger = New-ScheduledTaskTrigger -Weekly -DaysOfWeek $DaysOfWeek -At $At
            }
            elseif ($PSCmdlet.ParameterSetName -eq 'Once') {
                $trigger = New-ScheduledTaskTrigger -Once -At $At
            }
            else {
                $trigger = New-ScheduledTaskTrigger -Daily -At $At
            }
            $taskSettings = New-ScheduledTaskSettingsSet -StartWhenAvailable -MultipleInstances IgnoreNew -ExecutionTimeLimit ([timespan]::FromDays(3))
            $register = @{
                TaskName    = $Name
                TaskPath    = $taskPath
                Action      = $action
                Trigger     = $trigger
                Settings    = $taskSettings
                RunLevel    = 'Highest'
                Description = "ExchStorageTest: $what. Exit codes: 0 Pass, 1 Fail, 2 error, 3 stopped."
                Force       = $true
                ErrorAction = 'Stop'
            }
            if ($null -ne $Credential) {
                $register.User = $Credential.UserName
                $register.Password = $Credential.GetNetworkCredential().Password
            }
            else {
                $register.User = 'NT AUTHORITY\SYSTEM'
            }
            $task = Register-ScheduledTask @register
            [pscustomobject]@{
                PSTypeName   = 'ExchStorageTest.ScheduledTest'
                Name         = $Name
                Platform     = 'Windows'
                Schedule     = $schedule
                Account      = $account
                ProfilePath  = $profileFile
                OutputPath   = $outputFolder
                RunnerScript = $runnerPath
                TaskPath     = $taskPath
                Task         = $task
                ServiceUnit  = $null
                TimerUnit    = $null
            }
            return
        }

        # Linux (and other systemd hosts): a oneshot service and its timer.
        $unitFolder = Resolve-UserPath -Path $UnitPath
        $unitName = 'exchstoragetest-{0}' -f $Name
        $servicePath = [System.IO.Path]::Combine($unitFolder, "$unitName.service")
        $timerPath = [System.IO.Path]::Combine($unitFolder, "$unitName.timer")
        if (([System.IO.File]::Exists($servicePath) -or [System.IO.File]::Exists($timerPath)) -and -not $Force) {
            throw (New-ModuleErrorRecord -ErrorId 'TaskExists' -Message "The systemd units '$unitName' already exist in '$unitFolder'. Use -Force to replace them, or Unregister-StorageTestTask -Name $Name." -Category ResourceExists -TargetObject $Name)
        }
        $calendar = ConvertTo-SystemdCalendar -Schedule $PSCmdlet.ParameterSetName -At $At -DaysOfWeek $DaysOfWeek
        $service = @(
            '[Unit]'
            "Description=ExchStorageTest scheduled storage test '$Name' (exit codes: 0 Pass, 1 Fail, 2 error, 3 stopped)"
            'After=local-fs.target network-online.target'
            ''
            '[Service]'
            'Type=oneshot'
            ('ExecStart="{0}" -NoProfile -NonInteractive -File "{1}"' -f $executable, $runnerPath)
            'TimeoutStartSec=infinity'
        )
        if ($null -ne $Credential) {
            $service += ('User={0}' -f $Credential.UserName)
        }
        $timer = @(
            '[Unit]'
            "Description=Schedule of the ExchStorageTest storage test '$Name' ($schedule)"
            ''
            '[Timer]'
            "OnCalendar=$calendar"
            'Persistent=true'
            "Unit=$unitName.service"
            ''
            '[Install]'
            'WantedBy=timers.target'
        )
        if (-not $PSCmdlet.ShouldProcess($timerPath, $what)) {
            return
        }
        foreach ($path in @($folder, $unitFolder)) {
            if (-not [System.IO.Directory]::Exists($path)) {
                $null = New-Item -Path $path -ItemType Directory -Force
            }
        }
        Write-Utf8File -Path $runnerPath -Text $runner
        Write-Utf8File -Path $servicePath -Text ([string]::Join("`n", $service) + "`n")
        Write-Utf8File -Path $timerPath -Text ([string]::Join("`n", $timer) + "`n")
        $null = Invoke-Systemctl -ArgumentList @('daemon-reload')
        $null = Invoke-Systemctl -ArgumentList @('enable', '--now', "$unitName.timer")
        [pscustomobject]@{
            PSTypeName   = 'ExchStorageTest.ScheduledTest'
            Name         = $Name
            Platform     = 'Linux'
            Schedule     = $schedule
            Account      = $account
            ProfilePath  = $profileFile
            OutputPath   = $outputFolder
            RunnerScript = $runnerPath
            TaskPath     = $null
            Task         = $null
            ServiceUnit  = $servicePath
            TimerUnit    = $timerPath
        }
    }
    catch {
        $PSCmdlet.ThrowTerminatingError($_)
    }
}
