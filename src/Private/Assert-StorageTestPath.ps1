function Assert-StorageTestPath {
    <#
    .SYNOPSIS
    Checks that a folder the test will write to exists and is writable, or throws.

    .DESCRIPTION
    Runs before the engine is asked for anything, so a typo or a read-only volume fails in a
    second with a clear message rather than after the engine starts. Free space is the engine's
    check (its "plan" knows the real file sizes and volumes, including mount points).
    Errors: ExchStorageTest.PathNotFound, ExchStorageTest.PathNotWritable.
    #>
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path,

        [Parameter(Mandatory = $true)]
        [string] $Purpose
    )

    if (-not [System.IO.Directory]::Exists($Path)) {
        throw (New-ModuleErrorRecord -ErrorId 'PathNotFound' -Message "The $Purpose folder '$Path' does not exist: create it, or correct the path." -Category ObjectNotFound -TargetObject $Path)
    }
    if (-not (Test-DirectoryWritable -Path $Path)) {
        throw (New-ModuleErrorRecord -ErrorId 'PathNotWritable' -Message "The $Purpose folder '$Path' is not writable by $([System.Environment]::UserName): grant write access or choose another folder." -Category PermissionDenied -TargetObject $Path)
    }
}
