function Send-EngineRequest {
    <#
    .SYNOPSIS
    Writes the JSON request to the engine's stdin as UTF-8 without a BOM, then closes stdin.

    .DESCRIPTION
    Process.StandardInput uses the console input code page on .NET Framework (OEM on most
    Windows servers), which would mangle non-ASCII paths; writing the UTF-8 bytes to the base
    stream avoids it. Closing stdin tells the engine the request is complete. An engine that
    already exited (it refused the request) closes the pipe early: that is not an error here,
    because its stdout and exit code say why.
    #>
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)]
        [System.Diagnostics.Process] $Process,

        [Parameter(Mandatory = $true)]
        [string] $Json
    )

    $bytes = (New-Object -TypeName System.Text.UTF8Encoding -ArgumentList $false).GetBytes($Json)
    try {
        $stream = $Process.StandardInput.BaseStream
        $stream.Write($bytes, 0, $bytes.Length)
        $stream.Flush()
    }
    catch {
        Write-Verbose -Message ("The engine closed its input early: {0}" -f $_.Exception.GetBaseException().Message)
    }
    try {
        $Process.StandardInput.Close()
    }
    catch {
        Write-Verbose -Message ("Closing the engine's input failed: {0}" -f $_.Exception.GetBaseException().Message)
    }
}
