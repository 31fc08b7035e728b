# The root module of ExchStorageTest: the class-based DSC resource, kept in PowerShell because DSC
# requires a PowerShell class and looks for it in the root module. The commands are C# binary
# cmdlets (bin/ExchStorageTest.dll), loaded first as this module's nested module (see the manifest);
# this file uses only the core language and those cmdlets, so it loads in Windows PowerShell 5.1,
# PowerShell 7 and a hosted engine alike.

# The DSC resource lives here, in the root module, because DSC discovers class resources by
# parsing the root module only (it does not follow dot-sourced files). The class stays thin:
# Get-StorageValidationState (Private/) holds the logic, and Set runs Invoke-StorageTest.
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
        $state.LastResult = [string]$observed.LastResult
        $state.LastRunUtc = $null
        if ($null -ne $observed.LastRunUtc) {
            $state.LastRunUtc = ([datetime]$observed.LastRunUtc).ToString('o', [System.Globalization.CultureInfo]::InvariantCulture)
        }
        $list = New-Object -TypeName System.Collections.ArrayList
        foreach ($reason in @($observed.Reasons)) {
            $item = [ExchStorageTestReason]::new()
            $item.Code = 'ExchStorageValidation:ExchStorageValidation:' + [string]$reason.Code
            $item.Phrase = [string]$reason.Phrase
            $null = $list.Add($item)
        }
        $state.Reasons = [ExchStorageTestReason[]]$list.ToArray()
        return $state
    }

    [bool] Test() {
        $observed = Get-StorageValidationState -ProfilePath $this.ProfilePath -OutputPath $this.OutputPath -TestType $this.TestType -MaxResultAgeHours $this.MaxResultAgeHours
        foreach ($reason in @($observed.Reasons)) {
            Write-Verbose -Message ('{0}: {1}' -f $reason.Code, $reason.Phrase)
        }
        return [bool]$observed.InDesiredState
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
        $failed = @($results | Where-Object { [string]$_.Result -ne 'Pass' -or [string]$_.Completion -ne 'Complete' })
        if ($failed.Count -gt 0) {
            $why = [string]::Join('; ', @($failed | ForEach-Object { $_.Reasons } | Where-Object { $null -ne $_ } | ForEach-Object { [string]$_.Message }))
            throw "ExchStorageValidation '$($this.Name)': the storage test failed ($($failed[0].Result), $($failed[0].Completion)). $why Results: $($failed[0].ResultsPath)"
        }
    }
}
