#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# Whole-module checks: manifest, exports, help, 5.1-compatible syntax, format/types files, and
# PSScriptAnalyzer when it is installed (it comes only from the PowerShell Gallery).

BeforeDiscovery {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../..')).Path
    $publicNames = @(Get-ChildItem -Path (Join-Path -Path $repoRoot -ChildPath 'src/Public') -Filter '*.ps1' | ForEach-Object { $_.BaseName })
    $scriptFiles = @(
        Get-ChildItem -Path (Join-Path -Path $repoRoot -ChildPath 'src') -Include '*.ps1', '*.psm1', '*.psd1' -Recurse
        Get-ChildItem -Path $repoRoot -Filter '*.psd1'
    ) | ForEach-Object { @{ File = $_.FullName; Name = $_.Name } }
    $hasAnalyzer = $null -ne (Get-Module -ListAvailable -Name PSScriptAnalyzer)
}

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../..')).Path
    $manifestPath = Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1'
    Import-Module -Name $manifestPath -Force
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Module manifest' {
    It 'is valid' {
        { Test-ModuleManifest -Path $manifestPath -ErrorAction Stop } | Should -Not -Throw
    }

    It 'targets Windows PowerShell 5.1 and PowerShell 7' {
        $manifest = Test-ModuleManifest -Path $manifestPath
        $manifest.PowerShellVersion | Should -Be ([version]'5.1')
        @($manifest.CompatiblePSEditions) | Should -Be @('Desktop', 'Core')
        $manifest.Version | Should -Be ([version]'0.1.0')
    }

    It 'exports exactly the functions in src/Public, and nothing else' {
        $expected = @(Get-ChildItem -Path (Join-Path -Path $repoRoot -ChildPath 'src/Public') -Filter '*.ps1' | ForEach-Object { $_.BaseName } | Sort-Object)
        $manifestData = Import-PowerShellDataFile -Path $manifestPath
        @($manifestData.FunctionsToExport | Sort-Object) | Should -Be $expected
        @((Get-Module -Name ExchStorageTest).ExportedFunctions.Keys | Sort-Object) | Should -Be $expected
        @($manifestData.CmdletsToExport).Count | Should -Be 0
        @($manifestData.VariablesToExport).Count | Should -Be 0
        @($manifestData.AliasesToExport).Count | Should -Be 0
    }
}

Describe 'Help for <_>' -ForEach $publicNames {
    BeforeAll {
        $commandName = $_
        $help = Get-Help -Name $commandName -Full
        $command = Get-Command -Name $commandName -Module ExchStorageTest
    }

    It 'has a synopsis' {
        $help.Synopsis | Should -Not -BeNullOrEmpty
        $help.Synopsis | Should -Not -BeLike "*$commandName*[<CommonParameters>]*"
    }

    It 'has a description' {
        ($help.Description | Out-String).Trim() | Should -Not -BeNullOrEmpty
    }

    It 'has at least two examples' {
        @($help.Examples.Example).Count | Should -BeGreaterOrEqual 2
    }

    It 'documents every parameter' {
        $common = [System.Management.Automation.PSCmdlet]::CommonParameters + [System.Management.Automation.PSCmdlet]::OptionalCommonParameters
        foreach ($parameter in $command.Parameters.Keys | Where-Object { $common -notcontains $_ }) {
            $parameterHelp = $help.Parameters.Parameter | Where-Object { $_.Name -eq $parameter }
            ($parameterHelp.Description | Out-String).Trim() | Should -Not -BeNullOrEmpty -Because "parameter -$parameter of $commandName needs help"
        }
    }

    It 'declares its output type' {
        @($command.OutputType).Count | Should -BeGreaterOrEqual 1
    }

    It 'has a platyPS page in docs/' {
        Test-Path -LiteralPath (Join-Path -Path $repoRoot -ChildPath "docs/$commandName.md") | Should -BeTrue
    }
}

Describe 'Commands that write support ShouldProcess' {
    It '<_> supports -WhatIf and -Confirm' -ForEach @('New-MailboxProfile', 'Invoke-StorageTest', 'Get-TestReport', 'New-StorageTestRun', 'Register-StorageTestTask', 'Unregister-StorageTestTask') {
        $command = Get-Command -Name $_ -Module ExchStorageTest
        $command.Parameters.ContainsKey('WhatIf') | Should -BeTrue
        $command.Parameters.ContainsKey('Confirm') | Should -BeTrue
    }
}

