# The README's PowerShell example, word for word, as an admin pastes it after installing the module: a new PowerShell
# in a folder of its own, the module installed from the build's package (Install-ModulePackage), the block extracted
# from README.md.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
}

Describe 'The README example' {
    BeforeEach {
        # The admin's folder, on a real disk, outside the repository and the installed module: the example makes its
        # ./lab there.
        $null = Install-ModulePackage
        $Scratch = New-ScratchFolder 'readme'
        $Lab = Join-Path $Scratch 'lab'
    }
    AfterEach {
        Remove-ScratchFolder $Scratch
    }

    It 'runs in a new PowerShell from the installed package, shows the verdict, and the run writes its reports beside its results' {
        $readme = [System.IO.File]::ReadAllText((Join-Path (Get-RepositoryRoot) 'README.md'))
        $example = [regex]::Match($readme, '```powershell\r?\n(.*?)```', 'Singleline').Groups[1].Value
        $example | Should -Match ([regex]::Escape('Import-Module ExchStorageTest'))
        $example | Should -Match ([regex]::Escape('-Path ./lab'))

        # After the block, which copy it imported: the installed one, not the repository's.
        $run = Invoke-PowerShellProcess -Command (Get-PackageImportCommand ($example + "`n'ModuleBase: ' + (Get-Module ExchStorageTest).ModuleBase")) -WorkingDirectory $Scratch

        $run.Errors | Should -BeNullOrEmpty
        $run.ExitCode | Should -Be 0
        $run.Output | Should -Contain ('ModuleBase: ' + (Install-ModulePackage))
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
