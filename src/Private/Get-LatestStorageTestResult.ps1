function Get-LatestStorageTestResult {
    <#
    .SYNOPSIS
    Returns the newest results document for a profile in a folder tree, or $null.

    .DESCRIPTION
    Used by the ExchStorageValidation DSC resource (Get and Test must be cheap): results files
    are found by their schema marker (Resolve-ResultsFile), read newest file first, and the
    first one whose profile name (and test type, when given) matches wins; "newest" is the
    test's end time recorded in the document, so a copied file's timestamp cannot mislead.
    Returns Path, Result (Pass/Fail), Completion, TestType, TestId and TestEndUtc.
    #>
    [CmdletBinding()]
    [OutputType([pscustomobject])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path,

        [Parameter(Mandatory = $true)]
        [string] $ProfileName,

        [string] $TestType
    )

    if (-not [System.IO.Directory]::Exists($Path)) {
        return $null
    }
    $files = @()
    try {
        $files = @(Resolve-ResultsFile -Path $Path)
    }
    catch {
        return $null
    }
    $newest = $null
    foreach ($file in $files) {
        $document = $null
        try {
            $document = ConvertFrom-Json -InputObject ([System.IO.File]::ReadAllText($file)) -ErrorAction Stop
        }
        catch {
            continue
        }
        $documentProfile = Get-EventValue -InputObject $document -Name 'profile'
        if ([string](Get-EventValue -InputObject $documentProfile -Name 'name') -ne $ProfileName) {
            continue
        }
        $type = [string](Get-EventValue -InputObject $document -Name 'testType')
        if (-not [string]::IsNullOrWhiteSpace($TestType) -and $type -ne $TestType) {
            continue
        }
        $timeline = Get-EventValue -InputObject $document -Name 'timeline'
        $end = ConvertTo-UtcDateTime -Value (Get-EventValue -InputObject $timeline -Name 'testEndUtc')
        if ($null -eq $end) {
            continue
        }
        if ($null -eq $newest -or $end -gt $newest.TestEndUtc) {
            $verdict = Get-EventValue -InputObject $document -Name 'verdict'
            $newest = [pscustomobject]@{
                Path       = $file
                TestId     = [string](Get-EventValue -InputObject $document -Name 'testId')
                TestType   = $type
                Result     = [string](Get-EventValue -InputObject $verdict -Name 'result' -Default 'Fail')
                Completion = [string](Get-EventValue -InputObject $document -Name 'completion' -Default 'Complete')
                Reasons    = @(Get-EventValue -InputObject $verdict -Name 'reasons' | Where-Object { $null -ne $_ } | ForEach-Object { [string](Get-EventValue -InputObject $_ -Name 'message') })
                TestEndUtc = $end
            }
        }
    }
    $newest
}
