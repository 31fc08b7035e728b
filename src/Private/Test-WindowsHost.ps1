function Test-WindowsHost {
    <#
    .SYNOPSIS
    Returns $true on Windows (Windows PowerShell 5.1 or PowerShell 7 on Windows).

    .DESCRIPTION
    Windows PowerShell 5.1 has no $IsWindows; it only runs on Windows. One function so tests can
    take either platform's path by mocking it.
    #>
    [CmdletBinding()]
    [OutputType([bool])]
    param()

    if ($PSVersionTable.PSEdition -ne 'Core') {
        return $true
    }
    [bool]$IsWindows
}
