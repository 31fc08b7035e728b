function ConvertTo-TestReport {
    <#
    .SYNOPSIS
    Turns the engine's 'report' event into an ExchStorageTest.TestReport object.

    .DESCRIPTION
    Known fields become properties; the whole event stays in Raw, so fields a newer engine adds
    are never lost and nothing fails on fields it leaves out.
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.TestReport')]
    param(
        [Parameter(Mandatory = $true)]
        [object] $EngineEvent,

        [string[]] $ResultsPath = @()
    )

    [pscustomobject]@{
        PSTypeName  = 'ExchStorageTest.TestReport'
        TestId      = [string[]]@(Get-EventValue -InputObject $EngineEvent -Name 'testIds', 'testId' | Where-Object { $null -ne $_ })
        Result      = Get-EventValue -InputObject $EngineEvent -Name 'result'
        Instances   = @(Get-EventValue -InputObject $EngineEvent -Name 'instances' | Where-Object { $null -ne $_ })
        Esrp        = Get-EventValue -InputObject $EngineEvent -Name 'esrp'
        Aggregate   = Get-EventValue -InputObject $EngineEvent -Name 'aggregate'
        Comparison  = Get-EventValue -InputObject $EngineEvent -Name 'comparison'
        Files       = [string[]]@(Get-EventValue -InputObject $EngineEvent -Name 'files' | Where-Object { $null -ne $_ } | ForEach-Object { [string](ConvertTo-PathString -InputObject $_) })
        ResultsPath = $ResultsPath
        Text        = Get-EventValue -InputObject $EngineEvent -Name 'text'
        Raw         = $EngineEvent
    }
}
