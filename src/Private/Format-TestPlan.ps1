function Format-TestPlan {
    <#
    .SYNOPSIS
    Describes an engine plan for ShouldProcess: the load, then every file with its size.

    .DESCRIPTION
    -WhatIf prints this text, so it lists each file the run would create and the load it would
    put on the disks; -Confirm shows it before asking.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [AllowNull()]
        [object] $Plan,

        [Parameter(Mandatory = $true)]
        [object] $MailboxProfile,

        [Parameter(Mandatory = $true)]
        [string] $TestType,

        [AllowNull()]
        [object] $Duration
    )

    $builder = New-Object -TypeName System.Text.StringBuilder
    $targetIops = Get-EventValue -InputObject $Plan -Name 'targetIops' -Default $MailboxProfile.TargetIops
    $threads = Get-EventValue -InputObject $Plan -Name 'threadCount' -Default $MailboxProfile.ThreadCount
    $threadText = 'automatic tuning'
    if ($null -ne $threads) {
        $threadText = [string]$threads
    }
    $durationText = 'the default length for the test type'
    if ($null -ne $Duration) {
        $durationText = [string]$Duration
    }
    [void]$builder.AppendFormat("Run a {0} storage test with mailbox profile '{1}' for {2}: target {3} transactional IOPS, threads: {4}.", $TestType, $MailboxProfile.Name, $durationText, $targetIops, $threadText)

    $files = @(Get-EventValue -InputObject $Plan -Name 'files')
    $files = @($files | Where-Object { $null -ne $_ })
    $total = 0.0
    foreach ($file in $files) {
        $total += [double](Get-EventValue -InputObject $file -Name 'sizeBytes' -Default 0)
    }
    [void]$builder.AppendLine()
    [void]$builder.AppendFormat('Files to create or reuse: {0}, {1} in all.', $files.Count, (Format-ByteSize -Bytes $total))
    foreach ($file in $files) {
        [void]$builder.AppendLine()
        [void]$builder.AppendFormat('  {0,-10} {1,12}  {2}', (Get-EventValue -InputObject $file -Name 'kind' -Default 'file'), (Format-ByteSize -Bytes ([double](Get-EventValue -InputObject $file -Name 'sizeBytes' -Default 0))), (Get-EventValue -InputObject $file -Name 'path'))
    }
    $builder.ToString()
}
