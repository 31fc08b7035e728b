# Ctrl+C at an interactive console: the run stops cleanly, no engine outlives it, and Invoke-StorageTest still
# returns the partial result to the pipeline. A real terminal is needed, so a real pwsh runs under a
# terminal (tmux), and the test types Ctrl+C into it.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
}

Describe 'Ctrl+C at the console' -Tag 'Needs:Terminal' -Skip:(Test-Missing Terminal) {
    BeforeEach {
        $Dir = New-ScratchFolder 'ctrlc'
        $Work = New-ScratchFolder 'ctrlc-console'
        # A tmux server of this test's own (its socket named for it): a real terminal that answers pwsh's
        # cursor queries, as the admin's terminal does.
        $Socket = 'exst-pester-' + [guid]::NewGuid().ToString('N').Substring(0, 8)
    }
    AfterEach {
        & tmux -L $Socket kill-server 2>$null
        Remove-ScratchFolder $Dir, $Work
    }

    It 'stops the run and the command still returns the partial result' {
        $results = Join-Path $Dir 'Results'
        $resultFile = Join-Path $Work 'result.txt'
        $exitFile = Join-Path $Work 'exit.txt'
        $script = Join-Path $Work 'run.ps1'
        Set-Content -LiteralPath $script -Value @"
Import-Module '$(Get-ModuleManifest)' -ErrorAction Stop
New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 5 -Path '$Dir' |
    Invoke-StorageTest -Duration 00:10:00 -ThreadCount 1 -SampleIntervalSeconds 1 -Warmup 0 -OutputPath '$results' -Force |
    ForEach-Object { `$line = 'RESULT ' + `$_.Completion + ' ' + `$_.ResultsPath; Set-Content -LiteralPath '$resultFile' -Value `$line; `$line }
"@
        # The shell stays after pwsh ends, so the screen can still be read (kill-server ends it).
        & tmux -L $Socket -f /dev/null new-session -d -x 160 -y 50 -s console "'$(Get-PowerShellPath)' -NoProfile -File '$script'; echo `$? > '$exitFile'; sleep 600"
        $LASTEXITCODE | Should -Be 0
        $shell = [int](& tmux -L $Socket display-message -p -t console '#{pane_pid}')
        $screen = { (& tmux -L $Socket capture-pane -p -t console -S -200) -join "`n" }

        Wait-Until { (& $screen) -like '*Measuring:*' } -Timeout ([timespan]::FromMinutes(2)) | Should -BeTrue -Because 'the run must start measuring'
        Start-Sleep -Seconds 2
        $engines = Get-EngineProcessId -Under $shell
        $engines | Should -Not -BeNullOrEmpty

        & tmux -L $Socket send-keys -t console C-c
        Wait-Until { Test-Path -LiteralPath $exitFile } -Timeout ([timespan]::FromSeconds(60)) | Should -BeTrue -Because 'the console must finish after Ctrl+C'
        $text = & $screen

        # No signal ended pwsh: the key was read, not delivered as SIGINT, and the pipeline went on.
        (Get-Content -LiteralPath $exitFile) | Should -Be '0' -Because $text
        $line = Get-Content -LiteralPath $resultFile
        $line | Should -BeLike 'RESULT Stopped *'
        Test-Path -LiteralPath ($line -replace '^RESULT Stopped ', '') | Should -BeTrue
        $text | Should -BeLike '*ExchStorageTest: the run was stopped*'
        @(Get-Process -Id $engines -ErrorAction SilentlyContinue) | Should -BeNullOrEmpty
    }
}
