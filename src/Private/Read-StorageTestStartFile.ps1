function Read-StorageTestStartFile {
    <#
    .SYNOPSIS
    Reads a start file; waits for it (up to -Timeout) and for a writer to finish writing it.

    .DESCRIPTION
    Another host may be writing the file at this moment, so an empty or half-written file is
    read again for a few seconds before it counts as malformed. Errors:
    ExchStorageTest.StartFileNotFound (still absent after the timeout),
    ExchStorageTest.StartFileMalformed (not a start file).
    #>
    [CmdletBinding()]
    [OutputType([pscustomobject])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path,

        [timespan] $Timeout = [timespan]::Zero
    )

    $deadline = [DateTime]::UtcNow.Add($Timeout)
    while (-not [System.IO.File]::Exists($Path)) {
        if ([DateTime]::UtcNow -ge $deadline) {
            throw (New-ModuleErrorRecord -ErrorId 'StartFileNotFound' -Message "The start file '$Path' does not exist (waited $Timeout). Create it with: New-StorageTestRun -Path '$([System.IO.Path]::GetDirectoryName($Path))' -StartAtUtc <instant>" -Category ObjectNotFound -TargetObject $Path)
        }
        Write-Progress -Id 1 -Activity 'Waiting for the start file' -Status $Path -SecondsRemaining ([int]($deadline - [DateTime]::UtcNow).TotalSeconds)
        Start-Sleep -Seconds 2
    }
    Write-Progress -Id 1 -Activity 'Waiting for the start file' -Completed

    $settle = [DateTime]::UtcNow.AddSeconds(10)
    while ($true) {
        $parsed = $null
        $problem = $null
        try {
            $text = [System.IO.File]::ReadAllText($Path)
            $parsed = ConvertFrom-Json -InputObject $text -ErrorAction Stop
        }
        catch {
            $problem = $_.Exception.Message
        }
        $startAt = $null
        if ($null -ne $parsed) {
            $startAt = ConvertTo-UtcDateTime -Value (Get-EventValue -InputObject $parsed -Name 'startAtUtc')
            if ([string](Get-EventValue -InputObject $parsed -Name 'schema') -ne 'exchstoragetest/run' -or $null -eq $startAt) {
                $problem = "it holds no schema 'exchstoragetest/run' with a startAtUtc instant"
            }
        }
        if ($null -eq $problem -and $null -ne $parsed) {
            return [pscustomobject]@{
                PSTypeName = 'ExchStorageTest.StartFile'
                Path       = $Path
                RunId      = [string](Get-EventValue -InputObject $parsed -Name 'runId')
                StartAtUtc = $startAt
                HostCount  = Get-EventValue -InputObject $parsed -Name 'hostCount'
                CreatedBy  = [string](Get-EventValue -InputObject $parsed -Name 'createdBy')
            }
        }
        if ([DateTime]::UtcNow -ge $settle) {
            throw (New-ModuleErrorRecord -ErrorId 'StartFileMalformed' -Message "The start file '$Path' is not a valid start file: $problem" -Category InvalidData -TargetObject $Path)
        }
        Start-Sleep -Milliseconds 500
    }
}
