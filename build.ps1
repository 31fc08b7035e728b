<#
.SYNOPSIS
    Builds, tests and demonstrates ExchStorageTest. Plain PowerShell: runs on Windows PowerShell 5.1 and PowerShell 7.

.DESCRIPTION
    The build's one implementation: the tasks live in tools/Build.psm1, which this script imports; build.sh on Linux
    and macOS only restores PowerShell 7 and runs this script in it, so both entry points do the same.

    PowerShell 7 and Pester come from NuGet: the local .NET tool of .config/dotnet-tools.json (`dotnet pwsh`)
    and .config/pester.csproj.

    Tasks:
      Bootstrap  restore PowerShell 7 (dotnet tool restore) and Pester (.config/pester.csproj) from NuGet
      Build      build the engine, the cmdlets (bin/ExchStorageTest.dll) and the help compiled from docs/
                 (en-US/), and publish the engine into bin/<rid>/ with JetstressCmd[.exe] beside it (plus
                 self-contained win-x64 where the NuGet source has the runtime packs; docs/jetstress.md)
      Test       Build and Package (the suites install the package and run the installed copy), then at the same
                 time the xUnit suites (the engine; the module's C#, tests/ExchStorageTest.Commands.Tests; the help
                 compiler), the module's Pester suites (tests/Invoke-ModuleTests.ps1) in two new processes of the
                 PowerShell running this script, and on Linux and macOS in Windows PowerShell 7 under Wine against the
                 win-x64 engine (tests/Invoke-WindowsTests.sh; needs wine64); each Pester log printed whole as it
                 ends; then the Windows PowerShell 5.1 syntax QA. Ends with the suites' counts, every failed test
                 with the first line of its message, the tools missing, and the line "N passed, N failed"; a non-zero
                 exit code on any failure. TEST_SUITES (names joined by commas: engine, module, help-compiler,
                 pester-windows, pester-1, pester-2, syntax-qa) runs only those suites.
      Analyze    PSScriptAnalyzer over src/ when it is installed (says so when it is not)
      Docs       the help alone: MAML and about topics from docs/ into en-US/ (tools/ExchStorageTest.HelpCompiler)
      Demo       Build, then the README's pipeline (New-MailboxProfile | Invoke-StorageTest | Get-TestReport) on a
                 built-in profile for 30 s in a temporary folder or the folder given (tools/Demo.ps1)
      Package    Build, then the module's package (tools/Package.ps1): the installed layout under
                 out/package/ExchStorageTest/<version>/ and out/package/ExchStorageTest.<version>.nupkg (docs/install.md)
      Bench      our engine against fio (defaults and fixedbufs+registerfiles) on the virtio disk and a RAM-backed
                 device, database creation against fio's 1 MiB writes, two databases on two devices against one, the
                 Exchange mix on 1, 2 ... RAM-backed volumes, and the regression check (Linux; needs fio, root for the
                 RAM device; arguments pass through; exit 1 on a miss); 'Bench exchange ...' the Exchange part alone

.EXAMPLE
    ./build.ps1 Test

.EXAMPLE
    ./build.ps1 Demo -DemoPath D:\EST-Demo
#>
[CmdletBinding()]
param(
    [Parameter(Position = 0)]
    [ValidateSet('Bootstrap', 'Build', 'Test', 'Analyze', 'Docs', 'Demo', 'Package', 'Bench')]
    [string[]] $Task = @('Build'),

    [ValidateSet('Debug', 'Release')]
    [string] $Configuration = 'Release',

    # Where Demo puts its databases and reports (default: a new temporary folder; also the first argument after Demo).
    [string] $DemoPath,

    # The task's own arguments: Bench's (seconds, repeats, scenario|all, pin|nopin, plain|-, creation MiB; or
    # 'exchange' and the Exchange part's), Demo's folder.
    [Parameter(ValueFromRemainingArguments = $true)]
    [Alias('BenchArguments')]
    [string[]] $Arguments
)

$ErrorActionPreference = 'Stop'
Set-StrictMode -Version 2.0
Import-Module (Join-Path $PSScriptRoot 'tools/Build.psm1') -Force

if (-not $DemoPath -and $Arguments -and $Task -contains 'Demo') { $DemoPath = $Arguments[0] }
foreach ($t in $Task) {
    $code = Invoke-BuildTask -Task $t -Configuration $Configuration -DemoPath $DemoPath -Arguments $Arguments
    if ($code -ne 0) { exit $code }
}
