# PowerShell remoting endpoints over real SSH on this machine, for the multi-host tests: sshd (two by
# default, -Count for more) listening on one loopback port, on 127.0.0.1, 127.0.0.2, ..., each started under
# `unshare --uts` with a host name of its own (so the hosts report distinct machine names), its own
# host key, configuration, pid file, log and temporary folder (TMPDIR, so the module is copied to each
# host separately), and PowerShell as its SSH subsystem. The client side is just as private: a key pair
# made for this rig and a known_hosts of the rig's own (ssh-keyscan), passed as New-PSSession options,
# so nothing in ~/.ssh is read or changed. Stop-SshRig stops exactly the processes the rig started and
# removes its folder.

Set-StrictMode -Version 2.0

function Get-SshRigSkipReason {
    # Why the rig cannot run here, or $null: it needs Linux, root (sshd that logs in as root, a UTS
    # namespace per host), OpenSSH's server and client, unshare, and PowerShell 7 (SSH remoting).
    if ($PSVersionTable.PSEdition -ne 'Core' -or $PSVersionTable.PSVersion.Major -lt 7) { return 'needs PowerShell 7 (SSH remoting)' }
    if (-not $IsLinux) { return 'needs Linux (sshd in a UTS namespace of its own per host)' }
    if ("$(& id -u)" -ne '0') { return 'needs root (two sshd logging in as root, each in a UTS namespace of its own)' }
    foreach ($tool in 'sshd', 'ssh', 'ssh-keygen', 'ssh-keyscan', 'unshare', 'hostname') {
        if (-not (Find-Tool $tool)) { return "needs $tool (Debian: openssh-server, openssh-client, util-linux)" }
    }
    $null
}

function Find-Tool([string] $Name) {
    foreach ($dir in @(($env:PATH -split ':') + '/usr/sbin', '/sbin')) {
        if ($dir -and (Test-Path -LiteralPath (Join-Path $dir $Name) -PathType Leaf)) { return (Join-Path $dir $Name) }
    }
    $null
}

function Get-PowerShellCommand {
    # The PowerShell that runs this script, as a command line: its own executable where it has one, else the
    # .NET tool's pwsh.dll through the dotnet host that runs us (`dotnet pwsh`, the repository's way).
    $native = Join-Path $PSHOME 'pwsh'
    $process = [System.Diagnostics.Process]::GetCurrentProcess().MainModule.FileName
    if ((Split-Path -Leaf $process) -eq 'pwsh' -and (Test-Path -LiteralPath $native)) { return , @($native) }
    , @($process, (Join-Path $PSHOME 'pwsh.dll'))
}

function Get-SubsystemCommand { ((Get-PowerShellCommand) + '-sshs', '-NoLogo', '-NoProfile') -join ' ' }

function Get-SshRigProcess {
    # The processes running under the rig's sshd (the sessions' PowerShell and what they started), by name.
    param([Parameter(Mandatory)] $Rig, [string] $Name = '*')
    foreach ($h in @($Rig.Hosts)) {
        $queue = [System.Collections.Generic.Queue[int]]::new()
        $queue.Enqueue($h.Pid)
        while ($queue.Count -gt 0) {
            $id = $queue.Dequeue()
            foreach ($child in @(& pgrep -P $id 2>$null)) {
                if (-not $child) { continue }
                $queue.Enqueue([int]$child)
                $process = Get-Process -Id ([int]$child) -ErrorAction SilentlyContinue
                if ($process -and $process.ProcessName -like $Name) { $process }
            }
        }
    }
}

function Get-FreeLoopbackPort {
    # A port free on every loopback address the rig listens on (the OS picks it for 127.0.0.1).
    param([string[]] $Address)
    for ($try = 0; $try -lt 20; $try++) {
        $listener = [System.Net.Sockets.TcpListener]::new([System.Net.IPAddress]::Loopback, 0)
        $listener.Start()
        $port = $listener.LocalEndpoint.Port
        $listener.Stop()
        $free = $true
        foreach ($other in @($Address | Select-Object -Skip 1)) {
            $second = [System.Net.Sockets.TcpListener]::new([System.Net.IPAddress]::Parse($other), $port)
            try { $second.Start(); $second.Stop() } catch { $free = $false; break }
        }
        if ($free) { return $port }
    }
    throw "No loopback port is free on all of $($Address -join ', ')."
}

