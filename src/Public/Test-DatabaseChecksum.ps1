function Test-DatabaseChecksum {
    <#
    .SYNOPSIS
    Verifies the page and log checksums of database and log files written by a storage test.

    .DESCRIPTION
    Asks the engine to read every page of the test's database files and every log file and to
    check each one's identity (page number, instance, write generation) and CRC32C, as the
    Stress test's closing checksum pass does. Returns one ExchStorageTest.ChecksumResult per
    file checked, with the pages or logs checked, the bad ones, and Pass or Fail. A bad page is a
    result (Fail), not an error; errors mean the check itself could not run. Read-only.

    .PARAMETER Path
    Database files or folders of a test to verify. Binds by property name from EdbFilePath
    (Get-MailboxDatabase) or FullName (Get-ChildItem). Strings are not bound from the pipeline,
    because a whole database object would bind as its name.

    .PARAMETER LogPath
    Log folders to verify. Binds by property name from LogFolderPath.

    .EXAMPLE
    Test-DatabaseChecksum -Path D:\ExchStorageTest

    Verifies every database and log file of the test under D:\ExchStorageTest.

    .EXAMPLE
    Test-DatabaseChecksum -Path E:\DB1 -LogPath F:\Logs1 | Where-Object Result -eq 'Fail'

    Lists only the files with bad pages or logs.

    .INPUTS
    System.Object with EdbFilePath, LogFolderPath or FullName properties.

    .OUTPUTS
    ExchStorageTest.ChecksumResult

    .LINK
    Invoke-StorageTest

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.ChecksumResult')]
    param(
        [Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)]
        [Alias('EdbFilePath', 'FullName')]
        [object[]] $Path,

        [Parameter(ValueFromPipelineByPropertyName = $true)]
        [Alias('LogFolderPath')]
        [object[]] $LogPath
    )

    begin {
        $targets = New-Object -TypeName System.Collections.Generic.List[string]
    }

    process {
        try {
            foreach ($item in @(@(ConvertTo-PathString -InputObject $Path) + @(ConvertTo-PathString -InputObject $LogPath))) {
                $target = Resolve-UserPath -Path $item
                if (-not [System.IO.File]::Exists($target) -and -not [System.IO.Directory]::Exists($target)) {
                    throw (New-ModuleErrorRecord -ErrorId 'PathNotFound' -Message "The file or folder '$target' does not exist." -Category ObjectNotFound -TargetObject $target)
                }
                if (-not $targets.Contains($target)) {
                    $targets.Add($target)
                }
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }

    end {
        try {
            if ($targets.Count -eq 0) {
                return
            }
            $request = [ordered]@{
                protocol = $script:EngineProtocolVersion
                command  = 'verify'
                paths    = [string[]]$targets.ToArray()
            }
            foreach ($engineEvent in @(Invoke-EngineProcess -Request $request -Activity 'Verifying database and log checksums')) {
                foreach ($file in @(Get-EventItem -InputObject $engineEvent -Name 'files')) {
                    ConvertTo-ChecksumResult -InputObject $file
                }
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }
}
