function Unregister-StorageTestTask {
    <#
    .SYNOPSIS
    Removes a scheduled storage test created by Register-StorageTestTask, and its runner script.

    .DESCRIPTION
    On Windows it unregisters the task \ExchStorageTest\<Name> (Unregister-ScheduledTask). On
    Linux it disables and stops the timer, then deletes exchstoragetest-<Name>.service and
    .timer and reloads systemd. The runner script is deleted too; results and transcripts stay.
    A name that is not registered is an error (ExchStorageTest.TaskNotFound). Use -Force or
    -Confirm:$false in scripts.

    .PARAMETER Name
    The task name given to Register-StorageTestTask. Binds by property name from its output.

    .PARAMETER ScriptFolder
    Where the runner script was written, when Register-StorageTestTask was given -ScriptFolder.

    .PARAMETER UnitPath
    Linux: the folder of the unit files, when Register-StorageTestTask was given -UnitPath.

    .PARAMETER Force
    Runs without asking for confirmation.

    .PARAMETER WhatIf
    Shows what would be removed, without removing it.

    .PARAMETER Confirm
    Asks for confirmation before removing the task.

    .EXAMPLE
    Unregister-StorageTestTask -Name Nightly -Force

    Removes the nightly storage test and its runner script.

    .EXAMPLE
    Register-StorageTestTask -Name Trial -ProfilePath .\p.json -OutputPath .\out -Once -At (Get-Date).AddHours(1) -Force | Unregister-StorageTestTask -WhatIf

    Shows what removing the task just registered would do.

    .INPUTS
    ExchStorageTest.ScheduledTest (Name)

    .OUTPUTS
    None

    .LINK
    Register-StorageTestTask

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding(SupportsShouldProcess = $true, ConfirmImpact = 'Medium')]
    [OutputType([void])]
    param(
        [Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)]
        [ValidatePattern('^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$')]
        [string] $Name,

        [string] $ScriptFolder,

        [string] $UnitPath = '/etc/systemd/system',

        [switch] $Force
    )

    begin {
        if ($Force -and -not $PSBoundParameters.ContainsKey('Confirm')) {
            $ConfirmPreference = 'None'
        }
    }

    process {
        try {
            $onWindows = Test-WindowsHost
            $folder = Get-StorageTestTaskFolder -ScriptFolder $ScriptFolder -OnWindows $onWindows
            $runnerPath = [System.IO.Path]::Combine((Resolve-UserPath -Path $folder), "$Name.ps1")

            if ($onWindows) {
                $taskPath = '\ExchStorageTest\'
                $existing = Get-ScheduledTask -TaskName $Name -TaskPath $taskPath -ErrorAction SilentlyContinue
                if ($null -eq $existing) {
                    throw (New-ModuleErrorRecord -ErrorId 'TaskNotFound' -Message "No scheduled storage test '$taskPath$Name' is registered." -Category ObjectNotFound -TargetObject $Name)
                }
                if (-not $PSCmdlet.ShouldProcess("$taskPath$Name", 'Unregister the scheduled storage test and delete its runner script')) {
                    return
                }
                Unregister-ScheduledTask -TaskName $Name -TaskPath $taskPath -Confirm:$false -ErrorAction Stop
            }
            else {
                $unitFolder = Resolve-UserPath -Path $UnitPath
                $unitName = 'exchstoragetest-{0}' -f $Name
                $servicePath = [System.IO.Path]::Combine($unitFolder, "$unitName.service")
                $timerPath = [System.IO.Path]::Combine($unitFolder, "$unitName.timer")
                if (-not [System.IO.File]::Exists($timerPath) -and -not [System.IO.File]::Exists($servicePath)) {
                    throw (New-ModuleErrorRecord -ErrorId 'TaskNotFound' -Message "No systemd units '$unitName' exist in '$unitFolder'." -Category ObjectNotFound -TargetObject $Name)
                }
                if (-not $PSCmdlet.ShouldProcess($timerPath, 'Disable the timer and delete the storage test units and runner script')) {
                    return
                }
                if ([System.IO.File]::Exists($timerPath)) {
                    $null = Invoke-Systemctl -ArgumentList @('disable', '--now', "$unitName.timer")
                }
                foreach ($path in @($timerPath, $servicePath)) {
                    if ([System.IO.File]::Exists($path)) {
                        [System.IO.File]::Delete($path)
                    }
                }
                $null = Invoke-Systemctl -ArgumentList @('daemon-reload')
            }
            if ([System.IO.File]::Exists($runnerPath)) {
                [System.IO.File]::Delete($runnerPath)
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }
}
