function ConvertTo-ErrorCategory {
    <#
    .SYNOPSIS
    Maps the engine's category string to a PowerShell ErrorCategory.

    .DESCRIPTION
    The engine names categories after ErrorCategory members (InvalidArgument, ResourceUnavailable,
    ...). Anything unknown becomes NotSpecified rather than failing: a newer engine may add
    categories, and losing the error because of its category would be worse.
    #>
    [CmdletBinding()]
    [OutputType([System.Management.Automation.ErrorCategory])]
    param(
        [AllowNull()]
        [AllowEmptyString()]
        [string] $Name
    )

    $category = [System.Management.Automation.ErrorCategory]::NotSpecified
    if (-not [string]::IsNullOrWhiteSpace($Name) -and $Name -notmatch '^\d') {
        $names = [System.Enum]::GetNames([System.Management.Automation.ErrorCategory])
        if ($names -contains $Name) {
            $category = [System.Enum]::Parse([System.Management.Automation.ErrorCategory], $Name, $true)
        }
    }
    $category
}
