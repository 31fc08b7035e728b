function Resolve-ResultsFile {
    <#
    .SYNOPSIS
    Returns the results JSON files a path stands for: the file itself, or the results documents in a folder tree.

    .DESCRIPTION
    A folder of runs holds other JSON too (profiles, engine logs), so a folder's files count only
    when their first few kilobytes carry the results schema marker "exchstoragetest/results";
    reading just the head keeps this fast on multi-megabyte results. Errors:
    ExchStorageTest.ResultsNotFound.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path
    )

    if ([System.IO.File]::Exists($Path)) {
        return $Path
    }
    if (-not [System.IO.Directory]::Exists($Path)) {
        throw (New-ModuleErrorRecord -ErrorId 'ResultsNotFound' -Message "The results file or folder '$Path' does not exist." -Category ObjectNotFound -TargetObject $Path)
    }

    $found = @(
        foreach ($file in @(Get-ChildItem -LiteralPath $Path -Filter '*.json' -File -Recurse -ErrorAction SilentlyContinue)) {
            $head = ''
            $reader = New-Object -TypeName System.IO.StreamReader -ArgumentList $file.FullName
            try {
                $buffer = New-Object -TypeName 'char[]' -ArgumentList 4096
                $count = $reader.Read($buffer, 0, $buffer.Length)
                $head = [string]::new($buffer, 0, $count)
            }
            finally {
                $reader.Dispose()
            }
            if ($head.Contains('exchstoragetest/results')) {
                $file.FullName
            }
        }
    )
    if ($found.Count -eq 0) {
        throw (New-ModuleErrorRecord -ErrorId 'ResultsNotFound' -Message "The folder '$Path' holds no ExchStorageTest results files (JSON with schema 'exchstoragetest/results')." -Category ObjectNotFound -TargetObject $Path)
    }
    $found | Sort-Object
}
