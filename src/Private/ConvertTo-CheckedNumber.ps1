function ConvertTo-CheckedNumber {
    <#
    .SYNOPSIS
    Converts a profile or parameter value to a number and checks its range, or throws ExchStorageTest.<ErrorId>.

    .DESCRIPTION
    Values arrive typed (parameters), as JSON numbers (int, long, decimal or double depending on
    the PowerShell version) or as XML text (JetstressConfig.xml). One converter gives all of them
    the same rule and the same message, which names the setting, the value and the rule.
    Strings are parsed with the invariant culture: '0.12' means the same on every server.
    #>
    [CmdletBinding()]
    [OutputType([double])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Name,

        [AllowNull()]
        [object] $Value,

        [Parameter(Mandatory = $true)]
        [double] $Minimum,

        [Parameter(Mandatory = $true)]
        [double] $Maximum,

        [switch] $ExclusiveMinimum,

        [switch] $Integer,

        [Parameter(Mandatory = $true)]
        [string] $ErrorId,

        [string] $Hint = ''
    )

    $number = [double]::NaN
    $parsed = $false
    if ($Value -is [string]) {
        $parsed = [double]::TryParse($Value.Trim(), [System.Globalization.NumberStyles]::Float, [System.Globalization.CultureInfo]::InvariantCulture, [ref]$number)
    }
    elseif ($Value -is [System.ValueType] -and -not ($Value -is [bool])) {
        try {
            $number = [double]$Value
            $parsed = $true
        }
        catch {
            $parsed = $false
        }
    }

    $lower = 'at least'
    if ($ExclusiveMinimum) {
        $lower = 'greater than'
    }
    $kind = 'a number'
    if ($Integer) {
        $kind = 'a whole number'
    }
    $rule = "$Name must be $kind $lower $Minimum and at most $Maximum"
    if ($Hint) {
        $rule = "$rule ($Hint)"
    }

    $shown = $Value
    if ($null -eq $Value) {
        $shown = '(none)'
    }
    $ok = $parsed -and -not [double]::IsNaN($number) -and -not [double]::IsInfinity($number)
    if ($ok) {
        if ($ExclusiveMinimum) {
            $ok = $number -gt $Minimum
        }
        else {
            $ok = $number -ge $Minimum
        }
        $ok = $ok -and $number -le $Maximum
    }
    if ($ok -and $Integer) {
        $ok = [System.Math]::Floor($number) -eq $number
    }
    if (-not $ok) {
        throw (New-ModuleErrorRecord -ErrorId $ErrorId -Message "$Name '$shown' is not valid: $rule." -Category InvalidArgument -TargetObject $Value)
    }
    $number
}
