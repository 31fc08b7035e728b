function New-MailboxProfile {
    <#
    .SYNOPSIS
    Creates a mailbox profile: the simulated Exchange deployment whose storage load a test generates.

    .DESCRIPTION
    A mailbox profile describes the deployment the storage must carry, in the terms Jetstress
    users know: mailbox count, the tested IOPS per mailbox (with an optional extra headroom
    percentage), mailbox size, database count, copies per database, database and log paths (one
    root folder, or one folder per database), thread count (omit it for automatic tuning),
    background database maintenance and database cache sizes.

    The command validates every value and stops with a terminating error whose ErrorId names the
    rule (for example ExchStorageTest.InvalidMailboxCount) and whose message names the value.
    It computes the target IOPS (mailboxes x IOPS per mailbox x (1 + headroom/100)), the size of
    each database, the total capacity and the mailboxes per database.

    The profile can be piped to Invoke-StorageTest, saved as UTF-8 JSON with -SaveTo and loaded
    later with Invoke-StorageTest -ProfilePath. -JetstressConfig imports an existing
    JetstressConfig.xml; parameters given as well override the imported values.

    Database objects from Get-MailboxDatabase can be piped in: EdbFilePath binds to -Path (the
    folder of the .edb file is used) and LogFolderPath to -LogPath.

    .PARAMETER Name
    Name of the profile, shown in reports: 1 to 64 letters, digits, spaces, '.', '_' or '-'.
    Defaults to 'MailboxProfile' (or the JetstressConfig.xml file name when importing).

    .PARAMETER Description
    Free text stored with the profile and shown in reports (at most 1024 characters).

    .PARAMETER MailboxCount
    Number of mailboxes to simulate on this host (1 to 1,000,000).

    .PARAMETER IopsPerMailbox
    The tested IOPS per mailbox, as in Jetstress: already including the usual 20% headroom
    (0.10 planned -> 0.12 tested). Greater than 0 and at most 100.

    .PARAMETER HeadroomPercent
    Optional extra headroom added on top of IopsPerMailbox, in percent (0 to 1000, default 0).

    .PARAMETER MailboxSizeMB
    Mailbox size (quota) in megabytes (1 to 1,048,576). Database size = mailboxes x size / databases.

    .PARAMETER DatabaseCount
    Number of databases (test instances), 1 to 1000 and at most MailboxCount. Defaults to the
    number of database paths when several are given, otherwise 1.

    .PARAMETER CopiesPerDatabase
    Copies per database in the database availability group (1 to 16, default 1). Above 1 the
    test adds log replication reads, as Jetstress does.

    .PARAMETER Path
    Database folder(s): one root folder (each database gets a sub-folder) or exactly one folder
    per database. Relative paths are resolved against the current location. Accepts strings,
    FileSystemInfo objects and Exchange EdbFilePath values (the .edb file's folder is used).

    .PARAMETER LogPath
    Log folder(s): none (logs next to each database), one root folder, or one folder per
    database. Accepts strings and Exchange LogFolderPath values.

    .PARAMETER ThreadCount
    Fixed number of sessions (Jetstress "threads"), 1 to 1024. Omit it for automatic tuning.

    .PARAMETER BackgroundMaintenance
    Whether to simulate background database maintenance (the sequential checksum scan).
    Default $true; use -BackgroundMaintenance $false to turn it off.

    .PARAMETER MinimumDatabaseCacheMB
    Minimum database cache of the simulated host, in MB (default 128).

    .PARAMETER MaximumDatabaseCacheMB
    Maximum database cache of the simulated host, in MB (default 1024; at least the minimum).

    .PARAMETER JetstressConfig
    Path of a Jetstress 2013 JetstressConfig.xml to import (MailboxCount, MailboxIops,
    MailboxQuota, DatabaseCopyCount, ThreadCount with SuppressTuning,
    RunDatabaseMaintenancePerformance, and the EseInstance database and log paths).

    .PARAMETER SaveTo
    Saves the profile as UTF-8 JSON to this file (after validation), for
    Invoke-StorageTest -ProfilePath. The folder must exist; an existing file needs -Force.

    .PARAMETER Force
    Overwrites the -SaveTo file if it exists.

    .PARAMETER WhatIf
    Shows the file -SaveTo would write without writing it.

    .PARAMETER Confirm
    Asks for confirmation before writing the -SaveTo file.

    .EXAMPLE
    New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path D:\ExchStorageTest | Invoke-StorageTest -Duration 00:00:30

    Creates a small profile (2 databases of 2.5 GB under D:\ExchStorageTest, 50 target IOPS)
    and runs a 30-second performance test with it.

    .EXAMPLE
    New-MailboxProfile -Name 'DAG1-Server' -MailboxCount 4000 -IopsPerMailbox 0.12 -MailboxSizeMB 2048 -DatabaseCount 4 -CopiesPerDatabase 3 -Path 'E:\DB1','E:\DB2','E:\DB3','E:\DB4' -LogPath 'F:\Logs' -SaveTo .\dag1.profile.json

    Creates a profile with one folder per database and a shared log root, and saves it for
    later runs (Invoke-StorageTest -ProfilePath .\dag1.profile.json).

    .EXAMPLE
    Get-MailboxDatabase -Server EX01 | New-MailboxProfile -MailboxCount 2250 -IopsPerMailbox 0.12 -MailboxSizeMB 2048

    Builds the profile from the databases of an existing server: one database per
    EdbFilePath folder, logs in each LogFolderPath.

    .EXAMPLE
    New-MailboxProfile -JetstressConfig .\JetstressConfig.xml -ThreadCount 8

    Imports an existing Jetstress configuration and fixes the thread count.

    .INPUTS
    System.String, System.Object. Database objects (EdbFilePath, LogFolderPath) bind by property name.

    .OUTPUTS
    ExchStorageTest.MailboxProfile

    .LINK
    Invoke-StorageTest

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding(DefaultParameterSetName = 'Explicit', SupportsShouldProcess = $true, ConfirmImpact = 'Low')]
    [OutputType('ExchStorageTest.MailboxProfile')]
    param(
        [string] $Name,

        [string] $Description,

        [Parameter(Mandatory = $true, ParameterSetName = 'Explicit')]
        [Parameter(ParameterSetName = 'JetstressConfig')]
        [int] $MailboxCount,

        [Parameter(Mandatory = $true, ParameterSetName = 'Explicit')]
        [Parameter(ParameterSetName = 'JetstressConfig')]
        [double] $IopsPerMailbox,

        [double] $HeadroomPercent,

        [Parameter(Mandatory = $true, ParameterSetName = 'Explicit')]
        [Parameter(ParameterSetName = 'JetstressConfig')]
        [long] $MailboxSizeMB,

        [int] $DatabaseCount,

        [int] $CopiesPerDatabase,

        [Parameter(Mandatory = $true, ParameterSetName = 'Explicit', ValueFromPipelineByPropertyName = $true)]
        [Parameter(ParameterSetName = 'JetstressConfig', ValueFromPipelineByPropertyName = $true)]
        [Alias('DatabasePath', 'EdbFilePath')]
        [object[]] $Path,

        [Parameter(ValueFromPipelineByPropertyName = $true)]
        [Alias('LogFolderPath')]
        [object[]] $LogPath,

        [int] $ThreadCount,

        [bool] $BackgroundMaintenance,

        [long] $MinimumDatabaseCacheMB,

        [long] $MaximumDatabaseCacheMB,

        [Parameter(Mandatory = $true, ParameterSetName = 'JetstressConfig')]
        [string] $JetstressConfig,

        [Alias('ProfilePath')]
        [string] $SaveTo,

        [switch] $Force
    )

    begin {
        $databasePaths = New-Object -TypeName System.Collections.Generic.List[string]
        $logPaths = New-Object -TypeName System.Collections.Generic.List[string]
    }

    process {
        try {
            foreach ($item in @(ConvertTo-PathString -InputObject $Path)) {
                $databasePaths.Add((ConvertTo-DatabaseFolder -Path (Resolve-UserPath -Path $item)))
            }
            foreach ($item in @(ConvertTo-PathString -InputObject $LogPath)) {
                $logPaths.Add((Resolve-UserPath -Path $item))
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }

    end {
        try {
            $settings = @{}
            if ($PSCmdlet.ParameterSetName -eq 'JetstressConfig') {
                $settings = Import-JetstressConfig -Path (Resolve-UserPath -Path $JetstressConfig)
            }

            # Parameters given explicitly win over imported values; the rest keep their defaults.
            $names = @('Name', 'Description', 'MailboxCount', 'IopsPerMailbox', 'HeadroomPercent', 'MailboxSizeMB', 'DatabaseCount', 'CopiesPerDatabase', 'ThreadCount', 'BackgroundMaintenance', 'MinimumDatabaseCacheMB', 'MaximumDatabaseCacheMB')
            foreach ($parameterName in $names) {
                if ($PSBoundParameters.ContainsKey($parameterName)) {
                    $settings[$parameterName] = $PSBoundParameters[$parameterName]
                }
            }
            if ($databasePaths.Count -gt 0) {
                $settings.DatabasePaths = $databasePaths.ToArray()
                if (-not $PSBoundParameters.ContainsKey('DatabaseCount') -and $databasePaths.Count -gt 1) {
                    $settings.DatabaseCount = $databasePaths.Count
                }
            }
            if ($logPaths.Count -gt 0) {
                $settings.LogPaths = $logPaths.ToArray()
            }

            $mailboxProfile = ConvertTo-MailboxProfile -InputObject $settings

            if ($PSBoundParameters.ContainsKey('SaveTo')) {
                Save-MailboxProfile -MailboxProfile $mailboxProfile -Path (Resolve-UserPath -Path $SaveTo) -Force:$Force -Cmdlet $PSCmdlet
            }
            $mailboxProfile
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }
}
