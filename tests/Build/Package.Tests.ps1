# The module's package (tools/Package.ps1, docs/install.md) as a repository and an admin meet it: what the .nupkg
# holds and says about itself, an offline copy (Save-PSResource, then the folder copied) that imports and runs, the
# execute bits a package cannot carry given back at import, a read-only install refused by name, and two versions side
# by side. The README example and JetstressCmd's consumers run from an installed copy in their own files, under Linux
# and under Wine (tests/Module/ReadmeExample.Tests.ps1, JetstressCmd.Tests.ps1).

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Add-Type -AssemblyName System.IO.Compression.FileSystem
    $Nupkg = Get-ModulePackagePath
    $Version = (Import-PowerShellDataFile (Get-ModuleManifest)).ModuleVersion

    function Test-Executable([string] $Path) {
        & test -x $Path
        $LASTEXITCODE -eq 0
    }
}

Describe 'The module''s package' {
    BeforeAll {
        $zip = [System.IO.Compression.ZipFile]::OpenRead($Nupkg)
        try {
            $Entries = @($zip.Entries | ForEach-Object { $_.FullName })
            $nuspec = $zip.Entries | Where-Object { $_.FullName -eq 'ExchStorageTest.nuspec' }
            $reader = New-Object System.IO.StreamReader($nuspec.Open())
            try { [xml] $Nuspec = $reader.ReadToEnd() } finally { $reader.Dispose() }
        }
        finally { $zip.Dispose() }
        $Metadata = $Nuspec.package.metadata
    }

    It 'is at most 40 MB' {
        (Get-Item -LiteralPath $Nupkg).Length | Should -BeLessOrEqual 40MB
    }

    It 'holds what runs on Windows and Linux, and no sources, symbols or build output' {
        foreach ($file in 'ExchStorageTest.psd1', 'src/ExchStorageTest.psm1', 'src/ExchStorageTest.Format.ps1xml', 'src/ExchStorageTest.Types.ps1xml',
            'bin/ExchStorageTest.dll', 'en-US/ExchStorageTest.dll-Help.xml', 'en-US/about_ExchStorageTest.help.txt',
            'bin/linux-x64/exchstoragetest-engine', 'bin/linux-x64/JetstressCmd', 'bin/win-x64/exchstoragetest-engine.exe', 'bin/win-x64/JetstressCmd.exe',
            'dsc/exchstoragetest.dsc.resource.json') {
            $Entries | Should -Contain $file
        }
        $Entries | Where-Object { $_ -match '\.(cs|csproj|pdb)$|(^|/)(obj|Contract|ExchStorageTest\.Commands)/' } | Should -BeNullOrEmpty
    }

    It 'says what a gallery shows: description, author, project and licence, tags with its editions, release notes' {
        $Metadata.id | Should -Be 'ExchStorageTest'
        $Metadata.version | Should -Be $Version
        $Metadata.description | Should -Match 'Exchange'
        $Metadata.authors | Should -Not -BeNullOrEmpty
        $Metadata.projectUrl | Should -Match '^https://'
        $Metadata.licenseUrl | Should -Match '^https://'
        $Metadata.releaseNotes | Should -Not -BeNullOrEmpty
        $tags = $Metadata.tags -split ' '
        foreach ($tag in 'PSModule', 'Jetstress', 'Exchange') { $tags | Should -Contain $tag }
        # The editions the manifest declares, as tags (what galleries and Find-PSResource -Tag read).
        foreach ($edition in (Import-PowerShellDataFile (Get-ModuleManifest)).CompatiblePSEditions) { $tags | Should -Contain "PSEdition_$edition" }
    }
}

