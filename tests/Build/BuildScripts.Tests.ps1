# The build scripts as a newcomer runs them: build.ps1 under PowerShell (here the pwsh of the tests, on Linux
# too) and build.sh, each building and then running the same demo, the README's pipeline in pwsh (tools/Demo.ps1) on
# the built-in profile in a folder of its own. Both run one implementation (tools/Build.psm1): build.sh only restores
# PowerShell 7 and starts build.ps1, which only imports the module; and Test's summary, read from recorded results.

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
        $run.Output -join "`n" | Should -Match ([regex]::Escape('==> Publishing the engine for'))
    }

    It 'build.sh Demo builds and runs the same demo pipeline' -Tag 'Needs:Unix' -Skip:(Test-Missing Unix) {
        $run = Invoke-Process -FilePath 'bash' -ArgumentList @((Join-Path $Root 'build.sh'), 'Demo', $Folder) -WorkingDirectory $Root -Timeout ([timespan]::FromMinutes(15))
        Assert-Demo $run $Folder
    }
}

Describe 'One build implementation' {
    It 'build.sh holds no task: it restores PowerShell 7 and hands its task and arguments to build.ps1' {
        $script = Get-Content -Raw -LiteralPath (Join-Path $Root 'build.sh')
        $script | Should -Match 'exec dotnet pwsh -NoProfile -File build\.ps1 "\$@"'
        # No build, test, publish or run of its own, and no task names to dispatch on but Test's verdict line.
        $script | Should -Not -Match 'dotnet (build|test|publish|run|restore)\b'
        $script | Should -Not -Match '\b(Build|Package|Demo|Bench)\)'
    }

    It 'build.ps1 holds no task: it imports tools/Build.psm1, where every task is' {
        # Its code, without the help block.
        $script = (Get-Content -Raw -LiteralPath (Join-Path $Root 'build.ps1')) -replace '(?s)<#.*?#>', ''
        $script | Should -Match ([regex]::Escape('Import-Module (Join-Path $PSScriptRoot ''tools/Build.psm1'')'))
        $script | Should -Not -Match '(?m)^[^#]*\bdotnet\b'
    }

    It 'build.sh Test without the .NET SDK still ends with its verdict line' -Tag 'Needs:Unix' -Skip:(Test-Missing Unix) {
        # A PATH with dirname and nothing else: no dotnet.
        $bare = New-ScratchFolder 'bare-path'
        try {
            $null = New-Item -ItemType SymbolicLink -Path (Join-Path $bare 'dirname') -Target (Get-Command dirname -CommandType Application | Select-Object -First 1).Source
            $bash = (Get-Command bash -CommandType Application | Select-Object -First 1).Source
            $run = Invoke-Process -FilePath 'env' -ArgumentList @("PATH=$bare", $bash, (Join-Path $Root 'build.sh'), 'Test') -WorkingDirectory $Root -Timeout ([timespan]::FromMinutes(1))
            $run.ExitCode | Should -Be 1
            $run.Output[-1] | Should -Be '0 passed, 1 failed'
            $run.Errors -join "`n" | Should -Match 'The \.NET SDK is not installed'
        }
        finally { Remove-ScratchFolder $bare }
    }

    Context "Test's summary from recorded results" {
        BeforeAll {
            $build = Import-Module (Join-Path $Root 'tools/Build.psm1') -PassThru -Force
            $recorded = Join-Path $PSScriptRoot 'Recorded'
        }
        AfterAll { Remove-Module $build }

        It 'reads a TRX: counts, and each failed test with the first line of its message' {
            $suite = Get-TrxSuite (Join-Path $recorded 'suite.trx')
            $suite.Passed | Should -Be 1
            $suite.Failed | Should -Be 2
            $suite.Failures | Should -Be @(
                'Suite.Tests.Compares(text: "a <b> & c") -- Assert.Equal() Failure: Strings differ <here>',
                'Suite.Tests.TimesOut')
        }

        It "reads a Pester runner's log: its last counts, each [-] test with the line after it, or why it did not run" {
            $suite = Get-PesterLogSuite (Join-Path $recorded 'pester.log') 'Pester'
            $suite.Status | Should -Be 'Counted'
            $suite.Passed | Should -Be 1
            $suite.Failed | Should -Be 1
            $suite.Failures | Should -Be @('reads the folder & its <files> -- Expected 3, but got 2.')
            (Get-PesterLogSuite (Join-Path $recorded 'pester.log') 'Pester (Windows under Wine)').Status | Should -Be 'NoSummary'
        }

        It 'ends with the suites, the failed tests, the tools not run and the line "N passed, N failed"' {
            $lines = & $build {
                Reset-TestSummary
                function Write-Host([string] $Object) { $Object }
                Add-SuiteCount 1 2 'xUnit recorded'
                Add-Failures 'xUnit recorded' @('Suite.Tests.TimesOut')
                Add-NotRun 'syntax-QA' 'node not installed'
                Write-TestSummary | ForEach-Object { "$_" }
            }
            $lines | Should -Be @('xUnit recorded: 1 passed, 2 failed', '', 'Suites:', '  xUnit recorded: 1 passed, 2 failed',
                'Failed tests:', '  xUnit recorded: Suite.Tests.TimesOut', 'NOTE: not run for lack of a tool: syntax-QA(node-not-installed)',
                '1 passed, 2 failed', 'False')
        }
    }
}
