function Write-StorageTestStartFile {
    <#
    .SYNOPSIS
    Creates a start file (the common start instant of a run over a share) unless one exists.

    .DESCRIPTION
    The file is created with FileMode.CreateNew, which the file server makes atomic: when several
    hosts race to create it, exactly one wins and the others read the winner's instant. Returns
    $true when this call created the file, $false when it already existed (with -Force an
    existing file is replaced instead). UTF-8 JSON without a byte-order mark:
    { schema: "exchstoragetest/run", schemaVersion: 1, runId, startAtUtc, hostCount, createdBy, createdUtc }.
    #>
    [CmdletBinding()]
    [OutputType([bool])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path,

        [Parameter(Mandatory = $true)]
        [datetime] $StartAtUtc,

        [Parameter(Mandatory = $true)]
        [string] $RunId,

        [AllowNull()]
        [object] $HostCount,

        [switch] $Force
    )

    $document = [ordered]@{
        schema        = 'exchstoragetest/run'
        schemaVersion = 1
        runId         = $RunId
        startAtUtc    = ConvertTo-IsoUtcString -Value $StartAtUtc
        hostCount     = $HostCount
        createdBy     = [System.Environment]::MachineName
        createdUtc    = ConvertTo-IsoUtcString -Value ([DateTime]::UtcNow)
    }
    $bytes = (New-Object -TypeName System.Text.UTF8Encoding -ArgumentList $false).GetBytes((ConvertTo-Json -InputObject $document))
    $mode = [System.IO.FileMode]::CreateNew
    if ($Force) {
        $mode = [System.IO.FileMode]::Create
    }
    try {
        $stream = New-Object -TypeName System.IO.FileStream -ArgumentList $Path, $mode, ([System.IO.FileAccess]::Write), ([System.IO.FileShare]::Read)
    }
    catch [System.IO.IOException] {
        if ([System.IO.File]::Exists($Path)) {
            return $false
        }
        throw
    }
    catch {
        # PowerShell wraps constructor exceptions; the file existing is still the race we expect.
        if ($_.Exception.InnerException -is [System.IO.IOException] -and [System.IO.File]::Exists($Path)) {
            return $false
        }
        throw
    }
    try {
        $stream.Write($bytes, 0, $bytes.Length)
        $stream.Flush()
    }
    finally {
        $stream.Dispose()
    }
    $true
}
