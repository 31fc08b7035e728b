# The ExchStorageValidation DSC class resource as DSC uses it: `using module` on the manifest, then Get, Test and
# Set on an instance, with a real short storage test run by Set.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest

    function Invoke-WithResource([string] $Body, [object[]] $ArgumentList) {
        # `using module` takes a literal path and must open the script: the body goes into a script file of its own.
        $script = Join-Path $Dir 'dsc.ps1'
        Set-Content -LiteralPath $script -Value ("using module '{0}'`n{1}" -f ((Get-ModuleManifest) -replace "'", "''"), $Body)
        & $script @ArgumentList
    }

    function Get-ReasonCode($State) { @($State.Reasons | ForEach-Object { $_.Code }) }
}

Describe 'The ExchStorageValidation DSC resource' {
    BeforeEach { $Dir = New-ScratchFolder 'dsc' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'tests false before any run; Set runs the test; then Get and Test report its verdict' {
        $profilePath = Join-Path $Dir 'gate.profile.json'
        $null = New-MailboxProfile -Name gate -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -ThreadCount 1 -Path (New-Item -ItemType Directory -Path (Join-Path $Dir 'db')).FullName -SaveTo $profilePath
        $results = Join-Path $Dir 'Results'

        $outcome = Invoke-WithResource -ArgumentList $profilePath, $results -Body @'
$resource = [ExchStorageValidation]::new()
$resource.Name = 'gate'
$resource.ProfilePath = $args[0]
$resource.OutputPath = $args[1]
$resource.Duration = '00:00:15'
$before = $resource.Test()
$stateBefore = $resource.Get()
$setError = $null
try {
    $resource.Set()
}
catch {
    $setError = $_.Exception.Message
}
[pscustomobject]@{ Before = $before; StateBefore = $stateBefore; SetError = $setError; After = $resource.Test(); StateAfter = $resource.Get() }
'@
        $outcome.Before | Should -BeFalse
        $outcome.StateBefore.GetType().Name | Should -Be 'ExchStorageValidation'
        $outcome.StateBefore.Name | Should -Be 'gate'
        $outcome.StateBefore.LastResult | Should -Be 'NotRun'
        $outcome.StateBefore.LastRunUtc | Should -BeNullOrEmpty
        Get-ReasonCode $outcome.StateBefore | Should -Be @('ExchStorageValidation:ExchStorageValidation:NoResult')

        # Set ran one real test; its results file is the judge of what Get, Test and Set must say.
        $documents = @(Get-ChildItem -LiteralPath $results -Filter '*.json' -Recurse | ForEach-Object { Get-Content -Raw -LiteralPath $_.FullName } | Where-Object { $_ -like '*exchstoragetest/results*' })
        $documents.Count | Should -Be 1
        $document = $documents[0] | ConvertFrom-Json
        $verdict = $document.verdict.result
        Write-Host "Set's storage test on this disk: $verdict"
        $document.completion | Should -Be 'Complete'
        $outcome.StateAfter.LastResult | Should -Be $verdict
        $ended = [regex]::Match($documents[0], '"testEndUtc":\s*"([^"]+)"').Groups[1].Value
        $reported = [DateTime]::Parse($outcome.StateAfter.LastRunUtc, [Globalization.CultureInfo]::InvariantCulture, 'RoundtripKind').ToUniversalTime()
        [Math]::Abs(($reported - [DateTime]::Parse($ended, [Globalization.CultureInfo]::InvariantCulture, 'AdjustToUniversal')).TotalSeconds) | Should -BeLessThan 1
        if ($verdict -eq 'Pass') {
            $outcome.SetError | Should -BeNullOrEmpty
            $outcome.After | Should -BeTrue
            Get-ReasonCode $outcome.StateAfter | Should -BeNullOrEmpty
        }
        else {
            # This disk failed the thresholds: Set says so, naming every reason, and the state stays out of line.
            $outcome.SetError | Should -Match ([regex]::Escape('the storage test failed (Fail, Complete)'))
            foreach ($reason in $document.verdict.reasons) { $outcome.SetError | Should -Match ([regex]::Escape($reason.message)) }
            $outcome.After | Should -BeFalse
            Get-ReasonCode $outcome.StateAfter | Should -Be @('ExchStorageValidation:ExchStorageValidation:ResultFailed')
        }
    }

    It 'makes a missing profile a reason, not an error, and writes nothing' {
        # In a runspace of its own: DSC shows the verbose stream of Get and Test, and the class's methods take
        # the preference from the session's global scope.
        $missing = Join-Path $Dir 'missing.profile.json'
        $runspace = New-ModuleRunspace
        try {
            $run = Invoke-InRunspace $runspace -ArgumentList $missing -Script (("using module '{0}'`n" -f ((Get-ModuleManifest) -replace "'", "''")) + @'
$resource = [ExchStorageValidation]::new()
$resource.Name = 'gate'
$resource.ProfilePath = $args[0]
$VerbosePreference = 'Continue'
[pscustomobject]@{ InState = $resource.Test(); State = $resource.Get() }
'@)
        }
        finally {
            $runspace.Dispose()
        }
        $run.Error | Should -BeNullOrEmpty
        $run.Output.Count | Should -Be 1
        $run.Output[0].InState | Should -BeFalse
        $run.Output[0].State.LastResult | Should -Be 'NotRun'
        Get-ReasonCode $run.Output[0].State | Should -Be @('ExchStorageValidation:ExchStorageValidation:ProfileNotFound')
        @($run.Verbose | Where-Object { $_.Message -like 'ProfileNotFound: *missing.profile.json*' }) | Should -Not -BeNullOrEmpty
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }

    It 'hides the state command from users and shows it to the root module' {
        @(Get-Command -Name Get-StorageValidationState -ErrorAction SilentlyContinue).Count | Should -Be 0
        @(& (Get-Module ExchStorageTest) { Get-Command -Name Get-StorageValidationState }).Count | Should -Be 1
    }
}
