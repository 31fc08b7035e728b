#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# Drives Invoke-EngineProcess against a fake engine: a shell script that prints canned JSON
# Lines and exits with a chosen code. Needs a Unix shell, so it is skipped on Windows; the
# integration test covers the real engine on every platform where it is built.

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
    $savedEngine = $env:EXCHSTORAGETEST_ENGINE

    function New-FakeEngine([string] $Name, [string[]] $Lines, [int] $ExitCode = 0) {
        $path = Join-Path -Path $TestDrive -ChildPath $Name
        $body = New-Object -TypeName System.Text.StringBuilder
        [void]$body.Append("#!/bin/sh`ncat > /dev/null`n")
        foreach ($line in $Lines) {
            [void]$body.Append("printf '%s\n' '" + $line.Replace("'", "'\''") + "'`n")
        }
        [void]$body.Append("echo 'diagnostic on stderr' >&2`nexit $ExitCode`n")
        [System.IO.File]::WriteAllText($path, $body.ToString())
        & chmod +x $path
        $path
    }
}

AfterAll {
    $env:EXCHSTORAGETEST_ENGINE = $savedEngine
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Invoke-EngineProcess' -Skip:($PSVersionTable.PSEdition -eq 'Desktop' -or $IsWindows) {
    It 'checks hello, routes log events, and outputs result events' {
        $env:EXCHSTORAGETEST_ENGINE = New-FakeEngine -Name 'ok.sh' -Lines @(
            '{"type":"hello","protocol":1,"engineVersion":"0.1.0","os":"linux","runtime":".NET 8","timeUtc":"2026-01-01T00:00:00Z"}'
            '{"type":"log","level":"verbose","message":"preparing","timeUtc":"2026-01-01T00:00:00Z"}'
            '{"type":"progress","phase":"Warmup","percent":10,"etaSeconds":20,"status":"filling cache","timeUtc":"2026-01-01T00:00:00Z"}'
            '{"type":"sample","achievedIops":51,"dbReadLatencyMs":4.2,"logWriteLatencyMs":{"average":0.9},"timeUtc":"2026-01-01T00:00:00Z"}'
            '{"type":"result","testId":"t1","result":"Pass","timeUtc":"2026-01-01T00:00:00Z"}'
        )
        $events = @(InModuleScope ExchStorageTest { Invoke-EngineProcess -Request ([ordered]@{ protocol = 1; command = 'version' }) -Verbose 4>&1 })
        $results = @($events | Where-Object { $_ -isnot [System.Management.Automation.VerboseRecord] })
        $verbose = @($events | Where-Object { $_ -is [System.Management.Automation.VerboseRecord] })
        $results.Count | Should -Be 1
        $results[0].testId | Should -Be 't1'
        ($verbose.Message -join "`n") | Should -Match 'preparing'
    }

    It 'refuses an engine that speaks another protocol, naming both versions' {
        $env:EXCHSTORAGETEST_ENGINE = New-FakeEngine -Name 'v2.sh' -Lines @('{"type":"hello","protocol":2,"engineVersion":"9.0.0"}')
        $thrown = $null
        try {
            InModuleScope ExchStorageTest { Invoke-EngineProcess -Request ([ordered]@{ protocol = 1; command = 'version' }) }
        }
        catch {
            $thrown = $_
        }
        $thrown.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineProtocolMismatch*'
        $thrown.Exception.Message | Should -Match 'protocol 2'
        $thrown.Exception.Message | Should -Match 'protocol 1'
    }

    It 'turns the error event of a failed run (exit 2) into a terminating error with its code, category and target' {
        $env:EXCHSTORAGETEST_ENGINE = New-FakeEngine -ExitCode 2 -Name 'bad.sh' -Lines @(
            '{"type":"hello","protocol":1,"engineVersion":"0.1.0"}'
            '{"type":"error","code":"InsufficientSpace","category":"ResourceUnavailable","message":"Needs 2 GB, 1 GB free.","target":"/mnt/db"}'
        )
        $thrown = $null
        try {
            InModuleScope ExchStorageTest { Invoke-EngineProcess -Request ([ordered]@{ protocol = 1; command = 'plan' }) }
        }
        catch {
            $thrown = $_
        }
        $thrown.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.InsufficientSpace*'
        $thrown.CategoryInfo.Category | Should -Be 'ResourceUnavailable'
        $thrown.TargetObject | Should -Be '/mnt/db'
    }

    It 'writes error events of a run that completes (exit 0) as non-terminating errors' {
        $env:EXCHSTORAGETEST_ENGINE = New-FakeEngine -Name 'ioerr.sh' -Lines @(
            '{"type":"hello","protocol":1,"engineVersion":"0.1.0"}'
            '{"type":"error","code":"IoError","category":"WriteError","message":"EIO at offset 0","target":"db1"}'
            '{"type":"result","testId":"t2","result":"Fail"}'
        )
        $errors = $null
        $output = @(InModuleScope ExchStorageTest { Invoke-EngineProcess -Request ([ordered]@{ protocol = 1; command = 'run' }) -ErrorAction SilentlyContinue -ErrorVariable engineErrors; $script:capturedErrors = $engineErrors })
        $errors = InModuleScope ExchStorageTest { $script:capturedErrors }
        $output.Count | Should -Be 1
        @($errors).Count | Should -Be 1
        @($errors)[0].FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.IoError*'
    }

    It 'reports a crash without an error event as ExchStorageTest.EngineFailed with the stderr tail' {
        $env:EXCHSTORAGETEST_ENGINE = New-FakeEngine -ExitCode 1 -Name 'crash.sh' -Lines @('{"type":"hello","protocol":1,"engineVersion":"0.1.0"}')
        $thrown = $null
        try {
            InModuleScope ExchStorageTest { Invoke-EngineProcess -Request ([ordered]@{ protocol = 1; command = 'run' }) }
        }
        catch {
            $thrown = $_
        }
        $thrown.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineFailed*'
        $thrown.Exception.Message | Should -Match 'diagnostic on stderr'
    }
}

Describe 'Engine event helpers' {
    It 'maps known category names and falls back to NotSpecified' {
        InModuleScope ExchStorageTest {
            ConvertTo-ErrorCategory -Name 'PermissionDenied' | Should -Be ([System.Management.Automation.ErrorCategory]::PermissionDenied)
            ConvertTo-ErrorCategory -Name 'SomethingNew' | Should -Be ([System.Management.Automation.ErrorCategory]::NotSpecified)
            ConvertTo-ErrorCategory -Name $null | Should -Be ([System.Management.Automation.ErrorCategory]::NotSpecified)
        }
    }

    It 'builds the progress status from the last sample' {
        InModuleScope ExchStorageTest {
            $sample = [pscustomobject]@{ achievedIops = 1234; dbReadLatencyMs = [pscustomobject]@{ average = 5.25; p99 = 20 }; logWriteLatencyMs = 1.5 }
            $status = Format-LiveStatus -Status 'measuring' -Sample $sample
            $status | Should -Match 'measuring'
            $status | Should -Match 'IOPS'
            $status | Should -Match 'DB read'
            $status | Should -Match 'log write'
        }
    }

    It 'picks the engine for this platform under bin/<rid>/' {
        InModuleScope ExchStorageTest {
            Get-EngineRuntimeId | Should -Match '^(win|linux|osx)-(x64|arm64|x86|arm)$'
        }
    }
}
