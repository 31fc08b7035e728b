function Get-StorageTestTaskFolder {
    <#
    .SYNOPSIS
    The folder that holds scheduled-task runner scripts: the one given, or the platform default.

    .DESCRIPTION
    Register-StorageTestTask writes runner scripts there and Unregister-StorageTestTask removes
    them from there, so both must agree on the default: %ProgramData%\ExchStorageTest\Tasks on
    Windows, /var/lib/exchstoragetest/tasks elsewhere.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [AllowEmptyString()]
        [AllowNull()]
        [string] $ScriptFolder,

        [Parameter(Mandatory = $true)]
        [bool] $OnWindows
    )

    if (-not [string]::IsNullOrWhiteSpace($ScriptFolder)) {
        return $ScriptFolder
    }
    if ($OnWindows) {
        return (Join-Path -Path $env:ProgramData -ChildPath 'ExchStorageTest\Tasks')
    }
    '/var/lib/exchstoragetest/tasks'
}
