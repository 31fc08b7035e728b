function Format-ByteSize {
    <#
    .SYNOPSIS
    Formats a byte count for people: 52428800 -> '50.0 MB'.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [double] $Bytes
    )

    $units = @('bytes', 'KB', 'MB', 'GB', 'TB', 'PB')
    $value = $Bytes
    $index = 0
    while ([System.Math]::Abs($value) -ge 1024 -and $index -lt ($units.Count - 1)) {
        $value = $value / 1024
        $index++
    }
    if ($index -eq 0) {
        return ('{0:N0} {1}' -f $value, $units[$index])
    }
    '{0:N1} {1}' -f $value, $units[$index]
}
