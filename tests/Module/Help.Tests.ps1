# Help as a user sees it: Get-Help on every command the module exports (whatever Get-Command returns, so a
# command added later is covered on arrival) shows what docs/<Command>.md says, every parameter the command has
# is documented there with its metadata, and about_ExchStorageTest is docs/about_ExchStorageTest.md.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-Module (Join-Path $PSScriptRoot '../Support/DocsPage.psm1')
    Import-ExchStorageTest
    $HelpFile = 'ExchStorageTest.dll-Help.xml'
    $Commands = @(Get-Command -Module ExchStorageTest)
    $CommonParameters = [System.Management.Automation.Cmdlet]::CommonParameters

    function Get-DocumentedParameter($Command) {
        # The parameters a page must document: all but the common ones (-Verbose ...), which PowerShell documents.
        $Command.Parameters.Values | Where-Object { $CommonParameters -notcontains $_.Name }
    }
    function Split-List([string] $Value) { @(($Value -split ',') | ForEach-Object { $_.Trim() } | Where-Object { $_ }) }
    function Compare-Text([string] $What, [string] $Written, [string] $Shown) {
        $w = ConvertTo-NormalizedText $Written
        $s = ConvertTo-NormalizedText $Shown
        if ($w -cne $s) { "${What}:`n  page: $w`n  help: $s" }
    }
    function Get-Texts($Items) { (@($Items) | Where-Object { $null -ne $_ } | ForEach-Object { $_.Text }) -join "`n" }
}

