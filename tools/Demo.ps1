<#
.SYNOPSIS
    The demo: the README's pipeline on a small built-in profile in a temporary folder.

.DESCRIPTION
    New-MailboxProfile | Invoke-StorageTest | Get-TestReport with a fixed profile (100 mailboxes x 0.5 IOPS,
    10 MB each, 2 databases: 50 target IOPS) and a 30-second Performance test, threads tuned automatically as
    a user's first run would be. Shows the report, the Jetstress-style text report and the files the run
    wrote beside its results (the run writes its own reports: no copies are asked for).

    build.sh Demo runs this script in `dotnet pwsh`, build.ps1 Demo in the PowerShell that runs build.ps1.
    Build first (./build.sh Build or ./build.ps1 Build). Exit code 0 when the run produced its result and
    reports (whatever the verdict), 1 on an error.

.EXAMPLE
    dotnet pwsh -NoProfile -File tools/Demo.ps1 /var/tmp/est-demo
#>
[CmdletBinding()]
param(
    # Where the databases and reports go (default: a new folder under /var/tmp, or the temporary folder on Windows).
    [Parameter(Position = 0)]
    [string] $Path
)

$ErrorActionPreference = 'Stop'
$root = Split-Path -Parent $PSScriptRoot
if (-not $Path) {
    # /tmp is often tmpfs on Linux, which cannot do direct I/O; /var/tmp is on disk.
    $temp = [System.IO.Path]::GetTempPath()
    if ((Test-Path -LiteralPath '/var/tmp') -and -not $env:TMPDIR) { $temp = '/var/tmp' }
    $Path = Join-Path $temp ('ExchStorageTest-demo-' + (Get-Date -Format 'yyyyMMdd-HHmmss'))
}
$null = New-Item -ItemType Directory -Force -Path $Path
Write-Host "==> Demo: New-MailboxProfile | Invoke-StorageTest | Get-TestReport (100 mailboxes x 0.5 IOPS, 10 MB, 2 databases, 30 s) in $Path"

Import-Module -Name (Join-Path $root 'ExchStorageTest.psd1')
$report = New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 2 -Path $Path |
    Invoke-StorageTest -Duration 00:00:30 |
    Get-TestReport

$report | Out-Host
Write-Host $report.Text
$results = Split-Path -Parent @($report.ResultsPath)[0]
Write-Host "Reports: $results"
Get-ChildItem -LiteralPath $results | Format-Table -Property Name, Length -AutoSize | Out-Host
