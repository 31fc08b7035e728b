function Copy-StorageTestResultToShare {
    <#
    .SYNOPSIS
    Copies this host's results JSON next to the start file: <run folder>/results/<host>.json.

    .DESCRIPTION
    Never overwrites: when <host>.json exists (a second run of this host into the same run
    folder, or two processes on one machine), the copy is named <host>-<testId>.json instead.
    The no-overwrite copy is atomic on the file server, so concurrent hosts cannot clobber each
    other. Returns the path written.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $ResultsPath,

        [Parameter(Mandatory = $true)]
        [string] $RunFolder,

        [string] $TestId
    )

    $folder = [System.IO.Path]::Combine($RunFolder, 'results')
    if (-not [System.IO.Directory]::Exists($folder)) {
        $null = [System.IO.Directory]::CreateDirectory($folder)
    }
    $name = ([System.Environment]::MachineName -replace '[^A-Za-z0-9._-]', '_')
    $target = [System.IO.Path]::Combine($folder, $name + '.json')
    try {
        [System.IO.File]::Copy($ResultsPath, $target, $false)
        return $target
    }
    catch {
        if (-not [System.IO.File]::Exists($target)) {
            throw
        }
    }
    $suffix = $TestId
    if ([string]::IsNullOrWhiteSpace($suffix)) {
        $suffix = [guid]::NewGuid().ToString('N').Substring(0, 8)
    }
    $target = [System.IO.Path]::Combine($folder, ('{0}-{1}.json' -f $name, ($suffix -replace '[^A-Za-z0-9._-]', '_')))
    [System.IO.File]::Copy($ResultsPath, $target, $false)
    $target
}
