# Test-DatabaseChecksum over the databases and logs a real run created, intact and damaged.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $CommandName = 'ExchStorageTest.Commands.TestDatabaseChecksumCommand'
    $PageSize = 32 * 1024
    $Runs = Get-FinishedRun
    function Get-Database([int] $N) { Join-Path $Runs.Folder "DB$N/ExchStorageTest00$N.edb" }
    function Get-LogCount([int] $N) { @(Get-ChildItem -LiteralPath (Join-Path $Runs.Folder "DB$N/Logs") -Filter 'E00*.log').Count }
}

Describe 'Test-DatabaseChecksum' {
    BeforeEach { $Dir = New-ScratchFolder 'tdc' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'finds no bad page in the databases and logs of a run, and shows progress' {
        # Progress records are collected only through the PowerShell API: this one runs in a runspace.
        $runspace = New-ModuleRunspace
        try { $run = Invoke-InRunspace $runspace 'Test-DatabaseChecksum -Path $args[0] -Detailed' -ArgumentList $Runs.Folder }
        finally { $runspace.Dispose() }
        $run.Exception | Should -BeNullOrEmpty
        $results = $run.Output
        foreach ($r in $results) {
            $r.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ChecksumResult'
            $r.Result | Should -Be 'Pass'
        }
        Get-MissingViewedProperty $results[0] | Should -BeNullOrEmpty

        $databases = @($results | Where-Object Kind -eq 'Database')
        $databases.Path | Should -Be @((Get-Database 1), (Get-Database 2))
        foreach ($db in $databases) {
            # Every data page of the file was read: all but the header page.
            $db.PagesChecked | Should -Be ((Get-Item -LiteralPath $db.Path).Length / $PageSize - 1)
            $db.BadPages | Should -Be 0
        }
        $logs = @($results | Where-Object Kind -eq 'Log')
        $logs.Count | Should -Be ((Get-LogCount 1) + (Get-LogCount 2))
        foreach ($l in $logs) { $l.BadLogs | Should -Be 0 }

        @($run.Progress | Where-Object { $_.CurrentOperation -eq 'Checksum' -and $_.PercentComplete -ge 0 }) | Should -Not -BeNullOrEmpty
        @($run.Progress | Where-Object { $_.RecordType -eq 'Completed' }) | Should -Not -BeNullOrEmpty
    }

    It 'gives one object per database and per log stream of a folder, the log files summed' {
        $results = @(Test-DatabaseChecksum -Path $Runs.Folder)
        $results.Kind | Should -Be @('Database', 'Database', 'LogStream', 'LogStream')
        $results.Path | Should -Be @((Get-Database 1), (Get-Database 2), (Join-Path $Runs.Folder 'DB1/Logs'), (Join-Path $Runs.Folder 'DB2/Logs'))
        $results[2].LogsChecked | Should -Be (Get-LogCount 1)
        $results[3].LogsChecked | Should -Be (Get-LogCount 2)
        foreach ($r in $results) { $r.Result | Should -Be 'Pass' }
    }

    It 'fails a log stream with a damaged log file and names the file' {
        $logs = (New-Item -ItemType Directory -Path (Join-Path $Dir 'Logs')).FullName
        Copy-Item -Path (Join-Path $Runs.Folder 'DB1/Logs/E00*.log') -Destination $logs
        # The first log file holds the run's first log block from its second sector on, however little the run logged:
        # bytes inside that block's records (a later file may be unused, and an offset further in may fall on the
        # header of the run's last block, which then reads as the log's end).
        $victim = @(Get-ChildItem -LiteralPath $logs -Filter 'E00*.log' | Sort-Object Name)[0]
        $bytes = [System.IO.File]::ReadAllBytes($victim.FullName)
        for ($i = 4096 + 48; $i -lt 4096 + 64; $i++) { $bytes[$i] = $bytes[$i] -bxor 0xFF }
        [System.IO.File]::WriteAllBytes($victim.FullName, $bytes)
        $stream = @(Test-DatabaseChecksum -Path $logs)
        $stream.Count | Should -Be 1
        $stream[0].Kind | Should -Be 'LogStream'
        $stream[0].Result | Should -Be 'Fail'
        $stream[0].BadLogs | Should -Be 1
        $stream[0].Message | Should -BeLike "*$($victim.Name): *"
    }

    It 'fails a database with a damaged page and names the page, reading only' {
        $copy = Join-Path (New-Item -ItemType Directory -Path (Join-Path $Dir 'DB1')).FullName 'ExchStorageTest001.edb'
        Copy-Item -LiteralPath (Get-Database 1) -Destination $copy
        $damaged = 100
        $file = [System.IO.File]::Open($copy, 'Open', 'ReadWrite')
        try {
            $bytes = New-Object byte[] 16
            $file.Position = $damaged * $PageSize + 4000
            $file.Read($bytes, 0, $bytes.Length) | Should -Be 16
            for ($i = 0; $i -lt $bytes.Length; $i++) { $bytes[$i] = $bytes[$i] -bxor 0xFF }
            $file.Position = $damaged * $PageSize + 4000
            $file.Write($bytes, 0, $bytes.Length)
        }
        finally {
            $file.Dispose()
        }
        $before = (Get-Item -LiteralPath $copy).LastWriteTimeUtc

        $result = @(Test-DatabaseChecksum -Path $copy) # a bad page is a result, not an error
        $result.Count | Should -Be 1
        $result[0].Path | Should -Be $copy
        $result[0].Result | Should -Be 'Fail'
        $result[0].BadPages | Should -Be 1
        $result[0].Message | Should -BeLike "*page ${damaged}: checksum mismatch*"
        (Get-Item -LiteralPath $copy).LastWriteTimeUtc | Should -Be $before
    }

    It 'binds the edb file and the log folder of a database object' {
        $results = @([pscustomobject]@{ EdbFilePath = (Get-Database 2); LogFolderPath = (Join-Path $Runs.Folder 'DB2/Logs') } | Test-DatabaseChecksum -Detailed)
        @($results | Where-Object Kind -eq 'Database').Path | Should -Be (Get-Database 2)
        @($results | Where-Object Kind -eq 'Log').Count | Should -Be (Get-LogCount 2)
    }

    It 'refuses a missing path with PathNotFound before anything is read' {
        # The engine's verify command owns the rule (one validator): it refuses the request before it reads a page.
        $missing = Join-Path $Dir 'missing.edb'
        $caught = $null
        $output = @(try { Test-DatabaseChecksum -Path $missing -Verbose 4>&1 } catch { $caught = $_ })
        $caught.FullyQualifiedErrorId | Should -Be "ExchStorageTest.PathNotFound,$CommandName"
        $caught.Exception.Message | Should -BeLike "*$missing*"
        @($output | Where-Object { $_ -isnot [System.Management.Automation.VerboseRecord] }) | Should -BeNullOrEmpty
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }

    It 'refuses a file that is not a database of ours with ForeignFile, reading nothing else and changing nothing' {
        # A file that is not ours is no database at all, so never a "corrupt database" (BadPages 1, Fail).
        $foreign = Join-Path $Dir 'notes.txt'
        Set-Content -LiteralPath $foreign -Value 'Not a database at all.'
        $before = Get-FileHash -LiteralPath $foreign
        $caught = $null
        $output = @(try { Test-DatabaseChecksum -Path $foreign } catch { $caught = $_ })
        $output | Should -BeNullOrEmpty
        $caught.FullyQualifiedErrorId | Should -Be "ExchStorageTest.ForeignFile,$CommandName"
        $caught.CategoryInfo.Category | Should -Be 'ResourceUnavailable'
        $caught.Exception.Message | Should -BeLike "*$foreign*not a database of ExchStorageTest*"
        (Get-FileHash -LiteralPath $foreign).Hash | Should -Be $before.Hash
    }

    It 'still fails a database of ours whose header page was destroyed' {
        $copy = Join-Path (New-Item -ItemType Directory -Path (Join-Path $Dir 'DB1')).FullName 'ExchStorageTest001.edb'
        Copy-Item -LiteralPath (Get-Database 1) -Destination $copy
        $file = [System.IO.File]::Open($copy, 'Open', 'ReadWrite')
        try { $file.Write((New-Object byte[] $PageSize), 0, $PageSize) } finally { $file.Dispose() }
        $result = @(Test-DatabaseChecksum -Path $copy)
        $result.Count | Should -Be 1
        $result[0].Result | Should -Be 'Fail'
        $result[0].Message | Should -BeLike '*page 0 is not a valid ExchStorageTest database header*'
    }

    It 'gives the engine''s DatabaseMissing for a folder without databases or logs' {
        $caught = $null
        $output = @(try { Test-DatabaseChecksum -Path $Dir } catch { $caught = $_ })
        $output | Should -BeNullOrEmpty
        $caught.FullyQualifiedErrorId | Should -Be "ExchStorageTest.DatabaseMissing,$CommandName"
        $caught.CategoryInfo.Category | Should -Be 'ObjectNotFound'
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }
}
