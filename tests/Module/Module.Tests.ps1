# The module as a user imports it: the manifest at the repository root, the eight commands as binary cmdlets
# of one assembly, and that assembly safe in Windows PowerShell 5.1 (docs/module.md): it references nothing
# but netstandard and PowerShell itself, targets .NET Standard 2.0 and ships alone in bin/.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $Bin = Join-Path (Get-RepositoryRoot) 'bin'
    $ModuleDll = Join-Path $Bin 'ExchStorageTest.dll'

    function Read-ModuleMetadata([scriptblock] $Read) {
        # The built DLL's metadata, read without loading it.
        $stream = [System.IO.File]::OpenRead($ModuleDll)
        try {
            $pe = New-Object System.Reflection.PortableExecutable.PEReader -ArgumentList $stream
            & $Read ([System.Reflection.Metadata.PEReaderExtensions]::GetMetadataReader($pe))
        }
        finally {
            $stream.Dispose()
        }
    }
}

Describe 'Import-Module ExchStorageTest.psd1' {
    It 'exports exactly the documented commands' {
        $exported = @((Get-Module ExchStorageTest).ExportedCommands.Keys | Sort-Object)
        $exported | Should -Be @('Get-TestReport', 'Invoke-StorageTest', 'New-MailboxProfile', 'New-StorageTestRun',
            'Register-StorageTestTask', 'Test-DatabaseChecksum', 'Test-StorageVolume', 'Unregister-StorageTestTask')
    }

    It 'makes every command a binary cmdlet of one assembly' {
        @(Get-Command -Module ExchStorageTest | ForEach-Object { "$($_.CommandType) $($_.ImplementingType.Assembly.GetName().Name)" } | Select-Object -Unique) |
            Should -Be @('Cmdlet ExchStorageTest')
    }

    It 'completes parameter names as a console does' {
        $completion = TabExpansion2 -inputScript 'Invoke-StorageTest -Sampl' -cursorColumn 25
        @($completion.CompletionMatches | ForEach-Object { $_.CompletionText }) | Should -Contain '-SampleIntervalSeconds'
    }
}

Describe 'The module assembly in Windows PowerShell 5.1' -Tag 'Needs:PowerShell7' -Skip:(Test-Missing PowerShell7) {
    # Any other reference (System.Text.Json, Newtonsoft.Json, System.Memory ...) would have to ship beside the
    # DLL and could clash with the version another module loaded into the same 5.1 session.
    It 'references only netstandard 2.0.0.0 and System.Management.Automation 3.0.0.0 (PowerShell Standard 5.1)' {
        $references = Read-ModuleMetadata {
            param($md)
            foreach ($handle in $md.AssemblyReferences) {
                $r = $md.GetAssemblyReference($handle)
                '{0} {1}' -f $md.GetString($r.Name), $r.Version
            }
        }
        @($references | Sort-Object) | Should -Be @('netstandard 2.0.0.0', 'System.Management.Automation 3.0.0.0')
    }

    It 'targets .NET Standard 2.0' {
        $framework = Read-ModuleMetadata {
            param($md)
            foreach ($handle in $md.GetAssemblyDefinition().GetCustomAttributes()) {
                $attribute = $md.GetCustomAttribute($handle)
                if ($attribute.Constructor.Kind -ne [System.Reflection.Metadata.HandleKind]::MemberReference) { continue }
                $member = $md.GetMemberReference([System.Reflection.Metadata.MemberReferenceHandle] $attribute.Constructor)
                $type = $md.GetTypeReference([System.Reflection.Metadata.TypeReferenceHandle] $member.Parent)
                if ($md.GetString($type.Name) -ne 'TargetFrameworkAttribute') { continue }
                # The blob: prolog 0x0001, then the constructor's string argument (length-prefixed UTF-8).
                $blob = $md.GetBlobReader($attribute.Value)
                $null = $blob.ReadUInt16()
                $blob.ReadSerializedString()
            }
        }
        $framework | Should -Be '.NETStandard,Version=v2.0'
    }
}

Describe 'bin/' {
    It 'holds the module assembly, its symbols and the engine folders only' {
        @(Get-ChildItem -LiteralPath $Bin -File | Where-Object { $_.Name -notin 'ExchStorageTest.dll', 'ExchStorageTest.pdb' }).Name | Should -BeNullOrEmpty
        foreach ($folder in Get-ChildItem -LiteralPath $Bin -Directory) {
            $engine = (Test-Path (Join-Path $folder.FullName 'exchstoragetest-engine')) -or (Test-Path (Join-Path $folder.FullName 'exchstoragetest-engine.exe'))
            $engine | Should -BeTrue -Because "bin/$($folder.Name) must be an engine folder"
        }
    }
}
