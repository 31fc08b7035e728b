function Invoke-EngineProcess {
    <#
    .SYNOPSIS
    Runs the engine helper for one request and turns its JSON Lines events into PowerShell output.

    .DESCRIPTION
    The only place the module starts the engine (docs/protocol.md). It writes one JSON request to
    the helper's stdin (UTF-8, no BOM) and closes it, then reads events from stdout line by line
    on the pipeline thread:
      hello    -> protocol check (must be 1), else ExchStorageTest.EngineProtocolMismatch
      log      -> Write-Verbose / Write-Information / Write-Warning
      progress -> Write-Progress (throttled), sample -> live IOPS/latency in the progress status
      error    -> ErrorRecord 'ExchStorageTest.<code>': written as a non-terminating error, or
                  thrown when the engine exits with 1 or 2 (it could not do what was asked)
      anything else (result, plan, report, finding, ...) -> written to the output as parsed JSON
    Stderr is drained by a background .NET task so a chatty engine can never block on a full
    pipe. If the pipeline stops (Ctrl+C, Stop-Job, Select-Object -First), the engine gets a
    grace period to write its partial results (it receives the console's Ctrl+C itself; on Linux
    and macOS it is also sent SIGINT), then it is killed; a result it reports meanwhile is kept
    in $script:LastPartialResult and its path is shown on the host.
    #>
    [CmdletBinding()]
    [OutputType([pscustomobject])]
    param(
        [Parameter(Mandatory = $true)]
        [System.Collections.IDictionary] $Request,

        [string] $Activity = 'ExchStorageTest',

        # The request already serialized (a request built on another computer travels as JSON,
        # so remoting's deserialization never reshapes it); $Request then only names the command.
        [string] $RequestJson,

        [ValidateRange(1, 600)]
        [int] $GraceSeconds = 15
    )

    $enginePath = Get-EnginePath
    if ($PSBoundParameters.ContainsKey('RequestJson') -and -not [string]::IsNullOrWhiteSpace($RequestJson)) {
        $requestJson = $RequestJson
    }
    else {
        $requestJson = ConvertTo-Json -InputObject $Request -Depth 10 -Compress
    }
    Write-Verbose -Message ("Starting engine '{0}' for command '{1}'." -f $enginePath, $Request['command'])

    $process = Start-EngineProcess -Path $enginePath
    # ReadToEndAsync runs on the thread pool without PowerShell, so no runspace is needed there.
    $stderrTask = $process.StandardError.ReadToEndAsync()
    Send-EngineRequest -Process $process -Json $requestJson

    $reader = $process.StandardOutput
    $readTask = $null
    $finished = $false
    $killAtOnce = $false
    $helloSeen = $false
    $pendingError = $null
    $resultsPath = $null
    $progress = @{
        Watch      = New-Object -TypeName System.Diagnostics.Stopwatch
        Phase      = $null
        Percent    = $null
        EtaSeconds = $null
        Status     = $null
        Sample     = $null
        Shown      = $false
    }

    try {
        while ($true) {
            if ($null -eq $readTask) {
                $readTask = $reader.ReadLineAsync()
            }
            # Waiting in short slices returns control to PowerShell, which then honours Ctrl+C.
            if (-not $readTask.Wait(200)) {
                continue
            }
            $line = $readTask.Result
            $readTask = $null
            if ($null -eq $line) {
                break
            }
            if ([string]::IsNullOrWhiteSpace($line)) {
                continue
            }

            $engineEvent = $null
            try {
                $engineEvent = ConvertFrom-Json -InputObject $line -ErrorAction Stop
            }
            catch {
                $engineEvent = $null
            }
            $type = [string](Get-EventValue -InputObject $engineEvent -Name 'type' -Default '')

            if (-not $helloSeen) {
                if ($type -ne 'hello') {
                    $killAtOnce = $true
                    $message = "The engine at '$enginePath' did not start with a 'hello' event (first line: '$($line.Substring(0, [System.Math]::Min(120, $line.Length)))'). This module speaks engine protocol $script:EngineProtocolVersion; rebuild the engine with: ./build.ps1 Build"
                    throw (New-ModuleErrorRecord -ErrorId 'EngineProtocolMismatch' -Message $message -Category NotInstalled -TargetObject $enginePath)
                }
                $protocol = Get-EventValue -InputObject $engineEvent -Name 'protocol'
                if ([string]$protocol -ne [string]$script:EngineProtocolVersion) {
                    $killAtOnce = $true
                    $engineVersion = Get-EventValue -InputObject $engineEvent -Name 'engineVersion' -Default 'unknown'
                    $message = "The engine at '$enginePath' (version $engineVersion) speaks protocol $protocol, but this module speaks protocol $script:EngineProtocolVersion. Install matching versions, or rebuild the engine with: ./build.ps1 Build"
                    throw (New-ModuleErrorRecord -ErrorId 'EngineProtocolMismatch' -Message $message -Category NotInstalled -TargetObject $enginePath)
                }
                $helloSeen = $true
                Write-Verbose -Message ("Engine {0} ({1}, {2}) ready." -f (Get-EventValue -InputObject $engineEvent -Name 'engineVersion'), (Get-EventValue -InputObject $engineEvent -Name 'os'), (Get-EventValue -InputObject $engineEvent -Name 'runtime'))
                continue
            }

            if ($null -eq $engineEvent) {
                Write-Verbose -Message "Ignored a line from the engine that is not JSON: $line"
                continue
            }
            $reportedPath = Get-EventValue -InputObject $engineEvent -Name 'resultsPath'
            if (-not [string]::IsNullOrWhiteSpace([string]$reportedPath)) {
                $resultsPath = [string]$reportedPath
            }

            if ($type -eq 'log') {
                Write-EngineLog -EngineEvent $engineEvent
            }
            elseif ($type -eq 'progress') {
                $phase = [string](Get-EventValue -InputObject $engineEvent -Name 'phase')
                $phaseChanged = $phase -ne [string]$progress.Phase
                $progress.Phase = $phase
                $progress.Percent = Get-EventValue -InputObject $engineEvent -Name 'percent'
                $progress.EtaSeconds = Get-EventValue -InputObject $engineEvent -Name 'etaSeconds'
                $progress.Status = [string](Get-EventValue -InputObject $engineEvent -Name 'status')
                $progress.Shown = $true
                Write-EngineProgress -State $progress -Activity $Activity -Force:$phaseChanged
            }
            elseif ($type -eq 'sample') {
                $progress.Sample = $engineEvent
                if ($progress.Shown) {
                    Write-EngineProgress -State $progress -Activity $Activity
                }
            }
            elseif ($type -eq 'error') {
                # Held back one step: if the engine then exits with 1 or 2, this error is the reason
                # and becomes the terminating error instead of being reported twice.
                if ($null -ne $pendingError) {
                    $PSCmdlet.WriteError($pendingError)
                }
                $pendingError = New-EngineErrorRecord -EngineEvent $engineEvent
            }
            elseif ($type -eq 'hello') {
                Write-Verbose -Message 'Ignored a second hello event from the engine.'
            }
            else {
                Write-Output -InputObject $engineEvent
            }
        }

        $process.WaitForExit()
        $finished = $true
    }
    finally {
        if (-not $finished) {
            # The pipeline is stopping (or we threw). Only .NET calls, assignments and host writes
            # here: commands that write to a stopping pipeline fail, and this must not.
            try {
                $partialLine = $null
                if (-not $killAtOnce -and -not $process.HasExited) {
                    # A console Ctrl+C reached the engine too. Elsewhere (jobs, Select-Object
                    # -First) nothing did, so on Linux/macOS send SIGINT after a moment.
                    $deadline = [DateTime]::UtcNow.AddSeconds($GraceSeconds)
                    $signalAt = [DateTime]::UtcNow.AddSeconds(2)
                    $signalled = $false
                    while ([DateTime]::UtcNow -lt $deadline) {
                        if (-not $signalled -and [DateTime]::UtcNow -ge $signalAt -and $PSVersionTable.PSEdition -eq 'Core' -and -not $IsWindows) {
                            $signalled = $true
                            $kill = [System.Diagnostics.Process]::Start('kill', ('-INT {0}' -f $process.Id))
                            if ($null -ne $kill) {
                                $kill.Dispose()
                            }
                        }
                        # Keep reading so the engine never blocks on a full stdout pipe while it
                        # writes its partial result.
                        if ($null -eq $readTask) {
                            $readTask = $reader.ReadLineAsync()
                        }
                        if (-not $readTask.Wait(100)) {
                            continue
                        }
                        $drained = $readTask.Result
                        $readTask = $null
                        if ($null -eq $drained) {
                            break
                        }
                        if ($drained.Contains('"type":"result"') -or $drained.Contains('"type": "result"')) {
                            $partialLine = $drained
                        }
                        $pathMatch = [System.Text.RegularExpressions.Regex]::Match($drained, '"resultsPath"\s*:\s*"((?:[^"\\]|\\.)*)"')
                        if ($pathMatch.Success) {
                            $resultsPath = [System.Text.RegularExpressions.Regex]::Unescape($pathMatch.Groups[1].Value)
                        }
                    }
                    [void]$process.WaitForExit(1000)
                }
                if (-not $process.HasExited) {
                    if ($PSVersionTable.PSEdition -eq 'Core') {
                        $process.Kill($true)
                    }
                    else {
                        $process.Kill()
                    }
                    [void]$process.WaitForExit(5000)
                }
                if (-not $killAtOnce) {
                    $script:LastPartialResult = $partialLine
                    $script:LastPartialResultsPath = $resultsPath
                    if (-not [string]::IsNullOrWhiteSpace($resultsPath)) {
                        $Host.UI.WriteWarningLine("ExchStorageTest: the run was stopped. Partial results: '$resultsPath'. Render them with: Get-TestReport -Path '$resultsPath'")
                    }
                    else {
                        $Host.UI.WriteWarningLine('ExchStorageTest: the run was stopped before the engine reported a results file.')
                    }
                }
            }
            catch {
                # Best effort: never hide the reason the pipeline stopped behind a cleanup failure.
                $null = $_
            }
            $process.Dispose()
        }
        if ($progress.Shown -and $finished) {
            Write-Progress -Id 1 -Activity $Activity -Completed
        }
    }

    $exitCode = $process.ExitCode
    $stderrText = ''
    if ($stderrTask.Wait(5000)) {
        $stderrText = [string]$stderrTask.Result
    }
    $process.Dispose()
    if (-not [string]::IsNullOrWhiteSpace($stderrText)) {
        Write-Verbose -Message ("Engine stderr: {0}" -f $stderrText.Trim())
    }

    if ($exitCode -eq 0 -or $exitCode -eq 3) {
        if ($null -ne $pendingError) {
            $PSCmdlet.WriteError($pendingError)
        }
        if ($exitCode -eq 3) {
            Write-Warning -Message 'The engine stopped before the end of the run; any result above is partial.'
        }
        if (-not $helloSeen) {
            $message = "The engine at '$enginePath' exited without a 'hello' event. This module speaks engine protocol $script:EngineProtocolVersion; rebuild the engine with: ./build.ps1 Build"
            throw (New-ModuleErrorRecord -ErrorId 'EngineProtocolMismatch' -Message $message -Category NotInstalled -TargetObject $enginePath)
        }
        return
    }

    if ($null -eq $pendingError) {
        $tail = $stderrText.Trim()
        if ($tail.Length -gt 2000) {
            $tail = $tail.Substring($tail.Length - 2000)
        }
        $message = "The engine exited with code $exitCode without reporting an error."
        if ($tail.Length -gt 0) {
            $message = "$message Its error output ends with: $tail"
        }
        $pendingError = New-ModuleErrorRecord -ErrorId 'EngineFailed' -Message $message -Category InvalidOperation -TargetObject $enginePath
    }
    throw $pendingError
}