Describe 'Help' {
    It 'exports commands to check' {
        $Commands.Count | Should -BeGreaterThan 0
    }

    It 'has a docs page for every command, documenting exactly its parameters' {
        $problems = foreach ($command in $Commands) {
            if (-not (Test-Path -LiteralPath (Join-Path (Get-DocsFolder) "$($command.Name).md"))) { "$($command.Name): docs/$($command.Name).md is missing"; continue }
            $documented = @((Get-DocsPage $command.Name).Parameters.Name)
            $actual = @((Get-DocumentedParameter $command).Name)
            foreach ($p in $actual) { if ($documented -cnotcontains $p) { "$($command.Name): -$p has no '### -$p' in docs/$($command.Name).md" } }
            foreach ($p in $documented) { if ($actual -cnotcontains $p) { "$($command.Name): docs/$($command.Name).md documents -$p, which the command does not have" } }
        }
        $problems | Should -BeNullOrEmpty
    }

    It 'states each parameter''s type, aliases, sets, mandatory, position and pipeline binding as the command declares them' {
        # Get-Help's syntax and parameter details are built from these yaml blocks: a wrong block is wrong help.
        $problems = foreach ($command in $Commands) {
            if (-not (Test-Path -LiteralPath (Join-Path (Get-DocsFolder) "$($command.Name).md"))) { continue } # the test above names it
            $docs = @{}
            foreach ($p in (Get-DocsPage $command.Name).Parameters) { $docs[$p.Name] = $p }
            foreach ($parameter in Get-DocumentedParameter $command) {
                if (-not $docs.ContainsKey($parameter.Name)) { continue }
                $doc = $docs[$parameter.Name]
                $where = "$($command.Name) -$($parameter.Name)"
                if ($doc.Yaml.Count -eq 0) { "${where}: no yaml block"; continue }
                foreach ($yaml in $doc.Yaml) {
                    if ($yaml['Type'] -cne $parameter.ParameterType.Name) { "${where}: Type is '$($yaml['Type'])', the command's is '$($parameter.ParameterType.Name)'" }
                    $aliases = @(Split-List $yaml['Aliases'] | Sort-Object)
                    if (($aliases -join ',') -cne (@($parameter.Aliases | Sort-Object) -join ',')) { "${where}: Aliases are '$($aliases -join ', ')', the command's are '$($parameter.Aliases -join ', ')'" }
                }
                foreach ($set in $parameter.ParameterSets.Keys) {
                    $metadata = $parameter.ParameterSets[$set]
                    $setName = if ($set -eq [System.Management.Automation.ParameterAttribute]::AllParameterSets) { '(All)' } else { $set }
                    $yaml = @($doc.Yaml | Where-Object { (Split-List $_['Parameter Sets']) -contains $setName }) + @($doc.Yaml | Where-Object { (Split-List $_['Parameter Sets']) -join ',' -eq '(All)' }) | Select-Object -First 1
                    if (-not $yaml) { "${where}: set $setName is in no yaml block's 'Parameter Sets'"; continue }
                    $required = if ($metadata.IsMandatory) { 'True' } else { 'False' }
                    if ($yaml['Required'] -ne $required) { "${where}: Required is '$($yaml['Required'])' for set $setName, the command says $required" }
                    $position = if ($metadata.Position -eq [int]::MinValue) { 'Named' } else { [string]$metadata.Position }
                    if ($yaml['Position'] -ne $position) { "${where}: Position is '$($yaml['Position'])' for set $setName, the command says $position" }
                    $pipeline = [string]$yaml['Accept pipeline input']
                    if (($pipeline -clike '*ByValue*') -ne $metadata.ValueFromPipeline -or ($pipeline -clike '*ByPropertyName*') -ne $metadata.ValueFromPipelineByPropertyName) {
                        "${where}: 'Accept pipeline input: $pipeline' for set $setName, the command says ByValue=$($metadata.ValueFromPipeline), ByPropertyName=$($metadata.ValueFromPipelineByPropertyName)"
                    }
                }
                foreach ($extra in @($doc.Yaml | ForEach-Object { Split-List $_['Parameter Sets'] } | Where-Object { $_ -ne '(All)' })) {
                    if (-not $parameter.ParameterSets.ContainsKey($extra)) { "${where}: docs list set $extra, which the parameter is not in" }
                }
            }
        }
        $problems | Should -BeNullOrEmpty
    }

    It 'has an online help address for Get-Help -Online: the docs page, as HelpUri and as the first related link' {
        $problems = foreach ($command in $Commands) {
            $uri = [string]$command.HelpUri
            if ($uri -notmatch "^https://[^ ]+/docs/$([regex]::Escape($command.Name))\.md$") { "$($command.Name): HelpUri is '$uri', not its docs/$($command.Name).md page" }
            $first = @((Get-Help -Name $command.Name).relatedLinks.navigationLink)[0]
            if ([string]$first.uri -cne $uri) { "$($command.Name): Get-Help's first related link is '$($first.linkText) $($first.uri)', the HelpUri '$uri'" }
        }
        $problems | Should -BeNullOrEmpty
    }

    It 'shows with Get-Help -Full the synopsis, description, parameters and examples of the docs page' {
        $problems = foreach ($command in $Commands) {
            $docs = Get-DocsPage $command.Name
            $help = Get-Help -Name $command.Name -Full
            # Help generated from the command's metadata (no MAML found) has the syntax as its synopsis.
            if ($help.PSObject.TypeNames -notcontains 'MamlCommandHelpInfo') { "$($command.Name): Get-Help did not come from the MAML file ($($help.PSObject.TypeNames -join ', '))" }
            Compare-Text "$($command.Name) synopsis" $docs.Synopsis ([string]$help.Synopsis)
            Compare-Text "$($command.Name) description" $docs.Description (Get-Texts $help.description)

            $shownParameters = @{}
            foreach ($p in @($help.parameters.parameter)) { $shownParameters[[string]$p.name] = Get-Texts $p.description }
            $writtenParameters = @{}
            foreach ($p in $docs.Parameters) { $writtenParameters[$p.Name] = $p.Description }
            foreach ($parameter in Get-DocumentedParameter $command) {
                if (-not $shownParameters.ContainsKey($parameter.Name)) { "$($command.Name): Get-Help -Full does not show -$($parameter.Name)"; continue }
                if (-not $shownParameters[$parameter.Name].Trim()) { "$($command.Name): Get-Help -Full shows -$($parameter.Name) without a description" }
                if ($writtenParameters.ContainsKey($parameter.Name)) { Compare-Text "$($command.Name) -$($parameter.Name)" $writtenParameters[$parameter.Name] $shownParameters[$parameter.Name] }
            }

            $shownExamples = @($help.examples.example)
            if ($docs.Examples.Count -eq 0) { "$($command.Name): docs/$($command.Name).md has no example" }
            if ($shownExamples.Count -ne $docs.Examples.Count) { "$($command.Name): Get-Help shows $($shownExamples.Count) examples, the page has $($docs.Examples.Count)" }
            for ($i = 0; $i -lt [Math]::Min($shownExamples.Count, $docs.Examples.Count); $i++) {
                $written = $docs.Examples[$i]
                $shown = $shownExamples[$i]
                Compare-Text "$($command.Name) example title" $written.Title ([string]$shown.title).Trim('-', ' ')
                $shownCode = ([string]$shown.code).Replace("`r`n", "`n").Trim()
                if ($shownCode -cne $written.Code.Trim()) { "$($command.Name) '$($written.Title)' code:`n  page: $($written.Code.Trim())`n  help: $shownCode" }
                Compare-Text "$($command.Name) '$($written.Title)' remarks" $written.Remarks (Get-Texts $shown.remarks)
            }
        }
        $problems | Should -BeNullOrEmpty
    }

    It 'has examples that run when pasted: each defines the variables it uses, and none uses $profile' {
        # $PROFILE is PowerShell's own (the profile script's path): an example that pipes it, or assigns to it, gives
        # the command a path string or overwrites the user's. Each help example is pasted alone, so every variable it
        # reads is one it assigns (or PowerShell's constants). The other pages' PowerShell blocks hold to $profile too.
        $constants = 'true', 'false', 'null', '_', 'PSItem'
        function Get-ExampleProblem([string] $Where, [string] $Code, [switch] $AllowOuter) {
            if ($Code -match '\$profile\b') { "${Where}: uses `$profile, PowerShell's own variable" }
            # Other pages' blocks may continue an earlier one, or use DSC's Configuration keyword, which Windows's parser
            # meets by loading PSDesiredStateConfiguration (under Wine that never returned): they are not parsed.
            if ($AllowOuter -or $Code -match '(?m)^\s*Configuration\s') { return }
            $tokens = $errors = $null
            $ast = [System.Management.Automation.Language.Parser]::ParseInput($Code, [ref] $tokens, [ref] $errors)
            if ($errors) { "${Where}: does not parse: $($errors[0].Message)"; return }
            $variables = @($ast.FindAll({ param($a) $a -is [System.Management.Automation.Language.VariableExpressionAst] }, $true))
            $assigned = @($ast.FindAll({ param($a) $a -is [System.Management.Automation.Language.AssignmentStatementAst] }, $true) |
                    ForEach-Object { $_.Left } | Where-Object { $_ -is [System.Management.Automation.Language.VariableExpressionAst] } | ForEach-Object { $_.VariablePath.UserPath })
            foreach ($name in @($variables | ForEach-Object { $_.VariablePath.UserPath } | Select-Object -Unique)) {
                if ($constants -notcontains $name -and $assigned -notcontains $name) { "${Where}: uses `$$name, which it does not assign" }
            }
        }
        $problems = foreach ($command in $Commands) {
            foreach ($example in (Get-DocsPage $command.Name).Examples) { Get-ExampleProblem "$($command.Name) '$($example.Title)'" $example.Code }
        }
        $pages = @(Get-ChildItem -LiteralPath (Get-DocsFolder) -Filter '*.md') + @(Get-Item -LiteralPath (Join-Path (Get-RepositoryRoot) 'README.md'))
        $problems += foreach ($page in $pages) {
            foreach ($fence in @(Get-Fence (Get-Content -LiteralPath $page.FullName) | Where-Object { $_.Info -eq 'powershell' })) {
                Get-ExampleProblem "$($page.Name) block '$($fence.Lines[0])'" ($fence.Lines -join "`n") -AllowOuter
            }
        }
        $problems | Should -BeNullOrEmpty
    }

    It 'shows in Get-Help''s syntax one entry per parameter set of the command, with that set''s parameters' {
        $problems = foreach ($command in $Commands) {
            $help = Get-Help -Name $command.Name -Full
            $shown = @($help.syntax.syntaxItem | ForEach-Object { (@($_.parameter | ForEach-Object { [string]$_.name }) | Sort-Object) -join ' ' })
            $actual = @($command.ParameterSets | ForEach-Object { (@($_.Parameters.Name | Where-Object { $CommonParameters -notcontains $_ }) | Sort-Object) -join ' ' })
            foreach ($set in $actual) { if ($shown -notcontains $set) { "$($command.Name): Get-Help shows no syntax for the set [$set]" } }
            foreach ($set in $shown) { if ($actual -notcontains $set) { "$($command.Name): Get-Help shows a syntax [$set] that is no parameter set of the command" } }
        }
        $problems | Should -BeNullOrEmpty
    }

    It 'shows about_ExchStorageTest as docs/about_ExchStorageTest.md says' {
        $shown = Get-Help -Name about_ExchStorageTest
        $shown | Should -BeOfType [string]
        $shown = $shown.TrimStart([char]0xFEFF)
        $shown | Should -Match '^TOPIC'
        # The page: its heading is the topic, "## " headings print in capitals, fences only frame text.
        $lines = @(Get-Content -LiteralPath (Join-Path (Get-DocsFolder) 'about_ExchStorageTest.md'))
        $body = [Array]::IndexOf($lines, '# about_ExchStorageTest')
        $body | Should -BeGreaterThan 0 -Because "docs/about_ExchStorageTest.md must have an '# about_ExchStorageTest' heading"
        $expected = $lines[($body + 1)..($lines.Count - 1)] | Where-Object { -not $_.TrimStart().StartsWith('```') } |
            ForEach-Object { if ($_.StartsWith('## ')) { $_.Substring(3).ToUpperInvariant() } else { $_ } }
        ConvertTo-NormalizedText $shown | Should -BeExactly (ConvertTo-NormalizedText ('TOPIC about_ExchStorageTest ' + ($expected -join ' ')))
    }

    It 'puts the help files where both PowerShell editions look: en-US under the module base' {
        # Windows PowerShell 5.1 looks for a module cmdlet's help file only under the module base (the repository
        # root, the manifest's folder) and its culture folders; PowerShell 7 also beside the DLL. About topics are
        # found only under the module base.
        $moduleBase = (Get-Module ExchStorageTest).ModuleBase
        $moduleBase.TrimEnd('/', '\') | Should -Be (Get-RepositoryRoot).TrimEnd('/', '\')
        $expected = Join-Path $moduleBase "en-US/$HelpFile"
        Test-Path -LiteralPath $expected | Should -BeTrue
        Test-Path -LiteralPath (Join-Path $moduleBase 'en-US/about_ExchStorageTest.help.txt') | Should -BeTrue
        foreach ($command in $Commands) {
            (Get-DocsPage $command.Name).FrontMatter['external help file'] | Should -Be $HelpFile
            [System.IO.Path]::GetFileName($command.HelpFile) | Should -Be $HelpFile
        }
        # The engine loads a help file once per session and writes the path it loaded into the HelpFile of the
        # command that caused the load; the others keep the bare name.
        $loaded = @($Commands | ForEach-Object { $null = Get-Help -Name $_.Name; (Get-Command -Name $_.Name).HelpFile } | Where-Object { [System.IO.Path]::IsPathRooted($_) } | Select-Object -Unique)
        $loaded | Should -Be @($expected)
    }
}
