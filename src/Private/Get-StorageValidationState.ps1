function Get-StorageValidationState {
    <#
    .SYNOPSIS
    The state the ExchStorageValidation DSC resource reports: newest result for a profile, its age, and why it is not in the desired state.

    .DESCRIPTION
    Desired state: the newest result for the profile (and test type) passed, ran to completion,
    and ended no more than MaxResultAgeHours ago. Reads results files only, never runs a test,
    so DSC can call it on every consistency check. Reason codes (stable): ProfileNotFound,
    NoResult, ResultFailed, ResultIncomplete, ResultTooOld. The output folder defaults to the
    engine's default, <first database path>/Results.
    #>
    [CmdletBinding()]
    [OutputType([pscustomobject])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $ProfilePath,

        [string] $OutputPath,

        [string] $TestType,

        [double] $MaxResultAgeHours = 24,

        [datetime] $NowUtc = [DateTime]::UtcNow
    )

    $reasons = New-Object -TypeName System.Collections.Generic.List[object]
    $state = [pscustomobject]@{
        LastResult     = 'NotRun'
        LastRunUtc     = $null
        ResultsPath    = $null
        OutputPath     = $OutputPath
        InDesiredState = $false
        Reasons        = $null
    }

    $checkedProfile = $null
    try {
        $checkedProfile = Read-MailboxProfileFile -Path $ProfilePath
    }
    catch {
        $reasons.Add([pscustomobject]@{ Code = 'ProfileNotFound'; Phrase = "The profile '$ProfilePath' cannot be read: $($_.Exception.Message)" })
    }

    if ($null -ne $checkedProfile) {
        $folder = $OutputPath
        if ([string]::IsNullOrWhiteSpace($folder)) {
            $folder = [System.IO.Path]::Combine([string]@($checkedProfile.DatabasePaths)[0], 'Results')
        }
        $state.OutputPath = $folder
        $latest = Get-LatestStorageTestResult -Path $folder -ProfileName ([string]$checkedProfile.Name) -TestType $TestType
        if ($null -eq $latest) {
            $reasons.Add([pscustomobject]@{ Code = 'NoResult'; Phrase = "No results for profile '$($checkedProfile.Name)' were found in '$folder'." })
        }
        else {
            $state.LastResult = $latest.Result
            $state.LastRunUtc = $latest.TestEndUtc
            $state.ResultsPath = $latest.Path
            $current = $true
            if ($latest.Result -ne 'Pass') {
                $current = $false
                $why = [string]::Join('; ', @($latest.Reasons))
                if ([string]::IsNullOrWhiteSpace($why)) {
                    $why = 'no reason recorded'
                }
                $reasons.Add([pscustomobject]@{ Code = 'ResultFailed'; Phrase = "The newest result ($($latest.TestId)) failed: $why" })
            }
            elseif ($latest.Completion -ne 'Complete') {
                $current = $false
                $reasons.Add([pscustomobject]@{ Code = 'ResultIncomplete'; Phrase = "The newest result ($($latest.TestId)) is $($latest.Completion), not Complete." })
            }
            $fresh = ($NowUtc.ToUniversalTime() - $latest.TestEndUtc) -le [timespan]::FromHours($MaxResultAgeHours)
            if (-not $fresh) {
                $reasons.Add([pscustomobject]@{ Code = 'ResultTooOld'; Phrase = "The newest result ended $(ConvertTo-IsoUtcString -Value $latest.TestEndUtc), more than $MaxResultAgeHours hours ago." })
            }
            $state.InDesiredState = $current -and $fresh
        }
    }
    $state.Reasons = $reasons.ToArray()
    $state
}
