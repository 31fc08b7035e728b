function ConvertTo-ChecksumResult {
    <#
    .SYNOPSIS
    Turns one file of the engine's 'verify' output into an ExchStorageTest.ChecksumResult.

    .DESCRIPTION
    Result is taken from the engine, or derived: Fail when any page or log is bad.
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.ChecksumResult')]
    param(
        [Parameter(Mandatory = $true)]
        [object] $InputObject
    )

    $badPages = Get-EventValue -InputObject $InputObject -Name 'badPages' -Default 0
    $badLogs = Get-EventValue -InputObject $InputObject -Name 'badLogs' -Default 0
    $result = Get-EventValue -InputObject $InputObject -Name 'result'
    if ($null -eq $result) {
        $result = 'Pass'
        if ([long]$badPages -gt 0 -or [long]$badLogs -gt 0) {
            $result = 'Fail'
        }
    }
    [pscustomobject]@{
        PSTypeName   = 'ExchStorageTest.ChecksumResult'
        Path         = Get-EventValue -InputObject $InputObject -Name 'path', 'target'
        Kind         = Get-EventValue -InputObject $InputObject -Name 'kind'
        PagesChecked = Get-EventValue -InputObject $InputObject -Name 'pagesChecked'
        BadPages     = $badPages
        LogsChecked  = Get-EventValue -InputObject $InputObject -Name 'logsChecked'
        BadLogs      = $badLogs
        Result       = $result
        Message      = Get-EventValue -InputObject $InputObject -Name 'message'
    }
}