function Invoke-Tool {
    # A program run to its end; its output, or a terminating error with what it printed.
    param([string] $Path, [string[]] $ArgumentList)
    $output = & $Path @ArgumentList 2>&1
    if ($LASTEXITCODE -ne 0) { throw "$Path $($ArgumentList -join ' ') failed (exit code $LASTEXITCODE): $($output -join [Environment]::NewLine)" }
    $output
}

function Start-SshRig {
    <#
    .SYNOPSIS
        Starts the SSH endpoints (-Count, two by default; 127.0.0.1 up); returns the rig: Port, UserName, KeyFilePath,
        SshOptions (for New-PSSession -Options and Invoke-StorageTest -SSHOptions), Hosts (Address, MachineName, Temp,
        Pid) and Root.
    #>
    param(
        # How many hosts: one sshd each, in a UTS namespace of its own.
        [ValidateRange(1, 32)][int] $Count = 2,
        # The machine names the hosts report; made unique per rig so runs never meet another rig's.
        [string[]] $MachineName = @(1..$Count | ForEach-Object { 'exst-remote-' + [guid]::NewGuid().ToString('N').Substring(0, 6) })
    )
    if ($MachineName.Count -ne $Count) { throw "Give $Count machine names, one a host (got $($MachineName.Count))." }
    $root = Join-Path ([System.IO.Path]::GetTempPath()) ('exst-remote-sshrig-' + [guid]::NewGuid().ToString('N').Substring(0, 8))
    $null = New-Item -ItemType Directory -Path $root
    $rig = [pscustomobject]@{ Root = $root; Port = 0; UserName = 'root'; KeyFilePath = (Join-Path $root 'client_key'); SshOptions = $null; Hosts = @() }
    try {
        $sshd = Find-Tool 'sshd'
        Invoke-Tool (Find-Tool 'ssh-keygen') @('-q', '-t', 'ed25519', '-N', '', '-C', 'exst-remote-rig', '-f', $rig.KeyFilePath) | Out-Null
        Copy-Item -LiteralPath "$($rig.KeyFilePath).pub" -Destination (Join-Path $root 'authorized_keys')
        & chmod 600 (Join-Path $root 'authorized_keys')
        # sshd refuses to start without its privilege-separation folder.
        if (-not (Test-Path -LiteralPath '/run/sshd')) { $null = New-Item -ItemType Directory -Path '/run/sshd' }
        $addresses = @(1..$Count | ForEach-Object { "127.0.0.$_" })
        $rig.Port = Get-FreeLoopbackPort -Address $addresses
        $subsystem = Get-SubsystemCommand
        for ($i = 0; $i -lt $Count; $i++) {
            $folder = Join-Path $root $MachineName[$i]
            $temp = Join-Path $folder 'tmp'
            $null = New-Item -ItemType Directory -Path $temp
            Invoke-Tool (Find-Tool 'ssh-keygen') @('-q', '-t', 'ed25519', '-N', '', '-f', (Join-Path $folder 'host_key')) | Out-Null
            $config = Join-Path $folder 'sshd_config'
            @(
                "ListenAddress $($addresses[$i]):$($rig.Port)"
                "HostKey $(Join-Path $folder 'host_key')"
                "PidFile $(Join-Path $folder 'sshd.pid')"
                "AuthorizedKeysFile $(Join-Path $root 'authorized_keys')"
                'PermitRootLogin prohibit-password'
                'PubkeyAuthentication yes'
                'PasswordAuthentication no'
                'KbdInteractiveAuthentication no'
                'UsePAM no'
                'StrictModes no'
                "SetEnv TMPDIR=$temp/"
                "Subsystem powershell $subsystem"
            ) | Set-Content -LiteralPath $config -Encoding ascii
            Invoke-Tool $sshd @('-t', '-f', $config) | Out-Null
            # unshare's shell sets the host name in the new UTS namespace, then becomes sshd, which daemonizes there.
            Invoke-Tool (Find-Tool 'unshare') @('--uts', '--', '/bin/sh', '-c', "hostname '$($MachineName[$i])' && exec '$sshd' -f '$config' -E '$(Join-Path $folder 'sshd.log')'") | Out-Null
            $pidFile = Join-Path $folder 'sshd.pid'
            $deadline = [DateTime]::UtcNow.AddSeconds(10)
            while (-not (Test-Path -LiteralPath $pidFile) -and [DateTime]::UtcNow -lt $deadline) { Start-Sleep -Milliseconds 100 }
            if (-not (Test-Path -LiteralPath $pidFile)) { throw "sshd for $($MachineName[$i]) wrote no pid file: $(Get-Content -Raw -LiteralPath (Join-Path $folder 'sshd.log') -ErrorAction SilentlyContinue)" }
            $rig.Hosts += [pscustomobject]@{ Address = $addresses[$i]; MachineName = $MachineName[$i]; Temp = $temp; Pid = [int](Get-Content -LiteralPath $pidFile -TotalCount 1) }
        }
        # The rig's own known_hosts: both host keys, scanned as the client will meet them.
        $knownHosts = Join-Path $root 'known_hosts'
        foreach ($h in $rig.Hosts) {
            $deadline = [DateTime]::UtcNow.AddSeconds(10)
            do {
                $keys = @(& (Find-Tool 'ssh-keyscan') -p $rig.Port -t ed25519 $h.Address 2>$null | Where-Object { $_ -and -not $_.StartsWith('#') })
                if ($keys.Count -eq 0) { Start-Sleep -Milliseconds 200 }
            } while ($keys.Count -eq 0 -and [DateTime]::UtcNow -lt $deadline)
            if ($keys.Count -eq 0) { throw "ssh-keyscan found no key at $($h.Address):$($rig.Port)." }
            Add-Content -LiteralPath $knownHosts -Value $keys -Encoding ascii
        }
        $rig.SshOptions = @{ UserKnownHostsFile = $knownHosts; GlobalKnownHostsFile = '/dev/null'; StrictHostKeyChecking = 'yes'; IdentitiesOnly = 'yes'; BatchMode = 'yes' }
        $rig
    }
    catch {
        Stop-SshRig -Rig $rig
        throw
    }
}

