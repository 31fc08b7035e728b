function New-ModuleErrorRecord {
    <#
    .SYNOPSIS
    Builds an ErrorRecord whose ErrorId is 'ExchStorageTest.<Id>'.

    .DESCRIPTION
    Every error the module raises goes through here so ErrorIds stay stable and documented
    (docs/about_ExchStorageTest.md): scripts and Pester match on them, never on message text.
    Private functions 'throw' the record; public commands rethrow it with
    $PSCmdlet.ThrowTerminatingError so -ErrorAction and the FullyQualifiedErrorId behave.
    #>
    [CmdletBinding()]
    [OutputType([System.Management.Automation.ErrorRecord])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $ErrorId,

        [Parameter(Mandatory = $true)]
        [string] $Message,

        [System.Management.Automation.ErrorCategory] $Category = [System.Management.Automation.ErrorCategory]::InvalidArgument,

        [AllowNull()]
        [object] $TargetObject,

        [AllowNull()]
        [System.Exception] $InnerException
    )

    # The exception type follows the category so catch blocks typed on .NET exceptions still work.
    switch ($Category) {
        'InvalidArgument' { $exception = New-Object -TypeName System.ArgumentException -ArgumentList $Message, $InnerException }
        'ObjectNotFound' { $exception = New-Object -TypeName System.IO.FileNotFoundException -ArgumentList $Message, $InnerException }
        'InvalidData' { $exception = New-Object -TypeName System.IO.InvalidDataException -ArgumentList $Message, $InnerException }
        default { $exception = New-Object -TypeName System.InvalidOperationException -ArgumentList $Message, $InnerException }
    }

    $id = $ErrorId
    if (-not $id.StartsWith('ExchStorageTest.', [System.StringComparison]::Ordinal)) {
        $id = 'ExchStorageTest.' + $ErrorId
    }
    New-Object -TypeName System.Management.Automation.ErrorRecord -ArgumentList $exception, $id, $Category, $TargetObject
}
