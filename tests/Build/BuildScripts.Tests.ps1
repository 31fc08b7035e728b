# The build scripts as a newcomer runs them: build.ps1 under PowerShell (here the pwsh of the tests, on Linux
# too, so it is no longer only parsed) and build.sh, each building and then running the same demo, the README's
# pipeline in pwsh (tools/Demo.ps1) on the built-in profile in a folder of its own.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    $Root = Get-RepositoryRoot

    function Assert-Demo($Run, [string] $Folder) {
        $screen = $Run.Output -join "`n"
        $Run.ExitCode | Should -Be 0 -Because $screen
        $screen | Should -Match ([regex]::Escape('==> Building the engine, the cmdlets and the help'))
        $screen | Should -Match ([regex]::Escape('==> Demo: New-MailboxProfile | Invoke-StorageTest | Get-TestReport'))
        # One run, its own reports beside its results and no copies of them.
        $results = Join-Path $Folder 'Results'
        $reports = Get-RunReportSet $results
        $reports.Documents.Count | Should -Be 1
        $reports.Missing | Should -BeNullOrEmpty
        $reports.Others | Should -BeNullOrEmpty
        # The built-in profile, threads tuned as a first run's would be (no -ThreadCount).
        $document = Get-Content -Raw -LiteralPath $reports.Documents[0].FullName | ConvertFrom-Json
        $document.testType | Should -Be 'Performance'
        $document.settings.durationSeconds | Should -Be 30
        [double]$document.sizing.targetTransactionalIops | Should -Be 50
        $document.tuningOutcome | Should -Not -BeNullOrEmpty
        # The console shows the verdict and the text report of that run.
        $screen | Should -Match ([regex]::Escape($document.testId))
        $screen | Should -Match ("ExchStorageTest Performance test on .*: " + $document.verdict.result.ToUpperInvariant())
        $screen | Should -Match ([regex]::Escape("Reports: $results"))
    }
}

Describe 'The build scripts' {
    BeforeEach { $Folder = New-ScratchFolder 'demo' }
    AfterEach { Remove-ScratchFolder $Folder }

    It 'build.ps1 Demo, under PowerShell, builds and runs the demo pipeline' {
        $run = Invoke-Process -FilePath (Get-PowerShellPath) -ArgumentList @('-NoProfile', '-NonInteractive', '-File', (Join-Path $Root 'build.ps1'), 'Demo', '-DemoPath', $Folder) -WorkingDirectory $Root -Timeout ([timespan]::FromMinutes(15))
        Assert-Demo $run $Folder
        $run.Output -join "`n" | Should -Match ([regex]::Escape('==> Publishing the native helper for'))
    }

    It 'build.sh Demo builds and runs the same demo pipeline' -Tag 'Needs:Unix' -Skip:(Test-Missing Unix) {
        $run = Invoke-Process -FilePath 'bash' -ArgumentList @((Join-Path $Root 'build.sh'), 'Demo', $Folder) -WorkingDirectory $Root -Timeout ([timespan]::FromMinutes(15))
        Assert-Demo $run $Folder
    }
}
