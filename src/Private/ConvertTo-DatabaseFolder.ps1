function ConvertTo-DatabaseFolder {
    <#
    .SYNOPSIS
    Returns the folder of an .edb file path, or the path unchanged when it is already a folder.

    .DESCRIPTION
    Get-MailboxDatabase gives EdbFilePath (D:\DB1\DB1.edb); the engine wants the folder in which
    it creates its own database file, so the file name is dropped.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path
    )

    if ($Path -match '\.edb$') {
        $parent = [System.IO.Path]::GetDirectoryName($Path)
        if (-not [string]::IsNullOrEmpty($parent)) {
            return $parent
        }
    }
    $Path
}
