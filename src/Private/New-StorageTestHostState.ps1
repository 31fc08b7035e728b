function New-StorageTestHostState {
    <#
    .SYNOPSIS
    Opens (or adopts) the remoting sessions of a multi-host run and returns one state object per host.

    .DESCRIPTION
    -ComputerName opens a session per name: New-PSSession -ComputerName (WinRM, with -Credential
    when given) or, with -UseSSH, New-PSSession -HostName (PowerShell 7 over SSH; key-based
    authentication, since SSH remoting takes no credential object). A name that cannot be reached
    is reported as ExchStorageTest.HostFailed and kept as a failed host, so the run goes on with
    the others. -Session adopts sessions the caller opened; only sessions opened here are marked
    Opened, for the caller to remove in its finally block. Each host gets a Key, its name made
    safe for a folder name and unique in the run (two sessions to one host get name and name-2).
    #>
    [CmdletBinding()]
    [OutputType([pscustomobject])]
    param(
        [string[]] $ComputerName = @(),

        [object[]] $Session = @(),

        [System.Management.Automation.PSCredential] $Credential,

        [switch] $UseSSH,

        [Parameter(Mandatory = $true)]
        [System.Management.Automation.PSCmdlet] $Cmdlet
    )

    $keys = @{}
    $newState = {
        param($Name, $HostSession, $Opened)
        $key = ([string]$Name -replace '[^A-Za-z0-9._-]', '_')
        if ([string]::IsNullOrEmpty($key)) {
            $key = 'host'
        }
        $unique = $key
        $n = 1
        while ($keys.ContainsKey($unique.ToLowerInvariant())) {
            $n++
            $unique = '{0}-{1}' -f $key, $n
        }
        $keys[$unique.ToLowerInvariant()] = $true
        [pscustomobject]@{
            PSTypeName         = 'ExchStorageTest.HostState'
            ComputerName       = [string]$Name
            Key                = $unique
            Session            = $HostSession
            Opened             = [bool]$Opened
            Check              = $null
            Plan               = $null
            PreparationSeconds = 0
            StartAtUtc         = $null
            ProgressId         = 0
            Job                = $null
            Done               = $false
            ResultEvent        = $null
            Result             = $null
            Errors             = New-Object -TypeName System.Collections.Generic.List[object]
            Failed             = $false
            Reason             = $null
        }
    }

    foreach ($existing in @($Session)) {
        if ($null -eq $existing) {
            continue
        }
        $item = & $newState $existing.ComputerName $existing $false
        $availability = [string]$existing.Availability
        if (-not [string]::IsNullOrEmpty($availability) -and $availability -ne 'Available') {
            Write-StorageTestHostFailure -HostState $item -Reason "its session is not available (state $([string]$existing.State), availability $availability)." -Cmdlet $Cmdlet
        }
        $item
    }

    foreach ($name in @($ComputerName)) {
        if ([string]::IsNullOrWhiteSpace($name)) {
            continue
        }
        $opened = $null
        $openError = $null
        try {
            if ($UseSSH) {
                if ($PSVersionTable.PSVersion.Major -lt 6) {
                    throw (New-ModuleErrorRecord -ErrorId 'SshRemotingUnavailable' -Message 'SSH remoting (New-PSSession -HostName) needs PowerShell 7; Windows PowerShell 5.1 remotes over WinRM only.' -Category NotImplemented -TargetObject $name)
                }
                $opened = New-PSSession -HostName $name -ErrorAction Stop
            }
            elseif ($null -ne $Credential) {
                $opened = New-PSSession -ComputerName $name -Credential $Credential -ErrorAction Stop
            }
            else {
                $opened = New-PSSession -ComputerName $name -ErrorAction Stop
            }
        }
        catch {
            $openError = $_
        }
        $item = & $newState $name $opened ($null -ne $opened)
        if ($null -ne $openError) {
            Write-StorageTestHostFailure -HostState $item -Reason "no remoting session could be opened: $($openError.Exception.Message)" -Cmdlet $Cmdlet -InnerException $openError.Exception
        }
        $item
    }
}
