function Get-PreparationEstimate {
    <#
    .SYNOPSIS
    Estimates how long a host needs to prepare its databases, in seconds, from the engine's plan.

    .DESCRIPTION
    Files the plan marks as existing are reused; the rest are created at an assumed sustained
    write rate (100 MB/s: a conservative figure for arrays still serving other hosts), plus a
    fixed 15 s for starting the engine and opening files. It only sets how far in the future
    the common start instant lies: the engine waits for that instant after preparing, and a host
    that is not ready in time starts late and says so in its log.
    #>
    [CmdletBinding()]
    [OutputType([double])]
    param(
        [AllowNull()]
        [object] $Plan,

        [double] $BytesPerSecond = 104857600
    )

    $bytes = [double]0
    foreach ($file in @(Get-EventValue -InputObject $Plan -Name 'files')) {
        if ($null -eq $file) {
            continue
        }
        if ([bool](Get-EventValue -InputObject $file -Name 'exists' -Default $false)) {
            continue
        }
        $bytes += [double](Get-EventValue -InputObject $file -Name 'sizeBytes' -Default 0)
    }
    [double](15 + [System.Math]::Ceiling($bytes / $BytesPerSecond))
}
