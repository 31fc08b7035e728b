function Invoke-MultiHostStorageTest {
    <#
    .SYNOPSIS
    Runs one storage test on several hosts at once, synchronised on a common UTC start instant.

    .DESCRIPTION
    The multi-host path of Invoke-StorageTest (-ComputerName / -Session), with PowerShell
    remoting as it is (WinRM, or SSH where pwsh runs over SSH):
      1. check every host (Test-StorageTestHost: module and engine, copying them when missing,
         clock skew, free space) and ask its engine for the plan (paths and space are checked
         there, on the host);
      2. confirm once through ShouldProcess;
      3. agree one start instant: now + max(longest preparation estimate, 60 s), or -StartAtUtc;
         each host's request carries startAtUtc on its own clock (instant + its measured skew);
         its engine prepares the databases and waits for that instant;
      4. start every host with Invoke-Command -AsJob and draw one child progress bar per host;
      5. copy each host's results JSON back into <OutputPath>/<host>/ (Copy-Item -FromSession),
         return one ExchStorageTest.TestResult per host, then an ExchStorageTest.AggregateResult
         built by Get-TestReport over every collected results file (the engine merges them:
         rates summed, histograms merged).
    A host that fails at any step is reported as ExchStorageTest.HostFailed (TargetObject = the
    host name) and left out; the others go on. A run.json in OutputPath records the hosts, their
    skew and outcome. Database and log paths may contain '{host}', replaced by each host's name
    (for storage every host sees under the same path).
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.TestResult', 'ExchStorageTest.AggregateResult')]
    param(
        [Parameter(Mandatory = $true)]
        [AllowEmptyCollection()]
        [object[]] $HostState,

        [Parameter(Mandatory = $true)]
        [object] $MailboxProfile,

        [Parameter(Mandatory = $true)]
        [hashtable] $Settings,

        [Parameter(Mandatory = $true)]
        [string] $OutputPath,

        [Parameter(Mandatory = $true)]
        [string] $RunId,

        [AllowNull()]
        [object] $StartAtUtc,

        [Parameter(Mandatory = $true)]
        [System.Management.Automation.PSCmdlet] $Cmdlet
    )

    # Runs on each host: this module's own engine wrapper, fed the request as JSON.
    $remoteEngine = {
        param($ModulePath, $RequestJson, $CommandName, $Activity)
        $module = Import-Module -Name $ModulePath -PassThru -ErrorAction Stop | Select-Object -First 1
        & $module {
            param($Json, $Name, $Title)
            Invoke-EngineProcess -Request @{ command = $Name } -RequestJson $Json -Activity $Title
        } $RequestJson $CommandName $Activity
    }

    # The engine on each host writes where its own default is (<first database path>/Results);
    # OutputPath is the local folder the results are collected into.
    $remoteSettings = @{}
    foreach ($key in $Settings.Keys) {
        $remoteSettings[$key] = $Settings[$key]
    }
    $remoteSettings.OutputPath = $null

    $newHostRequest = {
        param($HostItem, $CommandName, $HostStartAtUtc)
        $request = New-StorageTestRequest -Command $CommandName -MailboxProfile $MailboxProfile -Settings $remoteSettings -StartAtUtc $HostStartAtUtc
        $request['testId'] = '{0}-{1}' -f $RunId, $HostItem.Key
        $request['profile']['databasePaths'] = [string[]]@($request['profile']['databasePaths'] | ForEach-Object { ([string]$_).Replace('{host}', $HostItem.Key) })
        $request['profile']['logPaths'] = [string[]]@($request['profile']['logPaths'] | ForEach-Object { ([string]$_).Replace('{host}', $HostItem.Key) })
        ConvertTo-Json -InputObject $request -Depth 10 -Compress
    }

    $active = @($HostState | Where-Object { -not $_.Failed })

    # 1. Checks and plans; read-only on every host.
    foreach ($item in $active) {
        Write-Progress -Id 1 -Activity "Multi-host storage test $RunId" -Status "Checking $($item.ComputerName)" -CurrentOperation 'Checking hosts'
        try {
            $paths = @(@($MailboxProfile.DatabasePaths) + @($MailboxProfile.LogPaths) | Where-Object { -not [string]::IsNullOrWhiteSpace([string]$_) } | ForEach-Object { ([string]$_).Replace('{host}', $item.Key) })
            $item.Check = Test-StorageTestHost -Session $item.Session -RunId $RunId -Path $paths
            $json = & $newHostRequest $item 'plan' $null
            $plan = @(Invoke-Command -Session $item.Session -ScriptBlock $remoteEngine -ArgumentList $item.Check.ModulePath, $json, 'plan', "Planning on $($item.ComputerName)" -ErrorAction Stop |
                    Where-Object { [string](Get-EventValue -InputObject $_ -Name 'type') -eq 'plan' }) | Select-Object -First 1
            if ($null -eq $plan) {
                throw (New-ModuleErrorRecord -ErrorId 'PlanMissing' -Message 'its engine returned no plan.' -Category InvalidResult -TargetObject $item.ComputerName)
            }
            $item.Plan = $plan
            $item.PreparationSeconds = Get-PreparationEstimate -Plan $plan
            foreach ($volume in @($item.Check.Volumes)) {
                Write-Verbose -Message ("{0}: '{1}' on '{2}', {3} free." -f $item.ComputerName, $volume.Path, $volume.Volume, (Format-ByteSize -Bytes ([double](Get-EventValue -InputObject $volume -Name 'FreeBytes' -Default 0))))
            }
            Write-Verbose -Message ("{0}: clock skew {1:N0} ms (+/- {2:N0} ms), preparation about {3:N0} s, module at '{4}'." -f $item.ComputerName, $item.Check.ClockSkew.TotalMilliseconds, $item.Check.ClockUncertainty.TotalMilliseconds, $item.PreparationSeconds, $item.Check.ModulePath)
        }
        catch {
            Write-StorageTestHostFailure -HostState $item -Reason $_.Exception.Message -Cmdlet $Cmdlet -InnerException $_.Exception
        }
    }
    $active = @($HostState | Where-Object { -not $_.Failed })
    if ($active.Count -eq 0) {
        Write-Progress -Id 1 -Activity "Multi-host storage test $RunId" -Completed
        return
    }

    # 2. One confirmation for the whole run.
    $lead = 60
    foreach ($item in $active) {
        $lead = [System.Math]::Max($lead, [double]$item.PreparationSeconds)
    }
    $lines = New-Object -TypeName System.Collections.Generic.List[string]
    $lines.Add(("{0} storage test '{1}' on {2} host(s), run {3}:" -f $Settings.TestType, $MailboxProfile.Name, $active.Count, $RunId))
    foreach ($item in $active) {
        $lines.Add(("  {0}: target {1} IOPS, {2}, clock skew {3:N0} ms" -f $item.ComputerName, (Get-EventValue -InputObject $item.Plan -Name 'targetIops'), (Format-ByteSize -Bytes ([double](Get-EventValue -InputObject $item.Plan -Name 'totalBytes' -Default 0))), $item.Check.ClockSkew.TotalMilliseconds))
    }
    if ($null -ne $StartAtUtc) {
        $lines.Add(("Start: {0}" -f (ConvertTo-IsoUtcString -Value $StartAtUtc)))
    }
    else {
        $lines.Add(("Start: about {0:N0} s after confirmation (the longest preparation estimate, at least 60 s)." -f $lead))
    }
    $lines.Add(("Results are collected in '{0}'." -f $OutputPath))
    $description = [string]::Join([System.Environment]::NewLine, $lines.ToArray())
    $warning = "Run a $($Settings.TestType) storage test with profile '$($MailboxProfile.Name)' on $($active.Count) host(s)? It creates the planned files on every host and loads their disks."
    if (-not $Cmdlet.ShouldProcess($description, $warning, 'Invoke-StorageTest')) {
        Write-Progress -Id 1 -Activity "Multi-host storage test $RunId" -Completed
        return
    }

    # 3. The common start instant, on the local clock.
    if ($null -ne $StartAtUtc) {
        $startAt = ConvertTo-UtcDateTime -Value $StartAtUtc
        if ($startAt -lt [DateTime]::UtcNow.AddSeconds(10)) {
            throw (New-ModuleErrorRecord -ErrorId 'InvalidStartTime' -Message "StartAtUtc $(ConvertTo-IsoUtcString -Value $startAt) is less than 10 seconds away (or past): the hosts could not all be started in time." -Category InvalidArgument -TargetObject $StartAtUtc)
        }
    }
    else {
        $startAt = [DateTime]::UtcNow.AddSeconds($lead)
    }

    if (-not [System.IO.Directory]::Exists($OutputPath)) {
        $null = New-Item -Path $OutputPath -ItemType Directory -Force
    }

    # 4. Start every host; each engine prepares, then waits for its start instant.
    $progressId = 1
    foreach ($item in $active) {
        $progressId++
        $item.ProgressId = $progressId
        try {
            $hostStart = $startAt.Add($item.Check.ClockSkew)
            $item.StartAtUtc = $hostStart
            $json = & $newHostRequest $item 'run' $hostStart
            $activity = "$($Settings.TestType) storage test on $($item.ComputerName)"
            $item.Job = Invoke-Command -Session $item.Session -ScriptBlock $remoteEngine -ArgumentList $item.Check.ModulePath, $json, 'run', $activity -AsJob -JobName ("ExchStorageTest-{0}-{1}" -f $RunId, $item.Key)
        }
        catch {
            Write-StorageTestHostFailure -HostState $item -Reason $_.Exception.Message -Cmdlet $Cmdlet -InnerException $_.Exception
        }
    }

    $running = @($HostState | Where-Object { -not $_.Failed -and $null -ne $_.Job })
    # Takes what a host's job produced so far: its errors, and its result event when it came.
    $collect = {
        param($HostItem)
        $received = Receive-StorageTestHostJob -Job $HostItem.Job
        foreach ($errorRecord in $received.Errors) {
            $HostItem.Errors.Add($errorRecord)
        }
        foreach ($output in $received.Output) {
            if ([string](Get-EventValue -InputObject $output -Name 'type') -eq 'result') {
                $HostItem.ResultEvent = $output
            }
        }
    }
    try {
        while ($true) {
            $open = 0
            foreach ($item in $running) {
                if ($item.Done) {
                    continue
                }
                foreach ($child in @($item.Job.ChildJobs)) {
                    $records = @($child.Progress.ReadAll())
                    if ($records.Count -gt 0) {
                        $record = $records[$records.Count - 1]
                        if ([string]$record.RecordType -ne 'Completed') {
                            $status = [string]$record.StatusDescription
                            if ([string]::IsNullOrWhiteSpace($status)) {
                                $status = 'Running'
                            }
                            $percent = [int][System.Math]::Max(-1, [System.Math]::Min(100, [int]$record.PercentComplete))
                            Write-Progress -Id $item.ProgressId -ParentId 1 -Activity ([string]$item.ComputerName) -Status $status -CurrentOperation ([string]$record.CurrentOperation) -PercentComplete $percent -SecondsRemaining ([int]$record.SecondsRemaining)
                        }
                    }
                    foreach ($errorRecord in @($child.Error.ReadAll())) {
                        $item.Errors.Add($errorRecord)
                    }
                }
                & $collect $item
                $state = [string]$item.Job.State
                if ($state -eq 'Completed' -or $state -eq 'Failed' -or $state -eq 'Stopped') {
                    # One more receive after the state change: output can land in between.
                    & $collect $item
                    $item.Done = $true
                    Write-Progress -Id $item.ProgressId -ParentId 1 -Activity ([string]$item.ComputerName) -Completed
                }
                else {
                    $open++
                }
            }

            $finished = $running.Count - $open
            $now = [DateTime]::UtcNow
            if ($now -lt $startAt) {
                $status = "Preparing; all hosts start at {0} (in {1:N0} s)" -f (ConvertTo-IsoUtcString -Value $startAt), ($startAt - $now).TotalSeconds
            }
            else {
                $status = "{0} of {1} host(s) finished" -f $finished, $running.Count
            }
            $overall = 0
            if ($running.Count -gt 0) {
                $overall = [int](100 * $finished / $running.Count)
            }
            Write-Progress -Id 1 -Activity "Multi-host storage test $RunId" -Status $status -PercentComplete $overall
            if ($open -eq 0) {
                break
            }
            Start-Sleep -Milliseconds 500
        }
    }
    finally {
        foreach ($item in $running) {
            if ($null -ne $item.Job) {
                if (-not $item.Done) {
                    # Ctrl+C here: stopping the job stops the remote pipeline, which stops the
                    # engine there the same way a local Ctrl+C does.
                    Stop-Job -Job $item.Job -ErrorAction SilentlyContinue
                }
                Remove-Job -Job $item.Job -Force -ErrorAction SilentlyContinue
            }
        }
        Write-Progress -Id 1 -Activity "Multi-host storage test $RunId" -Completed
    }

    # 5. Collect, convert, aggregate.
    $results = New-Object -TypeName System.Collections.Generic.List[object]
    $localFiles = New-Object -TypeName System.Collections.Generic.List[string]
    foreach ($item in $running) {
        if ($null -eq $item.ResultEvent) {
            $reason = 'it returned no result.'
            if ($item.Errors.Count -gt 0) {
                $reason = [string]$item.Errors[0].Exception.Message
            }
            elseif ($null -ne $item.Job -and [string]$item.Job.State -eq 'Failed') {
                foreach ($child in @($item.Job.ChildJobs)) {
                    if ($null -ne $child.JobStateInfo.Reason) {
                        $reason = [string]$child.JobStateInfo.Reason.Message
                    }
                }
            }
            Write-StorageTestHostFailure -HostState $item -Reason $reason -Cmdlet $Cmdlet
            continue
        }
        foreach ($errorRecord in $item.Errors) {
            Write-Warning -Message ("{0}: {1}" -f $item.ComputerName, $errorRecord.Exception.Message)
        }

        $remotePath = [string](Get-EventValue -InputObject $item.ResultEvent -Name 'resultsPath')
        $localPath = $null
        if (-not [string]::IsNullOrWhiteSpace($remotePath)) {
            $folder = Join-Path -Path $OutputPath -ChildPath $item.Key
            try {
                if (-not [System.IO.Directory]::Exists($folder)) {
                    $null = New-Item -Path $folder -ItemType Directory -Force
                }
                Copy-Item -Path $remotePath -Destination $folder -FromSession $item.Session -Force -ErrorAction Stop
                $leaf = @($remotePath -split '[\\/]')
                $localPath = Join-Path -Path $folder -ChildPath $leaf[$leaf.Count - 1]
            }
            catch {
                Write-StorageTestHostFailure -HostState $item -Reason "its results could not be copied back from '$remotePath': $($_.Exception.Message)" -Cmdlet $Cmdlet -InnerException $_.Exception
                continue
            }
        }

        $result = ConvertTo-TestResult -EngineEvent $item.ResultEvent -ProfileName $MailboxProfile.Name
        $result.ResultsPath = $localPath
        Add-Member -InputObject $result -MemberType NoteProperty -Name ComputerName -Value ([string]$item.ComputerName)
        Add-Member -InputObject $result -MemberType NoteProperty -Name RemoteResultsPath -Value $remotePath
        Add-Member -InputObject $result -MemberType NoteProperty -Name StartAtUtc -Value $item.StartAtUtc
        Add-Member -InputObject $result -MemberType NoteProperty -Name ClockSkewMs -Value ([System.Math]::Round($item.Check.ClockSkew.TotalMilliseconds, 1))
        $item.Result = $result
        $results.Add($result)
        if ($null -ne $localPath) {
            $localFiles.Add($localPath)
        }
        Write-Output -InputObject $result
    }

    $report = $null
    if ($localFiles.Count -gt 0) {
        try {
            $report = Get-TestReport -Path $localFiles.ToArray() -ErrorAction Stop -WhatIf:$false -Confirm:$false
        }
        catch {
            $Cmdlet.WriteError((New-ModuleErrorRecord -ErrorId 'AggregateFailed' -Message "The per-host results were collected in '$OutputPath', but they could not be merged: $($_.Exception.Message)" -Category InvalidResult -TargetObject $OutputPath -InnerException $_.Exception))
        }
    }

    $aggregate = New-AggregateResult -RunId $RunId -StartAtUtc $startAt -HostState $HostState -Result $results.ToArray() -Report $report -OutputPath $OutputPath
    $runFile = [ordered]@{
        schema        = 'exchstoragetest/multihost-run'
        schemaVersion = 1
        runId         = $RunId
        startAtUtc    = ConvertTo-IsoUtcString -Value $startAt
        profile       = [string]$MailboxProfile.Name
        hosts         = @(
            foreach ($item in $HostState) {
                $skew = $null
                if ($null -ne $item.Check) {
                    $skew = [System.Math]::Round($item.Check.ClockSkew.TotalMilliseconds, 1)
                }
                $hostResult = $null
                $hostFile = $null
                if ($null -ne $item.Result) {
                    $hostResult = $item.Result.Result
                    $hostFile = $item.Result.ResultsPath
                }
                [ordered]@{ computerName = [string]$item.ComputerName; key = $item.Key; clockSkewMs = $skew; result = $hostResult; failed = [bool]$item.Failed; reason = $item.Reason; resultsPath = $hostFile }
            }
        )
    }
    Write-Utf8File -Path (Join-Path -Path $OutputPath -ChildPath 'run.json') -Text (ConvertTo-Json -InputObject $runFile -Depth 5)
    $aggregate
}
