# JetstressCmd against the automation that runs Jetstress today (docs/jetstress.md). Each block runs JetstressCmd as
# its consumer does (working directory, switches, relative OutputPath) and then applies the consumer's own rule,
# re-implemented here, to what was written; each rule cites the repository, path and commit it comes from (the code
# stays there). Durations are the consumers' own, shortened to seconds for CI. JetstressCmd is the installed copy's,
# as an admin has it: bin/<rid>/JetstressCmd[.exe] of the build's package installed by PSResourceGet
# (Install-ModulePackage), or EXCHSTORAGETEST_ENGINE's folder when set.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $IsWindowsHost = [System.Environment]::OSVersion.Platform -eq [System.PlatformID]::Win32NT

    function Get-JetstressCmdFolder {
        if ($env:EXCHSTORAGETEST_ENGINE) { return Split-Path -Parent $env:EXCHSTORAGETEST_ENGINE }
        $arch = 'x64'
        if ([string][System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture -eq 'Arm64') { $arch = 'arm64' }
        $os = 'linux'
        if ($IsWindowsHost) { $os = 'win' } elseif ([System.Runtime.InteropServices.RuntimeInformation]::IsOSPlatform([System.Runtime.InteropServices.OSPlatform]::OSX)) { $os = 'osx' }
        Join-Path (Join-Path (Install-ModulePackage) 'bin') "$os-$arch"
    }
    $ExeName = 'JetstressCmd'
    if ($IsWindowsHost) { $ExeName = 'JetstressCmd.exe' }
    $BinFolder = Get-JetstressCmdFolder

    function New-JetstressFolder([string] $Root) {
        # A folder holding JetstressCmd where 'C:\Program Files\Exchange Jetstress' stood: the engine's published
        # folder, copied (the consumers write their files into it).
        $folder = Join-Path $Root 'Exchange Jetstress'
        Copy-Item -LiteralPath $BinFolder -Destination $folder -Recurse
        Remove-Item -LiteralPath (Join-Path $folder 'Jetstress.log') -ErrorAction SilentlyContinue
        $folder
    }

    function Invoke-JetstressCmd([string] $Folder, [string[]] $ArgumentList, [string] $WorkingDirectory = $Folder) {
        Invoke-Process -FilePath (Join-Path $Folder $ExeName) -ArgumentList $ArgumentList -WorkingDirectory $WorkingDirectory -Timeout ([timespan]::FromMinutes(5))
    }

    function New-Folder([string] $Path) { (New-Item -ItemType Directory -Path $Path -Force).FullName }

    function Set-Profile([xml] $Config, [string] $Mailboxes = '40', [string] $Quota = '1', [string] $Iops = '0.5') {
        $Config.configuration.ExchangeProfile.MailboxCount = $Mailboxes
        $Config.configuration.ExchangeProfile.MailboxQuota = $Quota
        $Config.configuration.ExchangeProfile.MailboxIops = $Iops
    }

    function Get-Results([string] $Folder, [string] $Type) {
        $files = @(Get-ChildItem -LiteralPath $Folder -Filter "$Type*.json")
        $files.Count | Should -Be 1 -Because "one results file of the run in $Folder"
        $results = Get-Content -Raw -LiteralPath $files[0].FullName | ConvertFrom-Json
        $results | Add-Member -NotePropertyName File -NotePropertyValue $files[0]
        $results
    }

    # The cells of an HTML report by position, as jsoup's getElementsByTag gives them to jacobklitzke's JetstressParse
    # (jacobklitzke/Jetstress-HTML-Parse @ ad82d1686565e3159d81b1729bf402832f296f8a, JetstressParse/src/JetstressParse.java):
    # fieldsets in document order, each as its rows, each row as its td cells' text.
    function Get-FieldsetRows([string] $Html) {
        foreach ($fieldset in [regex]::Matches($Html, '(?s)<fieldset>(.*?)</fieldset>')) {
            $rows = @(foreach ($row in [regex]::Matches($fieldset.Groups[1].Value, '(?s)<tr>(.*?)</tr>')) {
                    , @([regex]::Matches($row.Groups[1].Value, '(?s)<td[^>]*>(.*?)</td>') | ForEach-Object { [System.Net.WebUtility]::HtmlDecode($_.Groups[1].Value).Trim() })
                })
            , $rows
        }
    }

    # Java's Double.parseDouble of a cell: a plain number, or the parse throws (a NumberFormatException there).
    function ConvertFrom-JavaDouble([string] $Cell) {
        if ($Cell -notmatch '^-?\d+(\.\d+)?$') { throw "Double.parseDouble('$Cell') would throw" }
        [double]::Parse($Cell, [cultureinfo]::InvariantCulture)
    }
}

