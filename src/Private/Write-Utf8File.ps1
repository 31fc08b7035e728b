function Write-Utf8File {
    <#
    .SYNOPSIS
    Writes text as UTF-8 without a byte-order mark.

    .DESCRIPTION
    Out-File and Set-Content pick different default encodings in 5.1 (UTF-16LE, ANSI) and 7
    (UTF-8 without BOM), and -Encoding UTF8 adds a BOM in 5.1. The engine and other tools read
    these files too, so the module writes one encoding everywhere.
    #>
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path,

        [Parameter(Mandatory = $true)]
        [AllowEmptyString()]
        [string] $Text
    )

    $encoding = New-Object -TypeName System.Text.UTF8Encoding -ArgumentList $false
    [System.IO.File]::WriteAllText($Path, $Text, $encoding)
}
