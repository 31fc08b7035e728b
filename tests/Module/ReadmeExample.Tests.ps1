# The README's PowerShell example, word for word, as an admin pastes it: a new PowerShell started in the module's
# folder, the block extracted from README.md.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
}

Describe 'The README example' {
    BeforeEach {
        # The module's folder as installed, copied into a scratch folder on a real disk: the example's ./lab is made
        # there, not in the repository (where the suites' Linux and Windows runs would meet).
        $Scratch = New-ScratchFolder 'readme'
        $ModuleFolder = Copy-InstalledModule -Destination $Scratch
        $Lab = (New-Item -ItemType Directory -Path (Join-Path $ModuleFolder 'lab')).FullName
    }
    AfterEach {
        Remove-ScratchFolder $Scratch
    }

    It 'runs in a new PowerShell in the module''s folder, shows the verdict, and the run writes its reports beside its results' {
        $readme = [System.IO.File]::ReadAllText((Join-Path (Get-RepositoryRoot) 'README.md'))
        $example = [regex]::Match($readme, '```powershell\r?\n(.*?)```', 'Singleline').Groups[1].Value
        $example | Should -Match ([regex]::Escape('Import-Module ./ExchStorageTest.psd1'))
        $example | Should -Match ([regex]::Escape('-Path ./lab'))

        $run = Invoke-PowerShellProcess -Command $example -WorkingDirectory $ModuleFolder

        $run.Errors | Should -BeNullOrEmpty
        $run.ExitCode | Should -Be 0
        # The run's own reports, beside the results file in the profile's default Results folder: the example asks
        # for no report files, so Get-TestReport writes none (docs/files.md: a second copy would be _2).
        $reports = Get-RunReportSet (Join-Path $Lab 'Results')
        $reports.Documents.Count | Should -Be 1
        $reports.Missing | Should -BeNullOrEmpty
        $reports.Others | Should -BeNullOrEmpty
        $document = Get-Content -Raw -LiteralPath $reports.Documents[0].FullName | ConvertFrom-Json
        # What the console shows is the report of that run: its TestId and its verdict.
        $screen = $run.Output -join "`n"
        $screen | Should -Match ([regex]::Escape($document.testId))
        $screen | Should -Match ([regex]::Escape($document.verdict.result))
    }
}
