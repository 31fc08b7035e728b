function ConvertTo-PathString {
    <#
    .SYNOPSIS
    Turns a path given as a string, FileSystemInfo or Exchange path object into a plain string.

    .DESCRIPTION
    Get-MailboxDatabase returns EdbFilePath and LogFolderPath as typed path objects; through the
    Exchange Management Shell's implicit remoting they arrive deserialized, where PathName holds
    the path and ToString() gives it too. FileInfo/DirectoryInfo carry FullName. Everything else
    is converted with ToString(). Empty input yields nothing, so callers can filter with @().
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(ValueFromPipeline = $true)]
        [AllowNull()]
        [object[]] $InputObject
    )

    process {
        foreach ($item in $InputObject) {
            if ($null -eq $item) {
                continue
            }
            $text = $null
            if ($item -is [string]) {
                $text = $item
            }
            elseif ($item -is [System.IO.FileSystemInfo]) {
                $text = $item.FullName
            }
            else {
                foreach ($name in @('PathName', 'FullName', 'Path')) {
                    $property = $item.PSObject.Properties[$name]
                    if ($null -ne $property -and -not [string]::IsNullOrWhiteSpace([string]$property.Value)) {
                        $text = [string]$property.Value
                        break
                    }
                }
                if ($null -eq $text) {
                    $text = $item.ToString()
                }
            }
            if (-not [string]::IsNullOrWhiteSpace($text)) {
                $text.Trim()
            }
        }
    }
}
