function Test-StorageTestHost {
    <#
    .SYNOPSIS
    Checks one remote host for a multi-host run: module and engine, clock skew, free space.

    .DESCRIPTION
    Looks for this module's version on the host (installed, or copied earlier in this run); when
    it is missing, copies the manifest, src/ and the engine for the host's platform (bin/<rid>/)
    into a folder under the host's temp directory with Copy-Item -ToSession, then checks again.
    Measures the clock skew (Measure-StorageTestClockSkew) and the free space under each database
    and log folder. Throws ExchStorageTest.ModuleNotAvailable, ExchStorageTest.EngineNotAvailable
    or the remoting error; the caller turns any of them into ExchStorageTest.HostFailed.
    #>
    [CmdletBinding()]
    [OutputType([pscustomobject])]
    param(
        [Parameter(Mandatory = $true)]
        [object] $Session,

        [Parameter(Mandatory = $true)]
        [string] $RunId,

        [AllowEmptyCollection()]
        [string[]] $Path = @()
    )

    # Runs on the host (Windows PowerShell 5.1 or PowerShell 7): nothing of this module is there yet.
    $check = {
        param($ModuleVersion, $ModulePath, $Paths, $RuntimeIdScript)
        # The module is not loaded here yet: Get-EngineRuntimeId's own body comes as text, so the
        # host names its platform by the same rules the engine lookup uses.
        $runtimeId = [string](& ([scriptblock]::Create($RuntimeIdScript)))

        $candidate = $null
        if (-not [string]::IsNullOrWhiteSpace($ModulePath)) {
            if ([System.IO.File]::Exists($ModulePath)) {
                $candidate = $ModulePath
            }
        }
        else {
            $installed = Get-Module -ListAvailable -Name ExchStorageTest | Where-Object { $_.Version -eq [version]$ModuleVersion } | Select-Object -First 1
            if ($null -ne $installed) {
                $candidate = $installed.Path
            }
        }
        $enginePath = $null
        $engineError = $null
        if ($null -ne $candidate) {
            try {
                $module = Import-Module -Name $candidate -PassThru -ErrorAction Stop | Select-Object -First 1
                $enginePath = & $module { Get-EnginePath }
            }
            catch {
                $engineError = $_.Exception.Message
            }
        }

        $drives = @([System.IO.DriveInfo]::GetDrives() | Where-Object { $_.IsReady })
        $volumes = @(
            foreach ($folder in @($Paths)) {
                $best = $null
                foreach ($drive in $drives) {
                    $root = $drive.RootDirectory.FullName
                    if ($folder.StartsWith($root, [System.StringComparison]::OrdinalIgnoreCase)) {
                        if ($null -eq $best -or $root.Length -gt $best.RootDirectory.FullName.Length) {
                            $best = $drive
                        }
                    }
                }
                $free = $null
                $rootName = $null
                if ($null -ne $best) {
                    $rootName = $best.RootDirectory.FullName
                    try {
                        $free = $best.AvailableFreeSpace
                    }
                    catch {
                        $free = $null
                    }
                }
                [pscustomobject]@{ Path = $folder; Exists = [System.IO.Directory]::Exists($folder); Volume = $rootName; FreeBytes = $free }
            }
        )

        [pscustomobject]@{
            ComputerName = [System.Environment]::MachineName
            PSVersion    = $PSVersionTable.PSVersion.ToString()
            RuntimeId    = $runtimeId
            ModulePath   = $candidate
            EnginePath   = $enginePath
            EngineError  = $engineError
            TempPath     = [System.IO.Path]::GetTempPath()
            IsWindows    = $runtimeId.StartsWith('win-', [System.StringComparison]::Ordinal)
            Volumes      = $volumes
        }
    }

    $version = [string](Import-PowerShellDataFile -Path $script:ModuleManifestPath).ModuleVersion
    $runtimeIdScript = ${function:Get-EngineRuntimeId}.ToString()
    $hostState = Invoke-Command -Session $Session -ScriptBlock $check -ArgumentList $version, $null, $Path, $runtimeIdScript -ErrorAction Stop
    $copied = $false

    if ([string]::IsNullOrWhiteSpace([string]$hostState.EnginePath)) {
        # Not installed there: a copy made earlier in this run (a second session to the same
        # host) is reused, otherwise this module is copied over.
        $separator = '/'
        if ([string]$hostState.TempPath -match '\\') {
            $separator = '\'
        }
        $remoteRoot = ([string]$hostState.TempPath).TrimEnd('\', '/') + $separator + 'ExchStorageTest-' + $RunId
        $remoteManifest = $remoteRoot + $separator + 'ExchStorageTest.psd1'
        $hostState = Invoke-Command -Session $Session -ScriptBlock $check -ArgumentList $version, $remoteManifest, $Path, $runtimeIdScript -ErrorAction Stop
        if ([string]::IsNullOrWhiteSpace([string]$hostState.EnginePath)) {
            $runtimeId = [string]$hostState.RuntimeId
            $localEngine = [System.IO.Path]::Combine($script:ModuleRoot, 'bin', $runtimeId)
            if (-not [System.IO.Directory]::Exists($localEngine)) {
                $message = "ExchStorageTest $version is not installed on the host, and there is no engine for its platform ($runtimeId) to copy from '$localEngine'. Install the module there, or build the engine for $runtimeId (./build.ps1 Build)."
                throw (New-ModuleErrorRecord -ErrorId 'EngineNotAvailable' -Message $message -Category NotInstalled -TargetObject $Session.ComputerName)
            }
            Write-Verbose -Message ("Copying ExchStorageTest {0} to '{1}' on {2}." -f $version, $remoteRoot, $Session.ComputerName)
            $null = Invoke-Command -Session $Session -ScriptBlock {
                param($Folder, $Separator)
                $null = New-Item -Path ($Folder + $Separator + 'bin') -ItemType Directory -Force
            } -ArgumentList $remoteRoot, $separator -ErrorAction Stop
            Copy-Item -LiteralPath $script:ModuleManifestPath -Destination $remoteRoot -ToSession $Session -Force -ErrorAction Stop
            Copy-Item -LiteralPath (Join-Path -Path $script:ModuleRoot -ChildPath 'src') -Destination ($remoteRoot + $separator + 'src') -ToSession $Session -Recurse -Force -ErrorAction Stop
            Copy-Item -LiteralPath $localEngine -Destination ($remoteRoot + $separator + 'bin' + $separator + $runtimeId) -ToSession $Session -Recurse -Force -ErrorAction Stop
            if (-not [bool]$hostState.IsWindows) {
                # A copy over remoting does not keep the executable bit.
                $null = Invoke-Command -Session $Session -ScriptBlock {
                    param($Folder)
                    foreach ($file in @(Get-ChildItem -LiteralPath $Folder -Filter 'exchstoragetest-engine*' -File)) {
                        & chmod 'u+x' $file.FullName
                    }
                } -ArgumentList ($remoteRoot + $separator + 'bin' + $separator + $runtimeId) -ErrorAction Stop
            }
            $copied = $true
            $hostState = Invoke-Command -Session $Session -ScriptBlock $check -ArgumentList $version, $remoteManifest, $Path, $runtimeIdScript -ErrorAction Stop
        }
        if ([string]::IsNullOrWhiteSpace([string]$hostState.EnginePath)) {
            $why = [string]$hostState.EngineError
            if ([string]::IsNullOrWhiteSpace($why)) {
                $why = 'the module could not be found or loaded'
            }
            throw (New-ModuleErrorRecord -ErrorId 'ModuleNotAvailable' -Message "ExchStorageTest $version cannot be used on the host: $why" -Category NotInstalled -TargetObject $Session.ComputerName)
        }
    }

    $clock = Measure-StorageTestClockSkew -Session $Session
    [pscustomobject]@{
        PSTypeName       = 'ExchStorageTest.HostCheck'
        ComputerName     = [string]$hostState.ComputerName
        PSVersion        = [string]$hostState.PSVersion
        RuntimeId        = [string]$hostState.RuntimeId
        ModulePath       = [string]$hostState.ModulePath
        EnginePath       = [string]$hostState.EnginePath
        ModuleCopied     = $copied
        ClockSkew        = $clock.Skew
        ClockUncertainty = $clock.Uncertainty
        Volumes          = @($hostState.Volumes)
    }
}
