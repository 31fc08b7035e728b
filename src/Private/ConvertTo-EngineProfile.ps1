function ConvertTo-EngineProfile {
    <#
    .SYNOPSIS
    Returns the profile as the ordered, camelCase dictionary the engine request and profile files use.

    .DESCRIPTION
    Only the settings travel; derived figures are the engine's to recompute. Arrays are cast to
    [string[]] so Windows PowerShell 5.1's ConvertTo-Json never emits its {"value":[],"Count":n}
    wrapper for PSObject-wrapped arrays.
    #>
    [CmdletBinding()]
    [OutputType([System.Collections.Specialized.OrderedDictionary])]
    param(
        [Parameter(Mandatory = $true)]
        [object] $MailboxProfile
    )

    $threadCount = $null
    if ($null -ne $MailboxProfile.ThreadCount) {
        $threadCount = [int]$MailboxProfile.ThreadCount
    }
    [ordered]@{
        name                   = [string]$MailboxProfile.Name
        description            = [string]$MailboxProfile.Description
        mailboxCount           = [int]$MailboxProfile.MailboxCount
        iopsPerMailbox         = [double]$MailboxProfile.IopsPerMailbox
        headroomPercent        = [double]$MailboxProfile.HeadroomPercent
        mailboxSizeMB          = [long]$MailboxProfile.MailboxSizeMB
        databaseCount          = [int]$MailboxProfile.DatabaseCount
        copiesPerDatabase      = [int]$MailboxProfile.CopiesPerDatabase
        databasePaths          = [string[]]@($MailboxProfile.DatabasePaths)
        logPaths               = [string[]]@($MailboxProfile.LogPaths)
        threadCount            = $threadCount
        backgroundMaintenance  = [bool]$MailboxProfile.BackgroundMaintenance
        minimumDatabaseCacheMB = [long]$MailboxProfile.MinimumDatabaseCacheMB
        maximumDatabaseCacheMB = [long]$MailboxProfile.MaximumDatabaseCacheMB
    }
}
