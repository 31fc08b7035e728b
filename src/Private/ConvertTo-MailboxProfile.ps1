function ConvertTo-MailboxProfile {
    <#
    .SYNOPSIS
    Validates profile settings from any source and returns an ExchStorageTest.MailboxProfile object.

    .DESCRIPTION
    One gate for every way a profile arrives: New-MailboxProfile parameters (a hashtable), a
    saved profile file (parsed JSON, camelCase), a deserialized profile from a job or remote
    session, or a JetstressConfig.xml import. Property names are matched case-insensitively.
    Validation stops at the first problem with a stable ErrorId and a message naming the value
    and the rule; nothing is written by this function. Derived figures (target IOPS, sizes,
    mailboxes per database) are recomputed here, never trusted from the input.
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.MailboxProfile')]
    param(
        [Parameter(Mandatory = $true)]
        [AllowNull()]
        [object] $InputObject
    )

    if ($null -eq $InputObject -or $InputObject -is [string] -or $InputObject -is [System.ValueType] -or $InputObject -is [System.Array]) {
        throw (New-ModuleErrorRecord -ErrorId 'ProfileInvalid' -Message 'The profile must be an object with profile settings (from New-MailboxProfile or a saved profile file).' -Category InvalidArgument -TargetObject $InputObject)
    }

    $name = [string](Get-EventValue -InputObject $InputObject -Name 'Name' -Default 'MailboxProfile')
    if ($name -notmatch '^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$') {
        throw (New-ModuleErrorRecord -ErrorId 'InvalidProfileName' -Message "Name '$name' is not valid: a profile name must be 1 to 64 characters of letters, digits, spaces, '.', '_' or '-', starting with a letter or digit." -Category InvalidArgument -TargetObject $name)
    }
    $description = [string](Get-EventValue -InputObject $InputObject -Name 'Description' -Default '')
    if ($description.Length -gt 1024) {
        throw (New-ModuleErrorRecord -ErrorId 'InvalidDescription' -Message "Description is $($description.Length) characters long: it must be at most 1024 characters." -Category InvalidArgument -TargetObject $description)
    }

    $mailboxCount = [int](ConvertTo-CheckedNumber -Name 'MailboxCount' -Value (Get-EventValue -InputObject $InputObject -Name 'MailboxCount') -Minimum 1 -Maximum 1000000 -Integer -ErrorId 'InvalidMailboxCount')
    $iopsPerMailbox = ConvertTo-CheckedNumber -Name 'IopsPerMailbox' -Value (Get-EventValue -InputObject $InputObject -Name 'IopsPerMailbox') -Minimum 0 -ExclusiveMinimum -Maximum 100 -ErrorId 'InvalidIopsPerMailbox' -Hint 'the tested IOPS per mailbox, for example 0.12'
    $headroomPercent = ConvertTo-CheckedNumber -Name 'HeadroomPercent' -Value (Get-EventValue -InputObject $InputObject -Name 'HeadroomPercent' -Default 0) -Minimum 0 -Maximum 1000 -ErrorId 'InvalidHeadroomPercent'
    $mailboxSizeMB = [long](ConvertTo-CheckedNumber -Name 'MailboxSizeMB' -Value (Get-EventValue -InputObject $InputObject -Name 'MailboxSizeMB') -Minimum 1 -Maximum 1048576 -Integer -ErrorId 'InvalidMailboxSize' -Hint 'megabytes per mailbox, up to 1 TB')
    $databaseCount = [int](ConvertTo-CheckedNumber -Name 'DatabaseCount' -Value (Get-EventValue -InputObject $InputObject -Name 'DatabaseCount' -Default 1) -Minimum 1 -Maximum 1000 -Integer -ErrorId 'InvalidDatabaseCount')
    if ($databaseCount -gt $mailboxCount) {
        throw (New-ModuleErrorRecord -ErrorId 'InvalidDatabaseCount' -Message "DatabaseCount '$databaseCount' is not valid: it must not exceed MailboxCount ($mailboxCount), because every database holds at least one mailbox." -Category InvalidArgument -TargetObject $databaseCount)
    }
    $copiesPerDatabase = [int](ConvertTo-CheckedNumber -Name 'CopiesPerDatabase' -Value (Get-EventValue -InputObject $InputObject -Name 'CopiesPerDatabase' -Default 1) -Minimum 1 -Maximum 16 -Integer -ErrorId 'InvalidCopiesPerDatabase' -Hint 'a database availability group holds at most 16 copies')

    $threadCount = $null
    $threadValue = Get-EventValue -InputObject $InputObject -Name 'ThreadCount'
    if ($null -ne $threadValue -and [string]$threadValue -ne '') {
        $threadCount = [int](ConvertTo-CheckedNumber -Name 'ThreadCount' -Value $threadValue -Minimum 1 -Maximum 1024 -Integer -ErrorId 'InvalidThreadCount' -Hint 'omit it for automatic tuning')
    }

    $maintenanceValue = Get-EventValue -InputObject $InputObject -Name 'BackgroundMaintenance' -Default $true
    if ($null -eq $maintenanceValue) {
        $backgroundMaintenance = $true
    }
    elseif ($maintenanceValue -is [bool]) {
        $backgroundMaintenance = $maintenanceValue
    }
    elseif ([string]$maintenanceValue -match '^(true|false)$') {
        $backgroundMaintenance = [string]$maintenanceValue -eq 'true'
    }
    else {
        throw (New-ModuleErrorRecord -ErrorId 'InvalidBackgroundMaintenance' -Message "BackgroundMaintenance '$maintenanceValue' is not valid: it must be true or false." -Category InvalidArgument -TargetObject $maintenanceValue)
    }

    $minimumCacheMB = [long](ConvertTo-CheckedNumber -Name 'MinimumDatabaseCacheMB' -Value (Get-EventValue -InputObject $InputObject -Name 'MinimumDatabaseCacheMB' -Default 128) -Minimum 1 -Maximum 1048576 -Integer -ErrorId 'InvalidDatabaseCache')
    $maximumCacheMB = [long](ConvertTo-CheckedNumber -Name 'MaximumDatabaseCacheMB' -Value (Get-EventValue -InputObject $InputObject -Name 'MaximumDatabaseCacheMB' -Default 1024) -Minimum 1 -Maximum 1048576 -Integer -ErrorId 'InvalidDatabaseCache')
    if ($maximumCacheMB -lt $minimumCacheMB) {
        throw (New-ModuleErrorRecord -ErrorId 'InvalidDatabaseCache' -Message "MaximumDatabaseCacheMB '$maximumCacheMB' is not valid: it must be at least MinimumDatabaseCacheMB ($minimumCacheMB)." -Category InvalidArgument -TargetObject $maximumCacheMB)
    }

    $databasePaths = @(ConvertTo-PathString -InputObject @(Get-EventValue -InputObject $InputObject -Name 'DatabasePaths', 'DatabasePath', 'Path'))
    if ($databasePaths.Count -eq 0) {
        throw (New-ModuleErrorRecord -ErrorId 'DatabasePathMissing' -Message 'The profile has no database path: give one root folder (each database gets a sub-folder) or one folder per database.' -Category InvalidArgument -TargetObject $null)
    }
    if ($databasePaths.Count -ne 1 -and $databasePaths.Count -ne $databaseCount) {
        throw (New-ModuleErrorRecord -ErrorId 'DatabasePathCountMismatch' -Message "$($databasePaths.Count) database paths were given for $databaseCount databases: give one root folder or exactly one folder per database." -Category InvalidArgument -TargetObject $databasePaths)
    }
    $logPaths = @(ConvertTo-PathString -InputObject @(Get-EventValue -InputObject $InputObject -Name 'LogPaths', 'LogPath'))
    if ($logPaths.Count -gt 1 -and $logPaths.Count -ne $databaseCount) {
        throw (New-ModuleErrorRecord -ErrorId 'LogPathCountMismatch' -Message "$($logPaths.Count) log paths were given for $databaseCount databases: give none (logs next to each database), one root folder, or exactly one folder per database." -Category InvalidArgument -TargetObject $logPaths)
    }
    foreach ($path in @($databasePaths + $logPaths)) {
        if (-not [System.IO.Path]::IsPathRooted($path)) {
            throw (New-ModuleErrorRecord -ErrorId 'PathNotRooted' -Message "The path '$path' is not valid: database and log paths must be absolute (for example D:\ExchangeDatabases or /mnt/db)." -Category InvalidArgument -TargetObject $path)
        }
    }

    $totalCapacityMB = [double]$mailboxCount * $mailboxSizeMB
    [pscustomobject]@{
        PSTypeName             = 'ExchStorageTest.MailboxProfile'
        Name                   = $name
        Description            = $description
        MailboxCount           = $mailboxCount
        IopsPerMailbox         = $iopsPerMailbox
        HeadroomPercent        = $headroomPercent
        TargetIops             = [System.Math]::Round($mailboxCount * $iopsPerMailbox * (1 + $headroomPercent / 100), 3)
        MailboxSizeMB          = $mailboxSizeMB
        DatabaseCount          = $databaseCount
        MailboxesPerDatabase   = [int][System.Math]::Ceiling($mailboxCount / [double]$databaseCount)
        DatabaseSizeMB         = [System.Math]::Round($totalCapacityMB / $databaseCount, 2)
        TotalCapacityMB        = $totalCapacityMB
        CopiesPerDatabase      = $copiesPerDatabase
        DatabasePaths          = [string[]]$databasePaths
        LogPaths               = [string[]]$logPaths
        ThreadCount            = $threadCount
        BackgroundMaintenance  = $backgroundMaintenance
        MinimumDatabaseCacheMB = $minimumCacheMB
        MaximumDatabaseCacheMB = $maximumCacheMB
    }
}
