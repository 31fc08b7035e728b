function ConvertTo-IsoUtcString {
    <#
    .SYNOPSIS
    Formats an instant as ISO-8601 UTC with a 'Z' (round-trip format), the form every file and request uses.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [object] $Value
    )

    $utc = ConvertTo-UtcDateTime -Value $Value
    if ($null -eq $utc) {
        throw (New-ModuleErrorRecord -ErrorId 'InvalidStartTime' -Message "'$Value' is not a date and time." -Category InvalidArgument -TargetObject $Value)
    }
    $utc.ToString('yyyy-MM-ddTHH:mm:ss.fffZ', [System.Globalization.CultureInfo]::InvariantCulture)
}
