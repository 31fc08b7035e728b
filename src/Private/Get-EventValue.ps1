function Get-EventValue {
    <#
    .SYNOPSIS
    Reads the first present property of an engine event (or any object), or a default.

    .DESCRIPTION
    Engine events are parsed JSON (PSCustomObject). Fields can be absent or renamed between
    engine versions, so readers ask for a list of candidate names and never fail on a missing
    one. Works on hashtables too, which keeps unit tests simple.
    Arrays are unrolled like any function output: callers that expect a list wrap the call in @().
    #>
    [CmdletBinding()]
    param(
        [AllowNull()]
        [object] $InputObject,

        [Parameter(Mandatory = $true)]
        [string[]] $Name,

        [AllowNull()]
        [object] $Default = $null
    )

    if ($null -eq $InputObject) {
        return $Default
    }
    foreach ($candidate in $Name) {
        if ($InputObject -is [System.Collections.IDictionary]) {
            if ($InputObject.Contains($candidate)) {
                return $InputObject[$candidate]
            }
            continue
        }
        $property = $InputObject.PSObject.Properties[$candidate]
        if ($null -ne $property) {
            return $property.Value
        }
    }
    $Default
}
