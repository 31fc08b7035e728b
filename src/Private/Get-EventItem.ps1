function Get-EventItem {
    <#
    .SYNOPSIS
    Returns the items of an engine event's list field, or the event itself when it has none.

    .DESCRIPTION
    The verify and inspect commands report either one event carrying a list (files, findings)
    or one event per item. Callers get the items either way, so one loop handles both shapes.
    #>
    [CmdletBinding()]
    param(
        [AllowNull()]
        [object] $InputObject,

        [Parameter(Mandatory = $true)]
        [string] $Name
    )

    $items = @(Get-EventValue -InputObject $InputObject -Name $Name)
    if ($items.Count -eq 0 -or ($items.Count -eq 1 -and $null -eq $items[0])) {
        $items = @($InputObject)
    }
    $items
}
