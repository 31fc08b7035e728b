function Write-StorageTestHostFailure {
    <#
    .SYNOPSIS
    Marks a host of a multi-host run as failed and reports it as ExchStorageTest.HostFailed.

    .DESCRIPTION
    A non-terminating error whose TargetObject is the host name, so the other hosts go on and
    scripts can collect the failed hosts with -ErrorVariable and match on the ErrorId.
    #>
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)]
        [object] $HostState,

        [Parameter(Mandatory = $true)]
        [string] $Reason,

        [Parameter(Mandatory = $true)]
        [System.Management.Automation.PSCmdlet] $Cmdlet,

        [AllowNull()]
        [System.Exception] $InnerException
    )

    $HostState.Failed = $true
    $HostState.Reason = $Reason
    $message = "Host '$($HostState.ComputerName)' failed: $Reason"
    $record = New-ModuleErrorRecord -ErrorId 'HostFailed' -Message $message -Category ResourceUnavailable -TargetObject ([string]$HostState.ComputerName) -InnerException $InnerException
    $Cmdlet.WriteError($record)
}