Describe 'Windows PowerShell 5.1 syntax in <Name>' -ForEach $scriptFiles {
    BeforeAll {
        $tokens = $null
        $parseErrors = $null
        $ast = [System.Management.Automation.Language.Parser]::ParseFile($File, [ref]$tokens, [ref]$parseErrors)
    }

    It 'parses without errors' {
        @($parseErrors).Count | Should -Be 0
    }

    It 'uses no PowerShell 7 only syntax (ternary, ??, ??=, ?., &&/||, clean {})' {
        # Type names are resolved by string so this test also runs on 5.1, where the 7-only AST
        # types do not exist (and where such syntax would already fail to parse).
        $found = @($ast.FindAll({
                    param($node)
                    $typeName = $node.GetType().Name
                    if ($typeName -eq 'TernaryExpressionAst' -or $typeName -eq 'PipelineChainAst') {
                        return $true
                    }
                    if ($typeName -eq 'MemberExpressionAst' -or $typeName -eq 'InvokeMemberExpressionAst' -or $typeName -eq 'IndexExpressionAst') {
                        $nullConditional = $node.PSObject.Properties['NullConditional']
                        return ($null -ne $nullConditional -and [bool]$nullConditional.Value)
                    }
                    if ($typeName -eq 'NamedBlockAst') {
                        return ([string]$node.BlockKind -eq 'Clean')
                    }
                    return $false
                }, $true))
        $found.Count | Should -Be 0 -Because (($found | ForEach-Object { "line $($_.Extent.StartLineNumber): $($_.Extent.Text)" }) -join '; ')
        $sevenOnlyTokens = @($tokens | Where-Object { [string]$_.Kind -in @('QuestionQuestion', 'QuestionQuestionEquals', 'QuestionDot', 'QuestionLBracket', 'AndAnd', 'OrOr') })
        $sevenOnlyTokens.Count | Should -Be 0
    }

    It 'uses no ForEach-Object -Parallel, ConvertFrom-Json -AsHashtable or Join-String' {
        $commands = @($ast.FindAll({ param($node) $node -is [System.Management.Automation.Language.CommandAst] }, $true))
        foreach ($commandAst in $commands) {
            $name = $commandAst.GetCommandName()
            $parameters = @($commandAst.CommandElements | Where-Object { $_ -is [System.Management.Automation.Language.CommandParameterAst] } | ForEach-Object { $_.ParameterName })
            $name | Should -Not -Be 'Join-String'
            if ($name -in @('ForEach-Object', '%', 'foreach')) {
                $parameters | Should -Not -Contain 'Parallel'
            }
            if ($name -eq 'ConvertFrom-Json') {
                $parameters | Should -Not -Contain 'AsHashtable'
            }
        }
    }
}

Describe 'DSC resource' {
    It 'exports the class-based resource ExchStorageValidation from the root module' {
        $manifestData = Import-PowerShellDataFile -Path $manifestPath
        @($manifestData.DscResourcesToExport) | Should -Be @('ExchStorageValidation')
        $tokens = $null
        $parseErrors = $null
        $ast = [System.Management.Automation.Language.Parser]::ParseFile((Join-Path -Path $repoRoot -ChildPath 'src/ExchStorageTest.psm1'), [ref]$tokens, [ref]$parseErrors)
        $resource = @($ast.FindAll({ param($node) $node -is [System.Management.Automation.Language.TypeDefinitionAst] -and $node.Name -eq 'ExchStorageValidation' }, $true))
        $resource.Count | Should -Be 1
        @($resource[0].Attributes | ForEach-Object { $_.TypeName.Name }) | Should -Contain 'DscResource'
        @($resource[0].Members | Where-Object { $_ -is [System.Management.Automation.Language.FunctionMemberAst] } | ForEach-Object { $_.Name } | Sort-Object) | Should -Be @('Get', 'Set', 'Test')
    }

    It 'ships valid DSC v3 manifests in dsc/' {
        foreach ($file in @(Get-ChildItem -Path (Join-Path -Path $repoRoot -ChildPath 'dsc') -Filter '*.json')) {
            { Get-Content -LiteralPath $file.FullName -Raw | ConvertFrom-Json -ErrorAction Stop } | Should -Not -Throw
        }
        $manifest = Get-Content -LiteralPath (Join-Path -Path $repoRoot -ChildPath 'dsc/exchstoragetest.dsc.resource.json') -Raw | ConvertFrom-Json
        @($manifest.test.args) | Should -Be @('dsc', 'test')
        $manifest.schema.embedded.properties.PSObject.Properties.Name | Should -Contain '_inDesiredState'
    }
}

Describe 'Format and types files' {
    It 'loads the format file' {
        { Update-FormatData -PrependPath (Join-Path -Path $repoRoot -ChildPath 'src/ExchStorageTest.Format.ps1xml') -ErrorAction Stop } | Should -Not -Throw
    }

    It 'defines a table and a list view for TestResult' {
        [xml]$format = Get-Content -LiteralPath (Join-Path -Path $repoRoot -ChildPath 'src/ExchStorageTest.Format.ps1xml') -Raw
        $views = @($format.Configuration.ViewDefinitions.View | Where-Object { $_.ViewSelectedBy.TypeName -eq 'ExchStorageTest.TestResult' })
        @($views | Where-Object { $null -ne $_.TableControl }).Count | Should -Be 1
        @($views | Where-Object { $null -ne $_.ListControl }).Count | Should -Be 1
    }

    It 'applies the types file to TestResult objects' {
        $result = [pscustomobject]@{ PSTypeName = 'ExchStorageTest.TestResult'; Result = 'Pass'; ReportPath = @('r.html') }
        $result.Passed | Should -BeTrue
        @($result.ReportPaths) | Should -Be @('r.html')
    }
}

Describe 'PSScriptAnalyzer' -Skip:(-not $hasAnalyzer) {
    It 'finds no errors or warnings in src/' {
        $settings = Join-Path -Path $repoRoot -ChildPath 'PSScriptAnalyzerSettings.psd1'
        $parameters = @{ Path = (Join-Path -Path $repoRoot -ChildPath 'src'); Recurse = $true; Severity = @('Error', 'Warning') }
        if (Test-Path -LiteralPath $settings) {
            $parameters.Settings = $settings
        }
        $findings = @(Invoke-ScriptAnalyzer @parameters)
        $findings.Count | Should -Be 0 -Because (($findings | ForEach-Object { "$($_.ScriptName):$($_.Line) $($_.RuleName) $($_.Message)" }) -join "`n")
    }
}
