function ConvertTo-StorageTestProfile {
    <#
    .SYNOPSIS
    Validates the profile for a run and applies database and log folders piped from Exchange.

    .DESCRIPTION
    When Get-MailboxDatabase objects were piped to Invoke-StorageTest, their folders replace the
    profile's and the database count follows them: the test then simulates exactly the
    databases of that server. The profile is validated again after the change.
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.MailboxProfile')]
    param(
        [Parameter(Mandatory = $true)]
        [AllowNull()]
        [object] $InputObject,

        [AllowEmptyCollection()]
        [string[]] $DatabasePath = @(),

        [AllowEmptyCollection()]
        [string[]] $LogPath = @()
    )

    $checked = ConvertTo-MailboxProfile -InputObject $InputObject
    if ($DatabasePath.Count -eq 0 -and $LogPath.Count -eq 0) {
        return $checked
    }

    $settings = @{}
    foreach ($property in $checked.PSObject.Properties) {
        $settings[$property.Name] = $property.Value
    }
    if ($DatabasePath.Count -gt 0) {
        $settings.DatabasePaths = $DatabasePath
        $settings.DatabaseCount = $DatabasePath.Count
        if ($LogPath.Count -eq 0) {
            # The profile's log folders belonged to its own databases, not to the piped ones.
            $settings.LogPaths = @()
        }
    }
    if ($LogPath.Count -gt 0) {
        $settings.LogPaths = $LogPath
    }
    ConvertTo-MailboxProfile -InputObject $settings
}