function New-SshRigSession {
    # A PSSession to one of the rig's hosts (by index), with the rig's key and known_hosts.
    param([Parameter(Mandatory)] $Rig, [Parameter(Mandatory)][int] $Index)
    New-PSSession -HostName $Rig.Hosts[$Index].Address -Port $Rig.Port -UserName $Rig.UserName -KeyFilePath $Rig.KeyFilePath -Options $Rig.SshOptions -ErrorAction Stop
}

function Stop-SshRig {
    # Stops the rig's sshd (and the sessions they serve: their children) by pid, and removes its folder.
    param($Rig)
    if ($null -eq $Rig) { return }
    foreach ($h in @($Rig.Hosts)) {
        # The listener's children are the sessions' sshd; theirs the PowerShell subsystems. Killed from the leaves up.
        $tree = [System.Collections.Generic.List[int]]::new()
        $queue = [System.Collections.Generic.Queue[int]]::new()
        $queue.Enqueue($h.Pid)
        while ($queue.Count -gt 0) {
            $id = $queue.Dequeue()
            $tree.Insert(0, $id)
            foreach ($child in @(& pgrep -P $id 2>$null)) { if ($child) { $queue.Enqueue([int]$child) } }
        }
        foreach ($id in $tree) { & kill -TERM $id 2>$null }
    }
    if ($Rig.Root -and (Test-Path -LiteralPath $Rig.Root)) { Remove-Item -LiteralPath $Rig.Root -Recurse -Force -ErrorAction SilentlyContinue }
}

Export-ModuleMember -Function 'Get-SshRigSkipReason', 'Start-SshRig', 'New-SshRigSession', 'Stop-SshRig', 'Get-SshRigProcess', 'Get-PowerShellCommand'
