function Test-StorageVolume {
    <#
    .SYNOPSIS
    Checks the volumes under database and log folders against Exchange storage best practice.

    .DESCRIPTION
    Asks the engine to inspect the volume behind each folder and returns one
    ExchStorageTest.VolumeFinding per check: file system (NTFS or ReFS), allocation unit size
    (64 KB), partition alignment (1 MiB), multipath I/O paths and policy, free and used
    capacity, and whether the test files would be small enough for the array cache to serve the
    test. Each finding has a severity (Pass, Info, Warning, Fail), the measured and expected
    values and a message. Read-only: nothing is written.

    Database objects from Get-MailboxDatabase can be piped in (EdbFilePath, LogFolderPath).

    .PARAMETER Path
    Database folders (or .edb files, whose folder is used) to inspect. Binds by property name
    from EdbFilePath (Get-MailboxDatabase) or FullName (Get-ChildItem). Strings are not bound
    from the pipeline, because a whole database object would bind as its name.

    .PARAMETER LogPath
    Log folders to inspect. Binds by property name from LogFolderPath.

    .EXAMPLE
    Test-StorageVolume -Path E:\DB1, F:\Logs1

    Inspects the two volumes and lists the findings.

    .EXAMPLE
    Get-MailboxDatabase -Server EX01 | Test-StorageVolume | Where-Object Severity -ne 'Pass'

    Shows only the problems on the database and log volumes of a server.

    .INPUTS
    System.Object with EdbFilePath, LogFolderPath or FullName properties.

    .OUTPUTS
    ExchStorageTest.VolumeFinding

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.VolumeFinding')]
    param(
        [Parameter(Mandatory = $true, Position = 0, ValueFromPipelineByPropertyName = $true)]
        [Alias('EdbFilePath', 'FullName')]
        [object[]] $Path,

        [Parameter(ValueFromPipelineByPropertyName = $true)]
        [Alias('LogFolderPath')]
        [object[]] $LogPath
    )

    begin {
        $folders = New-Object -TypeName System.Collections.Generic.List[string]
    }

    process {
        try {
            foreach ($item in @(@(ConvertTo-PathString -InputObject $Path) + @(ConvertTo-PathString -InputObject $LogPath))) {
                $folder = ConvertTo-DatabaseFolder -Path (Resolve-UserPath -Path $item)
                if (-not [System.IO.Directory]::Exists($folder)) {
                    throw (New-ModuleErrorRecord -ErrorId 'PathNotFound' -Message "The folder '$folder' does not exist: create it, or correct the path." -Category ObjectNotFound -TargetObject $folder)
                }
                if (-not $folders.Contains($folder)) {
                    $folders.Add($folder)
                }
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }

    end {
        try {
            if ($folders.Count -eq 0) {
                return
            }
            $request = [ordered]@{
                protocol = $script:EngineProtocolVersion
                command  = 'inspect'
                paths    = [string[]]$folders.ToArray()
            }
            foreach ($engineEvent in @(Invoke-EngineProcess -Request $request -Activity 'Inspecting storage volumes')) {
                foreach ($finding in @(Get-EventItem -InputObject $engineEvent -Name 'findings')) {
                    ConvertTo-VolumeFinding -InputObject $finding
                }
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }
}
