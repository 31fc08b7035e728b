function Test-DirectoryWritable {
    <#
    .SYNOPSIS
    Returns $true when the current user can create files in a directory.

    .DESCRIPTION
    ACLs, read-only mounts, BitLocker-locked volumes and Linux permissions all say "no" in
    different ways; creating a file is the only test that agrees with all of them. The probe is
    opened with DeleteOnClose, so it is gone before the handle is, and nothing is left behind
    even when the check fails half-way.
    #>
    [CmdletBinding()]
    [OutputType([bool])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path
    )

    $probe = [System.IO.Path]::Combine($Path, ('.exchstoragetest-probe-{0}.tmp' -f [guid]::NewGuid().ToString('N')))
    try {
        $stream = New-Object -TypeName System.IO.FileStream -ArgumentList $probe, ([System.IO.FileMode]::CreateNew), ([System.IO.FileAccess]::Write), ([System.IO.FileShare]::None), 4096, ([System.IO.FileOptions]::DeleteOnClose)
        $stream.Dispose()
        $true
    }
    catch {
        $false
    }
}
