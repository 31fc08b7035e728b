function Save-MailboxProfile {
    <#
    .SYNOPSIS
    Writes a validated profile as UTF-8 JSON (no BOM) for Invoke-StorageTest -ProfilePath.

    .DESCRIPTION
    The file holds the engine's camelCase profile plus a schema marker, so the engine and other
    tools can read it as well. ShouldProcess is asked through the calling public command so
    -WhatIf and -Confirm on New-MailboxProfile apply. Errors: ExchStorageTest.ProfileExists
    (file exists, no -Force), ExchStorageTest.SaveFolderNotFound (folder missing).
    #>
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)]
        [object] $MailboxProfile,

        [Parameter(Mandatory = $true)]
        [string] $Path,

        [switch] $Force,

        [Parameter(Mandatory = $true)]
        [System.Management.Automation.PSCmdlet] $Cmdlet
    )

    $folder = [System.IO.Path]::GetDirectoryName($Path)
    if (-not [string]::IsNullOrEmpty($folder) -and -not [System.IO.Directory]::Exists($folder)) {
        throw (New-ModuleErrorRecord -ErrorId 'SaveFolderNotFound' -Message "Cannot save the profile to '$Path': the folder '$folder' does not exist." -Category ObjectNotFound -TargetObject $Path)
    }
    if ([System.IO.Directory]::Exists($Path)) {
        throw (New-ModuleErrorRecord -ErrorId 'ProfileExists' -Message "Cannot save the profile to '$Path': it is a folder. Give a file name, for example '$([System.IO.Path]::Combine($Path, 'profile.json'))'." -Category InvalidArgument -TargetObject $Path)
    }
    if ([System.IO.File]::Exists($Path) -and -not $Force) {
        throw (New-ModuleErrorRecord -ErrorId 'ProfileExists' -Message "The profile file '$Path' already exists. Use -Force to overwrite it." -Category ResourceExists -TargetObject $Path)
    }

    $document = [ordered]@{
        schema        = 'exchstoragetest/profile'
        schemaVersion = 1
    }
    $engineProfile = ConvertTo-EngineProfile -MailboxProfile $MailboxProfile
    foreach ($key in $engineProfile.Keys) {
        $document[$key] = $engineProfile[$key]
    }
    $json = ConvertTo-Json -InputObject $document -Depth 5

    if ($Cmdlet.ShouldProcess($Path, "Save mailbox profile '$($MailboxProfile.Name)'")) {
        Write-Utf8File -Path $Path -Text $json
    }
}
