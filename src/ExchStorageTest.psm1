# The root module of ExchStorageTest: the class-based DSC resource, kept in PowerShell because DSC
# requires a PowerShell class and looks for it in the root module. The commands are C# binary
# cmdlets (bin/ExchStorageTest.dll), loaded first as this module's nested module (see the manifest);
# this file uses only the core language and those cmdlets, so it loads in Windows PowerShell 5.1,
# PowerShell 7 and a hosted engine alike.

# The DSC resource lives here, in the root module, because DSC discovers class resources by
# parsing the root module only (it does not follow dot-sourced files). The class stays thin:
# Get-StorageValidationState (a cmdlet of the nested module that the manifest does not export, so
# only this module sees it) asks the engine, which judges with the same code as its DSC v3 resource
# (exchstoragetest-engine dsc get|test); Set runs Invoke-StorageTest.
# Desired state: a complete, passing result for the profile, no older than MaxResultAgeHours.

class ExchStorageTestReason {
    [DscProperty()]
    [string] $Code

    [DscProperty()]
    [string] $Phrase
}

[DscResource()]
class ExchStorageValidation {
    [DscProperty(Key)]
    [string] $Name

    [DscProperty(Mandatory)]
    [string] $ProfilePath

    [DscProperty()]
    [string] $OutputPath

    [DscProperty()]
    [int] $MaxResultAgeHours = 24

    # Performance, Stress, DatabaseBackup, SoftRecovery or Throughput (Invoke-StorageTest validates it).
    [DscProperty()]
    [string] $TestType = 'Performance'

    [DscProperty()]
    [string] $Duration

    [DscProperty(NotConfigurable)]
    [string] $LastResult

    [DscProperty(NotConfigurable)]
    [string] $LastRunUtc

    [DscProperty(NotConfigurable)]
    [ExchStorageTestReason[]] $Reasons

    [ExchStorageValidation] Get() {
        $observed = Get-StorageValidationState -ProfilePath $this.ProfilePath -OutputPath $this.OutputPath -TestType $this.TestType -MaxResultAgeHours $this.MaxResultAgeHours
        $state = [ExchStorageValidation]::new()
        $state.Name = $this.Name
        $state.ProfilePath = $this.ProfilePath
        $state.OutputPath = $this.OutputPath
        $state.MaxResultAgeHours = $this.MaxResultAgeHours
        $state.TestType = $this.TestType
        $state.Duration = $this.Duration
        $state.LastResult = $observed.LastResult
        $state.LastRunUtc = $null
        if ($null -ne $observed.LastRunUtc) {
            $state.LastRunUtc = $observed.LastRunUtc.ToString('o', [System.Globalization.CultureInfo]::InvariantCulture)
        }
        $state.Reasons = [ExchStorageTestReason[]]@(foreach ($reason in $observed.Reasons) {
                $item = [ExchStorageTestReason]::new()
                # Code in the resource:resource:reason form that machine configuration reports.
                $item.Code = 'ExchStorageValidation:ExchStorageValidation:' + $reason.Code
                $item.Phrase = $reason.Phrase
                $item
            })
        return $state
    }

    [bool] Test() {
        # The reasons it is out of state go to the verbose stream (the command writes them).
        $observed = Get-StorageValidationState -ProfilePath $this.ProfilePath -OutputPath $this.OutputPath -TestType $this.TestType -MaxResultAgeHours $this.MaxResultAgeHours
        return $observed.InDesiredState
    }

    [void] Set() {
        $parameters = @{
            ProfilePath = $this.ProfilePath
            TestType    = $this.TestType
            Force       = $true
            Confirm     = $false
            ErrorAction = 'Stop'
        }
        if (-not [string]::IsNullOrWhiteSpace($this.OutputPath)) {
            $parameters.OutputPath = $this.OutputPath
        }
        if (-not [string]::IsNullOrWhiteSpace($this.Duration)) {
            $parameters.Duration = [timespan]::Parse($this.Duration, [System.Globalization.CultureInfo]::InvariantCulture)
        }
        $results = @(Invoke-StorageTest @parameters)
        if ($results.Count -eq 0) {
            throw "ExchStorageValidation '$($this.Name)': the storage test produced no result."
        }
        $failed = @($results | Where-Object { -not $_.Passed })
        if ($failed.Count -gt 0) {
            $why = [string]::Join('; ', @($failed | ForEach-Object { $_.Reasons } | ForEach-Object { $_.Message }))
            throw "ExchStorageValidation '$($this.Name)': the storage test failed ($($failed[0].Result), $($failed[0].Completion)). $why Results: $($failed[0].ResultsPath)"
        }
    }
}