Describe 'An offline copy of the package on Linux' -Tag 'Needs:Linux' {
    BeforeAll {
        $Scratch = New-ScratchFolder 'offline'
        # Save-PSResource on a workstation, then the folder copied to the server: cp, as a file copy over SMB or scp,
        # keeps no execute bits either.
        $saved = Save-ModulePackage -Path (Join-Path $Scratch 'Saved')
        $Modules = Join-Path $Scratch 'Server/Modules'
        $null = New-Item -ItemType Directory -Force -Path $Modules
        Copy-Item -LiteralPath (Split-Path -Parent $saved) -Destination $Modules -Recurse
        $Installed = Join-Path $Modules "ExchStorageTest/$Version"
        $Engine = Join-Path $Installed 'bin/linux-x64/exchstoragetest-engine'
        $JetstressCmd = Join-Path $Installed 'bin/linux-x64/JetstressCmd'
        $ArrivedExecutable = (Test-Executable $Engine) -or (Test-Executable $JetstressCmd)
        function Invoke-Installed([string] $Command, [string] $ModulePath = $Modules) {
            Invoke-PowerShellProcess -Command "`$env:PSModulePath = '$ModulePath' + [System.IO.Path]::PathSeparator + `$env:PSModulePath; $Command"
        }
    }
    AfterAll {
        if ($Scratch) { & umount (Join-Path $Scratch 'ReadOnly') 2>$null; Remove-ScratchFolder $Scratch }
    }

    It 'arrives without execute bits, and importing the module gives the engine and JetstressCmd theirs back' {
        $ArrivedExecutable | Should -BeFalse -Because 'a .nupkg keeps no Unix file modes (if this changes, the import''s fix is moot, not wrong)'
        $run = Invoke-Installed 'Import-Module ExchStorageTest -ErrorAction Stop; (Get-Module ExchStorageTest).ModuleBase; @(Get-Command -Module ExchStorageTest).Count'
        $run.Errors | Should -BeNullOrEmpty
        $run.Output[0] | Should -Be $Installed
        [int]$run.Output[1] | Should -Be 8
        Test-Executable $Engine | Should -BeTrue
        Test-Executable $JetstressCmd | Should -BeTrue
        $usage = Invoke-Process -FilePath $JetstressCmd -ArgumentList @('/?')
        $usage.ExitCode | Should -Be 0
    }

    It 'refuses a run from a read-only copy without execute bits with EngineNotExecutable, naming the engine and the chmod to run' -Tag 'Needs:Root' -Skip:(Test-Missing Root) {
        $readOnly = Join-Path $Scratch 'ReadOnly'
        $copy = Join-Path $Scratch 'ReadOnlySource'
        $null = New-Item -ItemType Directory -Force -Path $readOnly, $copy
        Copy-Item -LiteralPath (Join-Path $Modules 'ExchStorageTest') -Destination $copy -Recurse
        & chmod a-x (Join-Path $copy "ExchStorageTest/$Version/bin/linux-x64/exchstoragetest-engine") (Join-Path $copy "ExchStorageTest/$Version/bin/linux-x64/JetstressCmd")
        & mount --bind $copy $readOnly
        & mount -o 'remount,ro,bind' $readOnly
        $LASTEXITCODE | Should -Be 0
        $engine = Join-Path $readOnly "ExchStorageTest/$Version/bin/linux-x64/exchstoragetest-engine"
        $run = Invoke-Installed "Import-Module ExchStorageTest -ErrorAction Stop; try { Test-StorageVolume -Path '$Scratch' -ErrorAction Stop } catch { `$_.FullyQualifiedErrorId; `$_.Exception.Message }" -ModulePath $readOnly
        $run.Output[0] | Should -BeLike 'ExchStorageTest.EngineNotExecutable*'
        $run.Output[1] | Should -BeLike "*'$engine'*"
        $run.Output[1] | Should -BeLike "*chmod +x '$engine'*"
        $run.Output[1] | Should -BeLike '*Read-only file system*'
    }

    It 'keeps two versions side by side: the newest imports and starts its own engine' {
        # The same package as version 9.9.9, made as tools/Package.ps1 makes it.
        $next = Join-Path $Scratch "Next/ExchStorageTest/9.9.9"
        $null = New-Item -ItemType Directory -Force -Path $next
        Copy-Item -Path (Join-Path $Installed '*') -Destination $next -Recurse
        $manifest = Join-Path $next 'ExchStorageTest.psd1'
        [System.IO.File]::WriteAllText($manifest, ([System.IO.File]::ReadAllText($manifest) -replace "ModuleVersion\s*=\s*'[^']*'", "ModuleVersion        = '9.9.9'"))
        & chmod a-x (Join-Path $next 'bin/linux-x64/exchstoragetest-engine')
        Compress-PSResource -Path $next -DestinationPath $Scratch
        $both = Join-Path $Scratch 'Both'
        $null = Save-ModulePackage -Path $both -Nupkg @($Nupkg, (Join-Path $Scratch 'ExchStorageTest.9.9.9.nupkg'))
        @(Get-ChildItem -LiteralPath (Join-Path $both 'ExchStorageTest') | ForEach-Object Name) | Should -Be @($Version, '9.9.9')

        $run = Invoke-Installed "Import-Module ExchStorageTest -ErrorAction Stop; (Get-Module ExchStorageTest).Version.ToString(); Test-StorageVolume -Path '$Scratch' -ErrorAction Stop | Out-Null" -ModulePath $both
        $run.Errors | Should -BeNullOrEmpty
        $run.Output[0] | Should -Be '9.9.9'
        Test-Executable (Join-Path $both 'ExchStorageTest/9.9.9/bin/linux-x64/exchstoragetest-engine') | Should -BeTrue
        Test-Executable (Join-Path $both "ExchStorageTest/$Version/bin/linux-x64/exchstoragetest-engine") | Should -BeFalse -Because 'the older version''s engine is not the one started'
    }
}
