function Write-EngineLog {
    <#
    .SYNOPSIS
    Routes an engine 'log' event to the matching PowerShell stream.

    .DESCRIPTION
    verbose -> Write-Verbose, info -> Write-Information (tagged ExchStorageTest, so
    -InformationAction Continue or -InformationVariable collect it), warning -> Write-Warning.
    Unknown levels go to the verbose stream rather than being lost.
    #>
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)]
        [object] $EngineEvent
    )

    $message = [string](Get-EventValue -InputObject $EngineEvent -Name 'message' -Default '')
    $level = [string](Get-EventValue -InputObject $EngineEvent -Name 'level' -Default 'verbose')
    switch ($level.ToLowerInvariant()) {
        'warning' { Write-Warning -Message $message }
        'info' { Write-Information -MessageData $message -Tags 'ExchStorageTest' }
        default { Write-Verbose -Message $message }
    }
}
