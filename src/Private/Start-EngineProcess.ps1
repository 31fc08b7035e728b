function Start-EngineProcess {
    <#
    .SYNOPSIS
    Starts the engine helper with redirected stdin/stdout/stderr (called only by Invoke-EngineProcess).

    .DESCRIPTION
    No command-line arguments: the request travels on stdin, which avoids Windows PowerShell
    5.1's native-argument quoting and ProcessStartInfo.ArgumentList (missing on .NET Framework).
    In a console host the child shares the console so it receives Ctrl+C itself and can write
    partial results; elsewhere (ISE, remoting, jobs) it gets no window of its own.
    #>
    [CmdletBinding()]
    [OutputType([System.Diagnostics.Process])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path
    )

    $utf8 = New-Object -TypeName System.Text.UTF8Encoding -ArgumentList $false
    $startInfo = New-Object -TypeName System.Diagnostics.ProcessStartInfo
    $startInfo.FileName = $Path
    $startInfo.UseShellExecute = $false
    $startInfo.RedirectStandardInput = $true
    $startInfo.RedirectStandardOutput = $true
    $startInfo.RedirectStandardError = $true
    $startInfo.StandardOutputEncoding = $utf8
    $startInfo.StandardErrorEncoding = $utf8
    $startInfo.CreateNoWindow = ($Host.Name -ne 'ConsoleHost')
    $location = Get-Location -PSProvider FileSystem
    $startInfo.WorkingDirectory = $location.ProviderPath

    $process = New-Object -TypeName System.Diagnostics.Process
    $process.StartInfo = $startInfo
    try {
        [void]$process.Start()
    }
    catch {
        $reason = $_.Exception.GetBaseException().Message
        $message = "The ExchStorageTest engine helper at '$Path' could not be started: $reason. Rebuild it with: ./build.ps1 Build"
        throw (New-ModuleErrorRecord -ErrorId 'EngineStartFailed' -Message $message -Category NotInstalled -TargetObject $Path -InnerException $_.Exception)
    }
    $process
}
