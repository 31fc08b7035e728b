function ConvertTo-UtcDateTime {
    <#
    .SYNOPSIS
    Turns a date from JSON or a user into a UTC DateTime, or $null.

    .DESCRIPTION
    Windows PowerShell 5.1's ConvertFrom-Json leaves ISO-8601 dates as strings; PowerShell 7
    turns them into DateTime values whose Kind depends on the text and the version. Both arrive
    here: strings are parsed as UTC unless they carry an offset, Local values are converted, and
    Unspecified values are taken as UTC (the engine and the start file always write UTC).
    #>
    [CmdletBinding()]
    [OutputType([datetime])]
    param(
        [AllowNull()]
        [object] $Value
    )

    if ($null -eq $Value) {
        return $null
    }
    if ($Value -is [datetime]) {
        if ($Value.Kind -eq [System.DateTimeKind]::Local) {
            return $Value.ToUniversalTime()
        }
        return [datetime]::SpecifyKind($Value, [System.DateTimeKind]::Utc)
    }
    if ($Value -is [System.DateTimeOffset]) {
        return $Value.UtcDateTime
    }
    $text = [string]$Value
    if ([string]::IsNullOrWhiteSpace($text)) {
        return $null
    }
    $styles = [System.Globalization.DateTimeStyles]::AdjustToUniversal -bor [System.Globalization.DateTimeStyles]::AssumeUniversal
    $parsed = [datetime]::MinValue
    if ([datetime]::TryParse($text, [System.Globalization.CultureInfo]::InvariantCulture, $styles, [ref]$parsed)) {
        return [datetime]::SpecifyKind($parsed, [System.DateTimeKind]::Utc)
    }
    $null
}