Describe 'JetstressCmd as the folder ExchangeDsc''s ExchJetstress runs' -Tag 'Jetstress' {
    BeforeAll {
        $Root = New-ScratchFolder 'dsc'
        $JetstressPath = New-JetstressFolder $Root
        $Databases = New-Folder (Join-Path $Root 'ExchangeDatabases')
        # The configuration the example copies into JetstressPath: here /g's, edited, auto-tuned (SuppressTuning false).
        $generated = Invoke-JetstressCmd $JetstressPath @('/g', '/dbpath', (Join-Path $Databases 'DB1'), '/dbpath', (Join-Path $Databases 'DB2'), '/timeout', '0H0M5S')
        $generated.ExitCode | Should -Be 0
        $null = New-Folder (Join-Path $Databases 'DB1'); $null = New-Folder (Join-Path $Databases 'DB2')
        $ConfigPath = Join-Path $JetstressPath 'JetstressConfig.xml'
        [xml] $config = Get-Content -Raw -LiteralPath $ConfigPath
        Set-Profile $config
        $config.Save($ConfigPath)

        # Start-ExchangeScheduledTask (same commit, source/Modules/ExchangeDscHelper/ExchangeDscHelper.psm1): the action is
        # JetstressPath\JetstressCmd.exe with JetstressParams as one argument string, WorkingDirectory JetstressPath, no
        # console. Set-TargetResource then polls Get-Process -Name JetstressCmd until it is gone.
        $Before = @(Get-ChildItem -LiteralPath $JetstressPath | ForEach-Object { $_.Name } | Where-Object { $_ -ne 'Jetstress.log' })
        $JetstressParams = "/c `"$ConfigPath`""
        $psi = New-Object System.Diagnostics.ProcessStartInfo
        $psi.FileName = Join-Path $JetstressPath $ExeName
        $psi.Arguments = $JetstressParams
        $psi.WorkingDirectory = $JetstressPath
        $psi.UseShellExecute = $false
        $psi.RedirectStandardInput = $true
        $psi.RedirectStandardOutput = $true
        $psi.RedirectStandardError = $true
        $task = [System.Diagnostics.Process]::Start($psi)
        $task.StandardInput.Close()
        $stdout = $task.StandardOutput.ReadToEndAsync()
        $stderr = $task.StandardError.ReadToEndAsync()
        $Seen = Wait-Until { @(Get-Process -Name JetstressCmd -ErrorAction SilentlyContinue | Where-Object { $_.Id -eq $task.Id }).Count -gt 0 -or $task.HasExited } -Timeout ([timespan]::FromSeconds(60))
        $SeenRunning = -not $task.HasExited
        $Ended = $task.WaitForExit(300000)
        $ExitCode = $task.ExitCode
        $Output = $stdout.Result
        $ErrorText = $stderr.Result
        $Results = Get-Results $JetstressPath 'Performance'
        $Report = (Test-ExchangeDscVerdict $JetstressPath 'Performance' 0 ([cultureinfo]'en-US')).File

        # The run's verdict is this machine's disk's (CI's shared disk has held log writes past 10 ms), not the
        # consumer's: the rule is also read on copies of the run's report that differ only in the verdict cell.
        function Copy-ReportWithVerdict([string] $Verdict) {
            $folder = New-Folder (Join-Path $Root "verdict-$Verdict")
            $cell = @{ Pass = '<td class="success">Pass</td>'; Fail = '<td class="failure">Fail</td>' }
            $text = [System.IO.File]::ReadAllText($Report.FullName).Replace($cell.Pass, $cell[$Verdict]).Replace($cell.Fail, $cell[$Verdict])
            [System.IO.File]::WriteAllText((Join-Path $folder $Report.Name), $text)
            $folder
        }
    }
    AfterAll { Remove-ScratchFolder $Root }

    It 'is a process named JetstressCmd for its whole run, and ends at its verdict' {
        $Seen | Should -BeTrue
        $SeenRunning | Should -BeTrue -Because 'ExchangeDsc throws when no JetstressCmd process appears within 60 s'
        $Ended | Should -BeTrue
        $ExitCode | Should -Be 0 -Because $ErrorText
        $Output | Should -Match 'Overall Test Result: (Pass|Fail) \(Complete\)'
        $Results.completion | Should -Be 'Complete'
    }

    It 'reads the run''s own verdict by ExchangeDsc''s rule, from the run''s own report' {
        $read = Test-ExchangeDscVerdict $JetstressPath 'Performance' ([decimal]::Floor($Results.sizing.achievedTransactionalIops)) ([cultureinfo]'en-US')
        $read.Result | Should -Be $Results.verdict.result -Because "the report says the run's verdict ($(@($Results.verdict.reasons | ForEach-Object { $_.message }) -join '; '))"
        $read.Passed | Should -Be ($Results.verdict.result -eq 'Pass')
        # The report it read is the run's, not the ESRP page or another file of ours.
        $read.File.Name | Should -Be ($Results.File.BaseName + '.html')
    }

    It 'reads a passing report as Pass, with the achieved IOPS a number in the host''s culture' {
        $passing = Copy-ReportWithVerdict 'Pass'
        $achieved = [decimal][math]::Round($Results.sizing.achievedTransactionalIops, 3)
        $en = Test-ExchangeDscVerdict $passing 'Performance' ([decimal]::Floor($achieved)) ([cultureinfo]'en-US')
        $en.Result | Should -Be 'Pass'
        [decimal]::Parse($en.Achieved, [cultureinfo]::InvariantCulture) | Should -Be $achieved
        $en.Passed | Should -BeTrue
        # MinAchievedIOPS above what ran fails the resource, as it must.
        (Test-ExchangeDscVerdict $passing 'Performance' ([decimal]::Ceiling($achieved) + 1) ([cultureinfo]'en-US')).Passed | Should -BeFalse
        # A comma-decimal host reads "402.123" as 402123 (its '.' groups digits): the verdict still stands.
        (Test-ExchangeDscVerdict $passing 'Performance' ([decimal]::Floor($achieved)) ([cultureinfo]'de-DE')).Passed | Should -BeTrue
    }

    It 'reads a failed report as a failure' {
        $fail = Test-ExchangeDscVerdict (Copy-ReportWithVerdict 'Fail') 'Performance' 0 ([cultureinfo]'en-US')
        $fail.Result | Should -Be 'Fail'
        $fail.Passed | Should -BeFalse
    }

    It 'leaves what ExchJetstressCleanup moves and reads: every file of the run starts with its type, the log is *.log' {
        # DSC_ExchJetstressCleanup.psm1 (same commit) moves Performance*, Stress*, DBChecksum*, XmlConfig*, *.evt and *.log
        # out of JetstressPath and reads configuration.ExchangeProfile.EseInstances.EseInstance.DatabasePaths.Path / .LogPath.
        $moved = @(Get-ChildItem -LiteralPath $JetstressPath | Where-Object { $_.Name -like 'Performance*' -or $_.Name -like 'Stress*' -or $_.Name -like '*.log' } | ForEach-Object { $_.Name })
        $moved | Should -Contain 'Jetstress.log'
        $stem = (Get-Results $JetstressPath 'Performance').File.BaseName
        foreach ($extension in '.html', '.xml', '.json', '.txt', '.esrp.txt', '.perfmon.csv', '.timeseries.csv') { $moved | Should -Contain "$stem$extension" }
        # Nothing of the run is left behind but the configuration (the cleanup keeps it) and JetstressCmd's own files.
        $written = @(Get-ChildItem -LiteralPath $JetstressPath | ForEach-Object { $_.Name } | Where-Object { $Before -notcontains $_ })
        $written | Should -Not -BeNullOrEmpty
        @($written | Where-Object { $moved -notcontains $_ }) | Should -BeNullOrEmpty
        [xml] $config = Get-Content -Raw -LiteralPath $ConfigPath
        [string[]] $paths = $config.configuration.ExchangeProfile.EseInstances.EseInstance.DatabasePaths.Path + $config.configuration.ExchangeProfile.EseInstances.EseInstance.LogPath
        $paths | Should -Be @((Join-Path $Databases 'DB1'), (Join-Path $Databases 'DB2'), (Join-Path $Databases 'DB1'), (Join-Path $Databases 'DB2'))
    }
}

Describe 'JetstressCmd as the Azure Stack template''s xJetstress resources run it' -Tag 'Jetstress' {
    # Azure/AzureStack-QuickStart-Templates @ 989b0528e8579c4c19ae89cb960bc576774534eb, jetstress-2013-exchange-loadtest/
    # JetstressWorkload.zip: xJetstress/DSCResources/xJetstressSetup, xJetstressTest and xJetstressUploadResult (.psm1).
    BeforeAll {
        $Root = New-ScratchFolder 'azure'
        $JetstressPath = New-JetstressFolder $Root
        $databasePath = New-Folder (Join-Path $Root 'Database')
        $logPath = New-Folder (Join-Path $Root 'Log')
        $ResultPath = New-Folder (Join-Path $Root 'Output')

        # xJetstressSetup: JetstressCmd.exe without arguments in its folder; set up once Jetstress.log is there.
        $Setup = Invoke-JetstressCmd $JetstressPath @()
        # xJetstressTest: /g with the paths (the template's /timeout is 0H40M0S), then the edits of a mailbox profile test.
        $Generate = Invoke-JetstressCmd $JetstressPath @('/g', '/dbpath', $databasePath, '/logpath', $logPath, '/output', $ResultPath, '/new', '/timeout', '0H0M5S')
        $ConfigPath = Join-Path $JetstressPath 'JetstressConfig.xml'
        [xml] $x = Get-Content $ConfigPath
        $x.configuration.ExchangeProfile.MailboxCount = '40'
        $x.configuration.ExchangeProfile.MailboxIops = '1'
        $x.configuration.ExchangeProfile.MailboxQuota = '1'
        $x.configuration.ExchangeProfile.DatabaseSizing = 'Profile'
        $x.configuration.ExchangeProfile.ThroughputPercentage = '100'
        $x.configuration.ExchangeProfile.CapacityPercentage = '100'
        $x.configuration.TestDesignInfo.SuppressTuning = 'true'
        $x.Save($ConfigPath)
        $Test = Invoke-JetstressCmd $JetstressPath @('/c', './JetstressConfig.xml')
        $Results = Get-Results $ResultPath 'Performance'
    }
    AfterAll { Remove-ScratchFolder $Root }

    It 'counts as set up after its first start: Jetstress.log beside JetstressCmd' {
        $Setup.ExitCode | Should -Be 0
        Test-Path -LiteralPath (Join-Path $JetstressPath 'Jetstress.log') | Should -BeTrue
    }

    It 'writes a JetstressConfig.xml the template edits, and runs it from the relative /c path' {
        # An exit code above 0 other than 3010 is the template's error.
        foreach ($step in $Generate, $Test) { ($step.ExitCode -gt 0 -and $step.ExitCode -ne 3010) | Should -BeFalse -Because ($step.Errors -join ' ') }
        $Results.completion | Should -Be 'Complete'
        $Results.profile.mailboxCount | Should -Be 40
        $Results.profile.databasePaths | Should -Be @($databasePath)
        $Results.profile.logPaths | Should -Be @($logPath)
    }

    It 'gives xJetstressUploadResult every field it reads from the one Performance*.xml' {
        # One file matches, so Get-Content of the glob is one document.
        @(Get-ChildItem "$ResultPath\Performance*.xml").Count | Should -Be 1
        $xml = [xml](Get-ChildItem "$ResultPath\Performance*.xml" | Get-Content)
        $overall = ($xml.output.'test-summary'.element | Where-Object { $_.name -eq 'Overall Test Result' }).value
        $overall | Should -Be $Results.verdict.result
        $details = ($xml.output.'test-issues'.element).value -join ' '
        $details | Should -Be (@($Results.verdict.reasons | ForEach-Object { $_.message }) -join ' ')
        $sizing = @{}
        foreach ($name in 'Achieved Transactional I/O per Second', 'Capacity Percentage', 'Throughput Percentage', 'Final Database Size (bytes)', 'Database Files (Count)') {
            $value = ($xml.output.'database-sizing'.element | Where-Object { $_.name -eq $name }).value
            $value | Should -Match '^\d+(\.\d+)?$' -Because "$name is read as a number"
            $sizing[$name] = $value
        }
        [math]::round($sizing['Achieved Transactional I/O per Second'], 0) | Should -Be ([math]::round($Results.sizing.achievedTransactionalIops, 0))
        $sizing['Capacity Percentage'] | Should -Be '100'
        $sizing['Throughput Percentage'] | Should -Be '100'
        foreach ($name in 'Thread Count', 'Insert Operations', 'Delete Operations', 'Replace Operations', 'Read Operations', 'Lazy Commits', 'Run Background Database Maintenance') {
            ($xml.output.'jetstress-system'.element | Where-Object { $_.name -eq $name }).value | Should -Not -BeNullOrEmpty -Because $name
        }
        # One database, so each counter is one value (with several, the template's [math]::round of an array throws).
        foreach ($name in 'I/O Database Reads Average Latency', 'I/O Database Writes Average Latency', 'I/O Database Reads/sec', 'I/O Database Writes/sec',
            'I/O Log Reads Average Latency', 'I/O Log Writes Average Latency', 'I/O Log Reads/sec', 'I/O Log Writes/sec') {
            $average = ($xml.output.'disk-subsystem-total'.object.instance.counter | Where-Object { $_.name -eq $name }).average
            $average | Should -Match '^\d+(\.\d+)?$' -Because $name
        }
        foreach ($pair in @(@('disk-subsystem-of-dbmaintenance', 'Database Maintenance IO Reads/sec'), @('disk-subsystem-of-dbmaintenance', 'Database Maintenance IO Reads Average Bytes'),
                @('disk-subsystem-of-logreplication', 'I/O Log Reads/sec'), @('disk-subsystem-of-logreplication', 'I/O Log Reads Average Bytes'))) {
            ($xml.output.($pair[0]).object.instance.counter | Where-Object { $_.name -eq $pair[1] }).average | Should -Match '^\d+(\.\d+)?$' -Because "$($pair[0]) $($pair[1])"
        }
    }

    It 'reads back to the same profile in New-MailboxProfile -JetstressConfig as in JetstressCmd /c' {
        $profile = New-MailboxProfile -JetstressConfig $ConfigPath
        foreach ($p in 'MailboxCount', 'IopsPerMailbox', 'MailboxSizeMB', 'DatabaseCount', 'CopiesPerDatabase', 'BackgroundMaintenance') {
            $profile.$p | Should -Be $Results.profile.($p.Substring(0, 1).ToLowerInvariant() + $p.Substring(1)) -Because $p
        }
        $profile.DatabasePaths | Should -Be @($Results.profile.databasePaths)
        $profile.LogPaths | Should -Be @($Results.profile.logPaths)
        $profile.ThreadCount | Should -BeNullOrEmpty -Because 'SuppressTuning true with an empty ThreadCount tunes, in both'
        $Results.settings.autoTuned | Should -BeTrue
    }
}

Describe 'JetstressCmd running the disk subsystem throughput test (DatabaseSizing Capacity), read by ExchangeDsc and the Azure Stack template' -Tag 'Jetstress' {
    # The Azure Stack template's xJetstressTest edits DatabaseSizing, CapacityPercentage and ThroughputPercentage of /g's
    # file (AzureStack-QuickStart-Templates @ 989b052); with Capacity and Type Performance JetstressCmd runs the engine's
    # Throughput test, and its files are Jetstress's for that test: Performance_<time>.* (docs/jetstress.md).
    BeforeAll {
        $Root = New-ScratchFolder 'capacity'
        $JetstressPath = New-JetstressFolder $Root
        $databasePath = New-Folder (Join-Path $Root 'Database')
        $logPath = New-Folder (Join-Path $Root 'Log')
        $Generate = Invoke-JetstressCmd $JetstressPath @('/g', '/dbpath', $databasePath, '/logpath', $logPath, '/output', '.', '/new', '/timeout', '0H0M3S')
        # A share of this volume's free space that makes a database of about 40 MiB, whatever the volume (4 decimals).
        $drive = $databasePath
        if ($IsWindowsHost) { $drive = [System.IO.Path]::GetPathRoot($databasePath) }
        $free = ([System.IO.DriveInfo]::new($drive)).AvailableFreeSpace
        $Percent = [math]::Max(0.0001, [math]::Round(100.0 * 40 * 1048576 / $free, 4))
        $ConfigPath = Join-Path $JetstressPath 'JetstressConfig.xml'
        [xml] $x = Get-Content $ConfigPath
        $x.configuration.ExchangeProfile.MailboxCount = '40'
        $x.configuration.ExchangeProfile.MailboxIops = '1'
        $x.configuration.ExchangeProfile.MailboxQuota = '1'
        $x.configuration.ExchangeProfile.DatabaseSizing = 'Capacity'
        $x.configuration.ExchangeProfile.ThroughputPercentage = '100'
        $x.configuration.ExchangeProfile.CapacityPercentage = $Percent.ToString([cultureinfo]::InvariantCulture)
        $x.Save($ConfigPath)
        $Test = Invoke-JetstressCmd $JetstressPath @('/c', './JetstressConfig.xml')
        $Results = Get-Results $JetstressPath 'Performance'
    }
    AfterAll { Remove-ScratchFolder $Root }

    It 'runs the Throughput test sized by the capacity share and names its files Performance' {
        $Generate.ExitCode | Should -Be 0
        $Test.ExitCode | Should -Be 0 -Because ($Test.Errors -join ' ')
        $Results.testType | Should -Be 'Throughput'
        $Results.reportedAs | Should -Be 'Performance'
        $Results.sizing.capacityPercent | Should -Be $Percent
        @(Get-ChildItem -LiteralPath $JetstressPath -Filter 'Throughput*').Count | Should -Be 0
    }

    It 'gives ExchangeDsc''s verdict the Overall Test Result and Achieved IOPS of the newest Performance*.html' {
        $verdict = Test-ExchangeDscVerdict $JetstressPath 'Performance' 0 ([cultureinfo]::InvariantCulture)
        $verdict.File.Name | Should -Match '^Performance(_\d+){6}\.html$'
        $verdict.Result | Should -BeIn @('Pass', 'Fail')
        $verdict.Result | Should -Be $Results.verdict.result
        $verdict.Passed | Should -Be ($Results.verdict.result -eq 'Pass')
        [math]::Round([decimal]::Parse($verdict.Achieved, [cultureinfo]::InvariantCulture)) | Should -Be ([math]::Round([decimal]$Results.sizing.achievedTransactionalIops))
        Get-Content -Raw -LiteralPath $verdict.File.FullName | Should -Match 'Performance Test Report'
    }

    It 'gives the Azure Stack template the database-sizing fields of the one Performance*.xml' {
        @(Get-ChildItem "$JetstressPath\Performance*.xml").Count | Should -Be 1
        $xml = [xml](Get-ChildItem "$JetstressPath\Performance*.xml" | Get-Content)
        ($xml.output.'test-summary'.element | Where-Object { $_.name -eq 'Overall Test Result' }).value | Should -Be $Results.verdict.result
        $sizing = @{}
        foreach ($name in 'Achieved Transactional I/O per Second', 'Capacity Percentage', 'Throughput Percentage', 'Final Database Size (bytes)', 'Database Files (Count)') {
            $sizing[$name] = ($xml.output.'database-sizing'.element | Where-Object { $_.name -eq $name }).value
            $sizing[$name] | Should -Match '^\d+(\.\d+)?$' -Because "$name is read as a number"
        }
        [double]::Parse($sizing['Capacity Percentage'], [cultureinfo]::InvariantCulture) | Should -Be $Percent
        $sizing['Throughput Percentage'] | Should -Be '100'
        $sizing['Database Files (Count)'] | Should -Be '1'
    }
}

Describe 'JetstressCmd as jacobklitzke''s scripts run and read it' -Tag 'Jetstress' {
    # jacobklitzke/Jetstress-Test-Automation @ 09808834d71b840e1f9e84968128bca7f81344b6, JetstressAutomation.ps1: fills in a
    # blank template per test, appends the EseInstances, saves JetstressConfig<Test>.xml and runs ./JetstressCmd.exe /c with
    # it from the Jetstress folder, then select-string's the verdict cell in '.\<Test> Results\<Type>*.html'. Its
    # companion, JetstressParse.java (Jetstress-HTML-Parse @ ad82d16), reads the Stress, backup and recovery reports by
    # position for the ESRP tables.
    BeforeAll {
        $Root = New-ScratchFolder 'jacob'
        $JetstressPath = New-JetstressFolder $Root
        $volumes = @((New-Folder (Join-Path $Root 'vol1')), (New-Folder (Join-Path $Root 'vol2')))
        $NumDatabases = 2
        # The template: /g's file blanked as his is (an unknown Type, no profile figures, no instances).
        $null = Invoke-JetstressCmd $JetstressPath @('/g')
        $Template = Join-Path $JetstressPath 'JetstressConfig.xml'
        [xml] $blank = Get-Content -Raw -LiteralPath $Template
        $blank.configuration.TestDesignInfo.Type = 'asfdsa'
        Set-Profile $blank '' '' ''
        $blank.configuration.ExchangeProfile.ThreadCount = ''
        $null = $blank.configuration.ExchangeProfile.RemoveChild($blank.configuration.ExchangeProfile['EseInstances'])
        $blank.Save($Template)

        function Invoke-JacobTest([string] $Type, [string] $Folder, [string] $Source) {
            # performanceTest / backupTest / recoveryTest / stressTest: the edits, then ./JetstressCmd.exe /c from the folder.
            $null = New-Item -Path (Join-Path $JetstressPath $Folder) -ItemType Directory -Force
            $xml = [xml](Get-Content $Template)
            $xml.configuration.TestDesignInfo.Type = $Type
            $xml.configuration.TestDesignInfo.Description = 'lab run'
            $xml.configuration.TestDesignInfo.Duration = 'P0Y0M0DT0H0M5S'
            $xml.configuration.TestDesignInfo.OutputPath = ".\$Folder"
            $xml.configuration.TestDesignInfo.LogFilesToReplay = '3'
            $xml.configuration.ExchangeProfile.ThreadCount = '2'
            $xml.configuration.ExchangeProfile.DatabaseSource = $Source
            Set-Profile $xml '40' '1' '0.5'
            $eseInstances = $xml.CreateElement('EseInstances')
            for ($counter = 1; $counter -le $NumDatabases; $counter++) {
                $eseInstance = $xml.CreateElement('EseInstance')
                $eseInstance.SetAttribute('IopsBias', '1')
                $databasePaths = $xml.CreateElement('DatabasePaths')
                $pathToDatabase = $xml.CreateElement('Path')
                $pathToLog = $xml.CreateElement('LogPath')
                $db = New-Folder (Join-Path $volumes[$counter - 1] "DB$counter")
                $log = New-Folder (Join-Path $volumes[$NumDatabases - $counter] "Log$counter")
                $null = $pathToDatabase.AppendChild($xml.CreateTextNode($db))
                $null = $pathToLog.AppendChild($xml.CreateTextNode($log))
                $null = $databasePaths.AppendChild($pathToDatabase)
                $null = $eseInstance.AppendChild($databasePaths)
                $null = $eseInstance.AppendChild($pathToLog)
                $null = $eseInstance.AppendChild($xml.CreateElement('DatabaseBackupPath'))
                $null = $eseInstances.AppendChild($eseInstance)
            }
            $null = $xml.configuration.ExchangeProfile.AppendChild($eseInstances)
            $file = "JetstressConfig$Type.xml"
            $xml.Save((Join-Path $JetstressPath $file))
            Invoke-JetstressCmd $JetstressPath @('/c', $file)
        }

        $BlankRun = Invoke-JetstressCmd $JetstressPath @('/c', 'JetstressConfig.xml')
        $Stress = Invoke-JacobTest 'Stress' 'Stress Results' 'New'
        $Backup = Invoke-JacobTest 'DatabaseBackup' 'Backup Results' 'Open'
        $Recovery = Invoke-JacobTest 'SoftRecovery' 'Soft Recovery Results' 'Open'
    }
    AfterAll { Remove-ScratchFolder $Root }

    It 'refuses the blank template by name, on one line of standard error' {
        $BlankRun.ExitCode | Should -Be 2
        $BlankRun.Errors.Count | Should -Be 1
        $BlankRun.Errors[0] | Should -BeLike 'JetstressCmd: JetstressConfigMalformed: *<MailboxCount>*'
        @(Get-ChildItem -LiteralPath $JetstressPath -Filter 'Performance*').Count | Should -Be 0
    }

    It 'answers select-string of the Pass cell as the verdict says, in the relative OutputPath' {
        foreach ($run in $Stress, $Backup, $Recovery) { $run.ExitCode | Should -Be 0 -Because ($run.Errors -join ' ') }
        Push-Location -LiteralPath $JetstressPath
        try {
            $results = Get-Results (Join-Path $JetstressPath 'Stress Results') 'Stress'
            $passed = select-string -Path '.\Stress Results\Stress*.html' -pattern "<td class=`"success`">Pass</td>" -Quiet
            [bool]$passed | Should -Be ($results.verdict.result -eq 'Pass')
            # The failure cell, the other way round.
            $failed = select-string -Path '.\Stress Results\Stress*.html' -pattern "<td class=`"failure`">Fail</td>" -Quiet
            [bool]$failed | Should -Be ($results.verdict.result -eq 'Fail')
        }
        finally { Pop-Location }
    }

    It 'gives JetstressParse its Stress cells by position, plain numbers' {
        $results = Get-Results (Join-Path $JetstressPath 'Stress Results') 'Stress'
        $html = [System.IO.File]::ReadAllText((Get-ChildItem -LiteralPath (Join-Path $JetstressPath 'Stress Results') -Filter 'Stress*.html').FullName)
        $fieldsets = @(Get-FieldsetRows $html)
        # fieldset 1, row 3, cell 1: Final Database Size (bytes).
        ConvertFrom-JavaDouble $fieldsets[1][3][1] | Should -Be ([double]$results.sizing.finalDatabaseSizeBytes)
        # fieldset 4: the header row off, each row's first cell off; cells 0-3, 7 and 9 of every database.
        $rows = @($fieldsets[4] | Select-Object -Skip 1)
        $rows.Count | Should -Be $NumDatabases
        foreach ($row in $rows) {
            $cells = @($row | Select-Object -Skip 1)
            foreach ($i in 0, 1, 2, 3, 7, 9) { $null = ConvertFrom-JavaDouble $cells[$i] }
        }
        (ConvertFrom-JavaDouble ($rows[0] | Select-Object -Skip 1)[2]) | Should -BeGreaterThan 0 -Because 'database reads/sec'
    }

    It 'gives JetstressParse the backup report''s Avg and Sum and the recovery report''s Sum, from fieldset 0' {
        $backup = Get-Results (Join-Path $JetstressPath 'Backup Results') 'DatabaseBackup'
        $html = [System.IO.File]::ReadAllText((Get-ChildItem -LiteralPath (Join-Path $JetstressPath 'Backup Results') -Filter 'DatabaseBackup*.html').FullName)
        $tables = @((Get-FieldsetRows $html)[0] | Select-Object -Skip ($NumDatabases + 1))
        # The report prints two decimals (rounded half away from zero); PowerShell's [math]::Round rounds half to even,
        # so the cell is compared with the result within its own precision.
        [math]::Abs((ConvertFrom-JavaDouble $tables[0][3]) - $backup.backup.averageMBPerSecond) | Should -BeLessOrEqual 0.0051
        [math]::Abs((ConvertFrom-JavaDouble $tables[1][3]) - $backup.backup.totalMBPerSecond) | Should -BeLessOrEqual 0.0051

        $recovery = Get-Results (Join-Path $JetstressPath 'Soft Recovery Results') 'SoftRecovery'
        $html = [System.IO.File]::ReadAllText((Get-ChildItem -LiteralPath (Join-Path $JetstressPath 'Soft Recovery Results') -Filter 'SoftRecovery*.html').FullName)
        $tables = @((Get-FieldsetRows $html)[0] | Select-Object -Skip ($NumDatabases + 2))
        $logs = ConvertFrom-JavaDouble $tables[0][1]
        $seconds = ConvertFrom-JavaDouble $tables[0][2]
        $logs | Should -Be (($recovery.softRecovery.instances | Measure-Object -Property logsReplayed -Sum).Sum)
        $seconds | Should -BeGreaterThan 0
    }
}

Describe 'JetstressCmd as lab scripts prepare a host, then test it' -Tag 'Jetstress' {
    # austinmccollum/PS-solutions @ ef323e0fb155f2259641d9450a7f92830837beff, "Exchange onprem and online/Jetstress
    # Automation/automation snippets.ps1": /c <host>.xml /timeout 0H0M0S /new /threads 0 creates the databases, then
    # /c <host>.xml /timeout 0H5M0S /open /threads 2 tests them.
    BeforeAll {
        $Root = New-ScratchFolder 'lab'
        $JetstressPath = New-JetstressFolder $Root
        $automation = New-Folder (Join-Path $Root 'Automation')
        $db = New-Folder (Join-Path $Root 'DAG1-DB1')
        $null = Invoke-JetstressCmd $JetstressPath @('/g', '/dbpath', $db, '/logpath', $db) -WorkingDirectory $automation
        $Config = Join-Path $automation 'EX2.xml'
        [xml] $x = Get-Content -Raw -LiteralPath (Join-Path $automation 'JetstressConfig.xml')
        Set-Profile $x
        $x.Save($Config)
        $Prepare = Invoke-JetstressCmd $JetstressPath @('/c', $Config, '/timeout', '0H0M0S', '/new', '/threads', '0') -WorkingDirectory $automation
        $AfterPrepare = @(Get-ChildItem -LiteralPath $automation -Filter 'Performance*')
        $Databases = @(Get-ChildItem -LiteralPath $db -Recurse -Filter '*.edb')
        $Test = Invoke-JetstressCmd $JetstressPath @('/c', $Config, '/timeout', '0H0M5S', '/open', '/threads', '2') -WorkingDirectory $automation
    }
    AfterAll { Remove-ScratchFolder $Root }

    It 'creates the databases and stops, writing no report' {
        $Prepare.ExitCode | Should -Be 0 -Because ($Prepare.Errors -join ' ')
        $Prepare.Errors | Should -BeNullOrEmpty
        $Databases.Count | Should -Be 1
        $AfterPrepare.Count | Should -Be 0
    }

    It 'opens them and tests for the /timeout given, with the threads given' {
        $Test.ExitCode | Should -Be 0 -Because ($Test.Errors -join ' ')
        ($Test.Output -join "`n") | Should -Match 'Attaching databases'
        $results = Get-Results $automation 'Performance'
        $results.settings.databaseSource | Should -Be 'Attach'
        $results.settings.threadCount | Should -Be 2
        $results.settings.durationSeconds | Should -Be 5
        @(Get-ChildItem -LiteralPath $db -Recurse -Filter '*.edb')[0].FullName | Should -Be $Databases[0].FullName
    }
}

Describe 'JetstressCmd of the installed package' -Tag 'Jetstress' {
    It 'answers /? with its usage from the installed copy''s folder' {
        $folder = Get-JetstressCmdFolder
        $usage = Invoke-JetstressCmd $folder @('/?')
        $usage.ExitCode | Should -Be 0
        ($usage.Output -join "`n") | Should -Match 'JetstressCmd \[/\?\] \[/c <config>\]'
        if (-not $env:EXCHSTORAGETEST_ENGINE) { $folder | Should -BeLike "$(Install-ModulePackage)*" }
    }
}
