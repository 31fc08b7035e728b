@{
    # The manifest sits at the repository root, the module base: the build puts the commands
    # (bin/ExchStorageTest.dll, C# binary cmdlets for Windows PowerShell 5.1 and PowerShell 7)
    # beside the native helpers (bin/<rid>/). The root module is the DSC class resource, in
    # PowerShell as DSC requires (DSC looks for class resources in the root module); the cmdlets
    # load as its nested module.
    RootModule           = 'src/ExchStorageTest.psm1'
    NestedModules        = @('bin/ExchStorageTest.dll')
    ModuleVersion        = '0.1.0'
    GUID                 = 'ac4d6a53-b54f-467f-9762-90f689eda13b'
    Author               = 'ExchStorageTest contributors'
    CompanyName          = 'ExchStorageTest'
    Copyright            = '(c) ExchStorageTest contributors. All rights reserved.'
    Description          = 'Validates storage for Microsoft Exchange before Exchange is installed: a Jetstress replacement with the same workload, verdicts and ESRP report tables, driven by an out-of-process .NET 8 engine. Runs in Windows PowerShell 5.1 (Exchange Management Shell) and PowerShell 7.'
    PowerShellVersion    = '5.1'
    CompatiblePSEditions = @('Desktop', 'Core')

    FormatsToProcess     = @('src/ExchStorageTest.Format.ps1xml')
    TypesToProcess       = @('src/ExchStorageTest.Types.ps1xml')

    FunctionsToExport    = @()
    CmdletsToExport      = @(
        'New-MailboxProfile'
        'Invoke-StorageTest'
        'Get-TestReport'
        'Test-StorageVolume'
        'Test-DatabaseChecksum'
        'New-StorageTestRun'
        'Register-StorageTestTask'
        'Unregister-StorageTestTask'
    )
    VariablesToExport    = @()
    AliasesToExport      = @()
    DscResourcesToExport = @('ExchStorageValidation')

    PrivateData          = @{
        PSData = @{
            # PSEdition_* as CompatiblePSEditions says: galleries and Find-PSResource -Tag read editions from tags.
            Tags         = @('Exchange', 'Storage', 'Jetstress', 'ESRP', 'Performance', 'Windows', 'Linux', 'PSEdition_Desktop', 'PSEdition_Core')
            ProjectUri   = 'https://example.invalid/ExchStorageTest'
            LicenseUri   = 'https://example.invalid/ExchStorageTest/LICENSE'
            ReleaseNotes = '0.1.0: mailbox profiles (numbers, JetstressConfig.xml, the sizing calculator); Performance, Stress, Database Backup, Soft Recovery, Throughput and Capacity tests and the ESRP suite, on Windows and Linux; failure-mode windows; Jetstress-shaped reports and JetstressCmd; ESRP tables; volume inspection; database checksums; scheduled and multi-host runs; a DSC resource. Install and offline copies: docs/install.md.'
        }
    }
}
