function Receive-StorageTestHostJob {
    <#
    .SYNOPSIS
    Receives what a host's job produced since the last call: output objects and errors.

    .DESCRIPTION
    The caller draws the progress bars itself (one child bar per host), so the job's own
    progress records are not replayed here: Receive-Job runs with progress silenced in this
    function's scope. Warnings, verbose and information messages pass through to the caller's
    streams as Receive-Job writes them. Errors are captured and returned, not written: the caller
    decides whether they make the host fail.
    #>
    [CmdletBinding()]
    [OutputType([hashtable])]
    param(
        [Parameter(Mandatory = $true)]
        [object] $Job
    )

    $ProgressPreference = 'SilentlyContinue'
    $receiveErrors = $null
    $output = @(Receive-Job -Job $Job -ErrorAction SilentlyContinue -ErrorVariable receiveErrors)
    @{
        Output = $output
        Errors = @($receiveErrors | Where-Object { $null -ne $_ })
    }
}
