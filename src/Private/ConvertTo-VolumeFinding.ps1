function ConvertTo-VolumeFinding {
    <#
    .SYNOPSIS
    Turns one finding of the engine's 'inspect' output into an ExchStorageTest.VolumeFinding.
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.VolumeFinding')]
    param(
        [Parameter(Mandatory = $true)]
        [object] $InputObject
    )

    [pscustomobject]@{
        PSTypeName = 'ExchStorageTest.VolumeFinding'
        Path       = Get-EventValue -InputObject $InputObject -Name 'path', 'target'
        Volume     = Get-EventValue -InputObject $InputObject -Name 'volume', 'mountPoint', 'device'
        Check      = Get-EventValue -InputObject $InputObject -Name 'check', 'code', 'name'
        Severity   = Get-EventValue -InputObject $InputObject -Name 'severity', 'level', 'result' -Default 'Info'
        Measured   = Get-EventValue -InputObject $InputObject -Name 'measured', 'value'
        Expected   = Get-EventValue -InputObject $InputObject -Name 'expected', 'limit'
        Message    = Get-EventValue -InputObject $InputObject -Name 'message'
        Advice     = Get-EventValue -InputObject $InputObject -Name 'advice'
        FileSystem = Get-EventValue -InputObject $InputObject -Name 'fileSystem'
    }
}
