function Import-JetstressConfig {
    <#
    .SYNOPSIS
    Reads the profile settings of a Jetstress 2013 JetstressConfig.xml into a hashtable.

    .DESCRIPTION
    Existing Jetstress automation carries over: MailboxCount, MailboxIops, MailboxQuota (MB),
    DatabaseCopyCount, ThreadCount (used only when SuppressTuning is true, as Jetstress does),
    RunDatabaseMaintenancePerformance, and one database per EseInstance with its first
    DatabasePaths/Path and its LogPath. Elements are found by local name anywhere in the
    document, so namespaces and the exact nesting of Jetstress versions do not matter. External
    entities are never resolved. Errors: ExchStorageTest.JetstressConfigNotFound,
    ExchStorageTest.JetstressConfigMalformed (not XML, or a required element missing or empty).
    The result goes through ConvertTo-MailboxProfile like any other profile input.
    #>
    [CmdletBinding()]
    [OutputType([hashtable])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path
    )

    if (-not [System.IO.File]::Exists($Path)) {
        throw (New-ModuleErrorRecord -ErrorId 'JetstressConfigNotFound' -Message "The Jetstress configuration file '$Path' does not exist." -Category ObjectNotFound -TargetObject $Path)
    }

    $document = New-Object -TypeName System.Xml.XmlDocument
    $document.XmlResolver = $null
    try {
        $document.LoadXml([System.IO.File]::ReadAllText($Path))
    }
    catch {
        throw (New-ModuleErrorRecord -ErrorId 'JetstressConfigMalformed' -Message "The Jetstress configuration file '$Path' is not valid XML: $($_.Exception.GetBaseException().Message)" -Category InvalidData -TargetObject $Path -InnerException $_.Exception)
    }

    $settings = @{ Name = 'Jetstress' }
    $baseName = [System.IO.Path]::GetFileNameWithoutExtension($Path) -replace '[^A-Za-z0-9 ._-]', '-'
    if ($baseName -match '^[A-Za-z0-9]') {
        $settings.Name = $baseName.Substring(0, [System.Math]::Min(64, $baseName.Length))
    }

    $required = [ordered]@{ MailboxCount = 'MailboxCount'; MailboxIops = 'IopsPerMailbox'; MailboxQuota = 'MailboxSizeMB' }
    foreach ($element in $required.Keys) {
        $text = Get-XmlElementText -Document $document -LocalName $element
        if ([string]::IsNullOrWhiteSpace($text)) {
            throw (New-ModuleErrorRecord -ErrorId 'JetstressConfigMalformed' -Message "The Jetstress configuration file '$Path' has no <$element> value; it is required to build a mailbox profile." -Category InvalidData -TargetObject $Path)
        }
        $settings[$required[$element]] = $text
    }

    $copies = Get-XmlElementText -Document $document -LocalName 'DatabaseCopyCount'
    if (-not [string]::IsNullOrWhiteSpace($copies)) {
        $settings.CopiesPerDatabase = $copies
    }
    $suppressTuning = Get-XmlElementText -Document $document -LocalName 'SuppressTuning'
    $threads = Get-XmlElementText -Document $document -LocalName 'ThreadCount'
    if ($suppressTuning -eq 'true' -and -not [string]::IsNullOrWhiteSpace($threads)) {
        $settings.ThreadCount = $threads
    }
    $maintenance = Get-XmlElementText -Document $document -LocalName 'RunDatabaseMaintenancePerformance'
    if (-not [string]::IsNullOrWhiteSpace($maintenance)) {
        $settings.BackgroundMaintenance = $maintenance.ToLowerInvariant()
    }

    $databasePaths = New-Object -TypeName System.Collections.Generic.List[string]
    $logPaths = New-Object -TypeName System.Collections.Generic.List[string]
    foreach ($instance in @($document.SelectNodes("//*[local-name()='EseInstance']"))) {
        $databasePath = $instance.SelectSingleNode(".//*[local-name()='DatabasePaths']/*[local-name()='Path']")
        if ($null -eq $databasePath -or [string]::IsNullOrWhiteSpace($databasePath.InnerText)) {
            throw (New-ModuleErrorRecord -ErrorId 'JetstressConfigMalformed' -Message "The Jetstress configuration file '$Path' has an <EseInstance> without <DatabasePaths><Path>." -Category InvalidData -TargetObject $Path)
        }
        $databasePaths.Add($databasePath.InnerText.Trim())
        $logPath = $instance.SelectSingleNode(".//*[local-name()='LogPath']")
        if ($null -ne $logPath -and -not [string]::IsNullOrWhiteSpace($logPath.InnerText)) {
            $logPaths.Add($logPath.InnerText.Trim())
        }
    }
    if ($databasePaths.Count -gt 0) {
        $settings.DatabaseCount = $databasePaths.Count
        $settings.DatabasePaths = $databasePaths.ToArray()
    }
    if ($logPaths.Count -gt 0) {
        $settings.LogPaths = $logPaths.ToArray()
    }
    $settings
}

function Get-XmlElementText {
    <#
    .SYNOPSIS
    Returns the trimmed text of the first element with a local name, or $null.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [System.Xml.XmlDocument] $Document,

        [Parameter(Mandatory = $true)]
        [string] $LocalName
    )

    $node = $Document.SelectSingleNode("//*[local-name()='$LocalName']")
    if ($null -eq $node) {
        return $null
    }
    $node.InnerText.Trim()
}
