function New-StorageTestRun {
    <#
    .SYNOPSIS
    Creates a run folder with a start file on a share, for hosts that run Invoke-StorageTest -StartFile themselves.

    .DESCRIPTION
    For hosts that cannot be remoted into: this command writes <Path>\start.json with the common
    UTC start instant and creates <Path>\results. Each host then runs
    Invoke-StorageTest -StartFile <Path>\start.json (by hand, from a scheduled task or from its
    own automation): its engine prepares the databases, waits for the instant and measures, and
    the host copies its results JSON to <Path>\results\<host>.json. Afterwards
    Get-TestReport -Path <Path>\results merges them (rates summed, histograms merged).

    Choose the instant far enough ahead for every host to be started and to prepare its
    databases. The hosts read it on their own clocks, so keep them synchronised (NTP).
    An existing start file is kept unless -Force is given.

    .PARAMETER Path
    The run folder, usually on a share every host can write to. Created when missing.

    .PARAMETER StartAtUtc
    The UTC instant at which all hosts start measuring. Must lie in the future. A DateTime of
    kind Local (Get-Date) is converted to UTC.

    .PARAMETER HostCount
    How many hosts are expected. Recorded in the start file, so anyone can tell when every
    result has arrived.

    .PARAMETER Force
    Replaces an existing start file, and runs without asking for confirmation.

    .PARAMETER WhatIf
    Shows the start file that would be written, without writing it.

    .PARAMETER Confirm
    Asks for confirmation before writing the start file.

    .EXAMPLE
    New-StorageTestRun -Path \\fs01\esrp\run1 -StartAtUtc (Get-Date).AddMinutes(30) -HostCount 4

    Creates the run folder and a start file for four hosts that start measuring in 30 minutes.

    .EXAMPLE
    $run = New-StorageTestRun -Path \\fs01\esrp\run2 -StartAtUtc '2024-06-01T02:00:00Z' -HostCount 2; Get-TestReport -Path $run.ResultsPath

    Creates a run for a fixed instant; after the hosts finished, merges their results.

    .INPUTS
    None

    .OUTPUTS
    ExchStorageTest.StorageTestRun

    .LINK
    Invoke-StorageTest

    .LINK
    Get-TestReport

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding(SupportsShouldProcess = $true, ConfirmImpact = 'Low')]
    [OutputType('ExchStorageTest.StorageTestRun')]
    param(
        [Parameter(Mandatory = $true, Position = 0)]
        [ValidateNotNullOrEmpty()]
        [string] $Path,

        [Parameter(Mandatory = $true)]
        [datetime] $StartAtUtc,

        [ValidateRange(1, 10000)]
        [int] $HostCount,

        [switch] $Force
    )

    if ($Force -and -not $PSBoundParameters.ContainsKey('Confirm')) {
        $ConfirmPreference = 'None'
    }
    try {
        $folder = Resolve-UserPath -Path $Path
        $startAt = ConvertTo-UtcDateTime -Value $StartAtUtc
        if ($startAt -le [DateTime]::UtcNow) {
            throw (New-ModuleErrorRecord -ErrorId 'InvalidStartTime' -Message "StartAtUtc $(ConvertTo-IsoUtcString -Value $startAt) is not in the future." -Category InvalidArgument -TargetObject $StartAtUtc)
        }
        $startFile = [System.IO.Path]::Combine($folder, 'start.json')
        $resultsFolder = [System.IO.Path]::Combine($folder, 'results')
        if ([System.IO.File]::Exists($startFile) -and -not $Force) {
            throw (New-ModuleErrorRecord -ErrorId 'StartFileExists' -Message "The start file '$startFile' already exists. Use -Force to replace it, or a new run folder." -Category ResourceExists -TargetObject $startFile)
        }
        $hosts = $null
        if ($PSBoundParameters.ContainsKey('HostCount')) {
            $hosts = $HostCount
        }
        $runId = '{0}-{1}' -f $startAt.ToString('yyyyMMdd-HHmmss', [System.Globalization.CultureInfo]::InvariantCulture), [guid]::NewGuid().ToString('N').Substring(0, 8)

        if (-not $PSCmdlet.ShouldProcess($startFile, "Create a storage test run starting at $(ConvertTo-IsoUtcString -Value $startAt)")) {
            return
        }
        $null = [System.IO.Directory]::CreateDirectory($resultsFolder)
        $created = Write-StorageTestStartFile -Path $startFile -StartAtUtc $startAt -RunId $runId -HostCount $hosts -Force:$Force
        if (-not $created) {
            throw (New-ModuleErrorRecord -ErrorId 'StartFileExists' -Message "The start file '$startFile' was created by another host meanwhile." -Category ResourceExists -TargetObject $startFile)
        }
        [pscustomobject]@{
            PSTypeName  = 'ExchStorageTest.StorageTestRun'
            RunId       = $runId
            Path        = $folder
            StartFile   = $startFile
            ResultsPath = $resultsFolder
            StartAtUtc  = $startAt
            HostCount   = $hosts
        }
    }
    catch {
        $PSCmdlet.ThrowTerminatingError($_)
    }
}
