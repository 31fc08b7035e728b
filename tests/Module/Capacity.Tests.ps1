# Invoke-StorageTest -TestType Capacity end to end (docs/capacity.md): the real engine on a real folder, a search of
# short steps (1 s samples) within a short bound; the plan under -WhatIf; the answer and load curve on the result,
# in the text report and charted in the HTML report; the progress bar naming each step.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $Runspace = New-ModuleRunspace
}

AfterAll {
    $Runspace.Dispose()
}

Describe 'Invoke-StorageTest -TestType Capacity' {
    BeforeEach { $Fixture = New-RunFixture 'capacity' -IopsPerMailbox 1 -DatabaseCount 1 }
    AfterEach { $Fixture.Remove() }

    It 'describes the search with -WhatIf (start, stepping, step length, bound) and writes nothing' {
        $text = Get-WhatIfText "$($Fixture.Profile) | Invoke-StorageTest -TestType Capacity -Duration 00:00:40 -SampleIntervalSeconds 1 -Warmup 00:00:02"
        $text | Should -BeLike "*What if: Run a Capacity storage test with mailbox profile '*' for at most 00:00:40, the whole search's time bound (-Duration):*"
        $text | Should -Not -BeLike '*default length*'
        # A search does not tune: each step gets the sessions its paced rate needs.
        $text | Should -BeLike '*target 20 transactional IOPS at the first step, threads: as many as each step''s paced rate needs.*'
        $text | Should -Not -BeLike '*automatic tuning*'
        # 40 s bound, 2 s warm-up, 1 s samples: settle 2 s, window max(4 x 1 s, (40 - 2) / 12 - 2) = 4 s, so 6 steps fit.
        $text | Should -BeLike '*Capacity search: from 20 mailboxes at 1 IOPS per mailbox*doubling until a step fails*bisecting to 5%*settling 2 s and measuring 4 s; one 2 s warm-up; at most 6 steps, the whole search within 40 s*'
        Get-FolderEntry $Fixture.Folder | Should -BeNullOrEmpty
    }

    It 'says with -WhatIf that without -Duration the whole search is bounded by the default 30 minutes' {
        $text = Get-WhatIfText "$($Fixture.Profile) | Invoke-StorageTest -TestType Capacity"
        $text | Should -BeLike "*Run a Capacity storage test with mailbox profile '*' for at most 00:30:00, the whole search's time bound (the default):*"
        $text | Should -BeLike '*the whole search within 1800 s*'
        $text | Should -Not -BeLike '*default length*'
        Get-FolderEntry $Fixture.Folder | Should -BeNullOrEmpty
    }

    It 'answers with a mailbox count and its load curve, names each step on the progress bar and charts the curve' {
        $clock = [System.Diagnostics.Stopwatch]::StartNew()
        $run = Invoke-InRunspace $Runspace "$($Fixture.Profile) | Invoke-StorageTest -TestType Capacity -Duration 00:00:25 -SampleIntervalSeconds 1 -Warmup 00:00:02 -Force"
        $clock.Stop()
        $run.Exception | Should -BeNullOrEmpty
        $result = $run.Output[0]
        $result.TestType | Should -Be 'Capacity'
        $c = $result.Capacity
        $c.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.CapacityAnswer'
        $steps = @($c.Steps)
        $steps.Count | Should -BeGreaterOrEqual 2
        $steps[0].Mailboxes | Should -Be 20
        Get-MissingViewedProperty $c | Should -BeNullOrEmpty
        Get-MissingViewedProperty $steps[0] | Should -BeNullOrEmpty
        # The answer is the largest pass below the first fail, and the headroom line is its arithmetic.
        $failed = @($steps | Where-Object Result -eq 'Fail' | Sort-Object Mailboxes)
        $below = @($steps | Where-Object { $_.Result -eq 'Pass' -and ($failed.Count -eq 0 -or $_.Mailboxes -lt $failed[0].Mailboxes) } | Sort-Object Mailboxes)
        $c.Mailboxes | Should -Be $(if ($below.Count) { $below[-1].Mailboxes } else { 0 })
        if ($failed.Count) { $c.LimitingMailboxes | Should -Be $failed[0].Mailboxes; $c.LimitingRule | Should -Be $failed[0].LimitingRule }
        $c.RequiredMailboxes | Should -Be 20
        $c.PercentOverRequirement | Should -Be ([math]::Round(($c.Mailboxes / 20 - 1) * 100, 1))
        $c.StopReason | Should -BeIn @('Resolved', 'TimeBoundReached', 'MaximumReached')
        ($result.Result -eq 'Pass') | Should -Be ($c.Mailboxes -ge 20)
        # It stops itself within its bound (database creation and process start are outside it).
        $clock.Elapsed.TotalSeconds | Should -BeLessThan 60

        @($run.Progress | Where-Object { $_.CurrentOperation -eq 'Step 1: 20 mailboxes' }) | Should -Not -BeNullOrEmpty
        @($run.Progress | Where-Object { $_.CurrentOperation -eq "Step 2: $($steps[1].Mailboxes) mailboxes" }) | Should -Not -BeNullOrEmpty

        $html = Get-Content -Raw -LiteralPath ($result.ReportPath | Where-Object { $_ -like '*.html' })
        $html | Should -BeLike '*<legend>Capacity</legend>*'
        $html | Should -BeLike '*aria-label="Load curve: transactional IOPS by mailboxes"*'
        $html | Should -BeLike '*aria-label="Load curve: latency by mailboxes"*'
        $text = Get-Content -Raw -LiteralPath ($result.ReportPath | Where-Object { $_ -like '*.txt' -and $_ -notlike '*.esrp.txt' })
        $text | Should -BeLike '*Load curve (each step judged by the Performance rules)*'
        $text | Should -BeLike "*Against the profile's 20 mailboxes*"

        # The answer states its bound: a search that never failed (here most often cut by the 25 s bound) is "at least N",
        # named by what cut it; one a step failed on the storage's rules is the storage's own.
        if ($failed.Count -eq 0) {
            $c.LowerBound | Should -BeTrue
            $c.LowerBoundReason | Should -Be $c.StopReason
            "$c" | Should -BeLike "at least $($c.Mailboxes) mailboxes (no step failed: $($c.StopReason))"
            $text | Should -BeLike "*The storage carried at least $($c.Mailboxes) mailboxes*"
        }
        elseif ($c.LimitingRule -ne 'HostLimited') {
            $c.LowerBound | Should -BeFalse
            $c.LowerBoundReason | Should -BeNullOrEmpty
        }
        # Every figure outside the curve is one step's, beside that step's own target: the answer's step (else the first fail).
        $reported = if ($below.Count) { @($steps | Where-Object { $_.Result -eq 'Pass' -and $_.Mailboxes -eq $c.Mailboxes } | Sort-Object AchievedIops)[-1] } else { $failed[0] }
        $result.TargetIops | Should -Be $reported.TargetIops
        $result.AchievedIops | Should -Be $reported.AchievedIops
        $text | Should -BeLike "*The figures in the sections below are step $($reported.Step)'s window: $($reported.Mailboxes) mailboxes*"
        $text | Should -BeLike '*Host System Performance*'
        $esrp = Get-Content -Raw -LiteralPath ($result.ReportPath | Where-Object { $_ -like '*.esrp.txt' })
        $esrp | Should -BeLike "*Number of Exchange mailboxes simulated`t$($reported.Mailboxes)*"
        $esrp | Should -BeLike "*Targeted Database Disks Transfers/sec`t*"
        $esrp | Should -Not -BeLike "*Number of servers tested`t0*"
    }
}
