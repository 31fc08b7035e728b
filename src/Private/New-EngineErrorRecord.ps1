function New-EngineErrorRecord {
    <#
    .SYNOPSIS
    Turns an engine 'error' event into an ErrorRecord (ErrorId 'ExchStorageTest.<code>').

    .DESCRIPTION
    The engine's codes are stable and become ErrorIds unchanged, so a script can match
    'ExchStorageTest.InsufficientSpace' whether the module or the engine found the problem.
    #>
    [CmdletBinding()]
    [OutputType([System.Management.Automation.ErrorRecord])]
    param(
        [Parameter(Mandatory = $true)]
        [object] $EngineEvent
    )

    $code = [string](Get-EventValue -InputObject $EngineEvent -Name 'code' -Default 'EngineError')
    if ([string]::IsNullOrWhiteSpace($code)) {
        $code = 'EngineError'
    }
    $message = [string](Get-EventValue -InputObject $EngineEvent -Name 'message' -Default '')
    if ([string]::IsNullOrWhiteSpace($message)) {
        $message = "The engine reported error '$code' without a message."
    }
    $category = ConvertTo-ErrorCategory -Name ([string](Get-EventValue -InputObject $EngineEvent -Name 'category'))
    $target = Get-EventValue -InputObject $EngineEvent -Name 'target'

    New-ModuleErrorRecord -ErrorId $code -Message $message -Category $category -TargetObject $target
}
