function ConvertTo-SystemdCalendar {
    <#
    .SYNOPSIS
    Turns a Daily, Weekly or Once schedule into a systemd OnCalendar expression (local time).

    .DESCRIPTION
    Daily 01:30 -> '*-*-* 01:30:00'; Weekly Saturday, Sunday 20:00 -> 'Sat,Sun *-*-* 20:00:00';
    Once 2024-06-01 02:00 -> '2024-06-01 02:00:00'. Task Scheduler and systemd both read the
    time as the host's local time.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [ValidateSet('Daily', 'Weekly', 'Once')]
        [string] $Schedule,

        [Parameter(Mandatory = $true)]
        [datetime] $At,

        [AllowNull()]
        [System.DayOfWeek[]] $DaysOfWeek
    )

    $culture = [System.Globalization.CultureInfo]::InvariantCulture
    $time = $At.ToString('HH:mm:ss', $culture)
    if ($Schedule -eq 'Once') {
        return ('{0} {1}' -f $At.ToString('yyyy-MM-dd', $culture), $time)
    }
    if ($Schedule -eq 'Weekly') {
        $days = @($DaysOfWeek | Sort-Object | Select-Object -Unique | ForEach-Object { ([string]$_).Substring(0, 3) })
        if ($days.Count -eq 0) {
            throw (New-ModuleErrorRecord -ErrorId 'DaysOfWeekMissing' -Message 'A weekly schedule needs -DaysOfWeek.' -Category InvalidArgument -TargetObject $null)
        }
        return ('{0} *-*-* {1}' -f [string]::Join(',', $days), $time)
    }
    '*-*-* {0}' -f $time
}
