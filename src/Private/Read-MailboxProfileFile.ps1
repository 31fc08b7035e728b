function Read-MailboxProfileFile {
    <#
    .SYNOPSIS
    Loads a profile saved by New-MailboxProfile -SaveTo (JSON) and validates it.

    .DESCRIPTION
    Errors: ExchStorageTest.ProfileNotFound (no such file), ExchStorageTest.ProfileMalformed
    (not JSON, or JSON that is not an object), then the validation ErrorIds of
    ConvertTo-MailboxProfile for values out of range.
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.MailboxProfile')]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path
    )

    if (-not [System.IO.File]::Exists($Path)) {
        throw (New-ModuleErrorRecord -ErrorId 'ProfileNotFound' -Message "The profile file '$Path' does not exist. Create one with: New-MailboxProfile ... -SaveTo '$Path'" -Category ObjectNotFound -TargetObject $Path)
    }
    $text = [System.IO.File]::ReadAllText($Path)
    $parsed = $null
    try {
        $parsed = ConvertFrom-Json -InputObject $text -ErrorAction Stop
    }
    catch {
        throw (New-ModuleErrorRecord -ErrorId 'ProfileMalformed' -Message "The profile file '$Path' is not valid JSON: $($_.Exception.Message)" -Category InvalidData -TargetObject $Path -InnerException $_.Exception)
    }
    if ($null -eq $parsed -or -not ($parsed -is [System.Management.Automation.PSCustomObject])) {
        throw (New-ModuleErrorRecord -ErrorId 'ProfileMalformed' -Message "The profile file '$Path' does not hold a JSON object with profile settings." -Category InvalidData -TargetObject $Path)
    }
    ConvertTo-MailboxProfile -InputObject $parsed
}
