function Get-TestReport {
    <#
    .SYNOPSIS
    Renders test results as report objects and, with -Format, as HTML, XML, CSV or text files.

    .DESCRIPTION
    Takes results JSON files: from Invoke-StorageTest output on the pipeline (by its ResultsPath
    property), as file paths, or as folders of runs (searched recursively for results documents).
    The engine renders them: the Jetstress-style sections with the per-instance tables and the
    ESRP "Test results summary". Several results together give the aggregate across hosts and a
    side-by-side comparison of the runs.

    Without -Format the command only returns report objects. With -Format it also writes one file
    per format to -OutputPath (default: the folder of the first results file); -WhatIf shows what
    would be written and still returns the report objects.

    A partial result left by a stopped run renders the same way.

    .PARAMETER Path
    Results JSON files or folders of runs. Binds from the pipeline, and by property name from
    ResultsPath (Invoke-StorageTest output) or FullName (Get-ChildItem output).

    .PARAMETER Format
    Report files to write: Html, Xml, Csv, Text (any combination).

    .PARAMETER OutputPath
    Folder for the report files. Must exist. Default: the folder of the first results file.

    .PARAMETER WhatIf
    Shows which report files would be written, without writing them.

    .PARAMETER Confirm
    Asks for confirmation before writing report files.

    .EXAMPLE
    $profile | Invoke-StorageTest -Duration 00:30:00 | Get-TestReport -Format Html

    Runs a test and writes its HTML report next to the results JSON.

    .EXAMPLE
    Get-TestReport -Path \\share\esrp\runs -Format Html, Csv -OutputPath \\share\esrp\summary

    Aggregates every run under a folder (for example one per host) into one report with the
    ESRP summary across hosts and a side-by-side comparison.

    .EXAMPLE
    (Get-TestReport -Path .\run1\results.json).Text

    Shows the text report of one run in the console.

    .INPUTS
    System.String, ExchStorageTest.TestResult (ResultsPath), System.IO.FileInfo (FullName).

    .OUTPUTS
    ExchStorageTest.TestReport

    .LINK
    Invoke-StorageTest

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding(SupportsShouldProcess = $true, ConfirmImpact = 'Low')]
    [OutputType('ExchStorageTest.TestReport')]
    param(
        [Parameter(Mandatory = $true, Position = 0, ValueFromPipeline = $true, ValueFromPipelineByPropertyName = $true)]
        [Alias('ResultsPath', 'FullName')]
        [string[]] $Path,

        [ValidateSet('Html', 'Xml', 'Csv', 'Text')]
        [string[]] $Format = @(),

        [string] $OutputPath
    )

    begin {
        $resultsFiles = New-Object -TypeName System.Collections.Generic.List[string]
    }

    process {
        try {
            foreach ($item in $Path) {
                if ([string]::IsNullOrWhiteSpace($item)) {
                    continue
                }
                foreach ($file in @(Resolve-ResultsFile -Path (Resolve-UserPath -Path $item))) {
                    if (-not $resultsFiles.Contains($file)) {
                        $resultsFiles.Add($file)
                    }
                }
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }

    end {
        try {
            if ($resultsFiles.Count -eq 0) {
                throw (New-ModuleErrorRecord -ErrorId 'ResultsNotFound' -Message 'No results files were given or found.' -Category ObjectNotFound -TargetObject $Path)
            }

            $formats = @($Format | Select-Object -Unique)
            $folder = $null
            if ($formats.Count -gt 0) {
                $folder = [System.IO.Path]::GetDirectoryName($resultsFiles[0])
                if ($PSBoundParameters.ContainsKey('OutputPath')) {
                    $folder = Resolve-UserPath -Path $OutputPath
                }
                if (-not [System.IO.Directory]::Exists($folder)) {
                    throw (New-ModuleErrorRecord -ErrorId 'OutputPathNotFound' -Message "The report folder '$folder' does not exist." -Category ObjectNotFound -TargetObject $folder)
                }
                $what = "Write $([string]::Join(', ', $formats)) report file(s) for $($resultsFiles.Count) result(s)"
                if (-not $PSCmdlet.ShouldProcess($folder, $what)) {
                    # -WhatIf or a declined -Confirm: still return the report, write nothing.
                    $formats = @()
                    $folder = $null
                }
            }

            $request = [ordered]@{
                protocol   = $script:EngineProtocolVersion
                command    = 'report'
                paths      = [string[]]$resultsFiles.ToArray()
                formats    = [string[]]$formats
                outputPath = $folder
            }
            foreach ($engineEvent in @(Invoke-EngineProcess -Request $request -Activity 'Rendering test report')) {
                if ([string](Get-EventValue -InputObject $engineEvent -Name 'type') -eq 'report') {
                    ConvertTo-TestReport -EngineEvent $engineEvent -ResultsPath $resultsFiles.ToArray()
                }
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }
}
