function Invoke-Systemctl {
    <#
    .SYNOPSIS
    Runs systemctl with the given arguments; throws ExchStorageTest.SystemctlFailed on a non-zero exit.

    .DESCRIPTION
    One place for the native call, so Register-StorageTestTask's Linux path is testable with a mock.
    Errors: ExchStorageTest.SystemctlNotFound (no systemd here), ExchStorageTest.SystemctlFailed.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [string[]] $ArgumentList
    )

    $command = Get-Command -Name 'systemctl' -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
    if ($null -eq $command) {
        throw (New-ModuleErrorRecord -ErrorId 'SystemctlNotFound' -Message 'systemctl was not found: this host does not run systemd. The unit files were written; enable the timer with your init system.' -Category NotInstalled -TargetObject 'systemctl')
    }
    $output = & $command.Source @ArgumentList 2>&1 | ForEach-Object { [string]$_ }
    if ($LASTEXITCODE -ne 0) {
        throw (New-ModuleErrorRecord -ErrorId 'SystemctlFailed' -Message ("systemctl {0} failed (exit code {1}): {2}" -f [string]::Join(' ', $ArgumentList), $LASTEXITCODE, [string]::Join(' ', @($output))) -Category InvalidOperation -TargetObject 'systemctl')
    }
    $output
}
