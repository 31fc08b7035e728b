function Resolve-UserPath {
    <#
    .SYNOPSIS
    Makes a user-supplied path absolute against the current PowerShell location.

    .DESCRIPTION
    .NET file APIs resolve relative paths against the process directory, which is not the
    PowerShell location; every path handed to [System.IO.File] or the engine goes through here.
    A drive that does not exist on this machine (a profile planned for another server) is kept
    as typed when it is already rooted.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $Path
    )

    try {
        $PSCmdlet.GetUnresolvedProviderPathFromPSPath($Path)
    }
    catch {
        if ([System.IO.Path]::IsPathRooted($Path)) {
            $Path
        }
        else {
            throw (New-ModuleErrorRecord -ErrorId 'PathNotResolvable' -Message "The path '$Path' cannot be resolved: $($_.Exception.Message)" -Category InvalidArgument -TargetObject $Path)
        }
    }
}
