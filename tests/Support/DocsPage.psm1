# A docs/<Command>.md page read the plain way, line by line, to check what Get-Help shows against what the page
# says. Deliberately not the help compiler's reader (tools/ExchStorageTest.HelpCompiler): a bug there must not be
# repeated here, or the help and the page could agree with each other while both are wrong.

Set-StrictMode -Version 2.0

function ConvertTo-NormalizedText {
    # Whitespace runs as one space, trimmed: how page and help are compared.
    param([AllowNull()][string] $Text)
    if ($null -eq $Text) { return '' }
    ($Text -replace '\s+', ' ').Trim()
}

function Test-Fence([string] $Line) { $Line.TrimStart().StartsWith('```') }

function Get-Prose {
    # The text outside code fences, links reduced to their text, whitespace collapsed.
    param([string[]] $Lines)
    $inFence = $false
    $prose = foreach ($line in $Lines) {
        if (Test-Fence $line) { $inFence = -not $inFence; continue }
        if (-not $inFence) { $line }
    }
    ConvertTo-NormalizedText ((@($prose) -join ' ') -replace '\[([^\]]*)\]\([^)]*\)', '$1')
}

function Get-Fence {
    # The code fences of some lines: their info string and their lines.
    param([string[]] $Lines)
    $fence = $null
    $info = ''
    foreach ($line in $Lines) {
        if (Test-Fence $line) {
            if ($null -eq $fence) { $fence = New-Object System.Collections.Generic.List[string]; $info = $line.Trim().Trim('`').Trim() }
            else { [pscustomobject]@{ Info = $info; Lines = @($fence) }; $fence = $null }
            continue
        }
        if ($null -ne $fence) { $fence.Add($line) }
    }
}

function Get-Entry {
    # The "### Title" entries of a section, each with its lines.
    param([string[]] $Section)
    $title = $null
    $lines = New-Object System.Collections.Generic.List[string]
    $inFence = $false
    foreach ($line in $Section) {
        if (Test-Fence $line) { $inFence = -not $inFence }
        if (-not $inFence -and $line.StartsWith('### ')) {
            if ($null -ne $title) { [pscustomobject]@{ Title = $title; Lines = @($lines) } }
            $title = $line.Substring(4).Trim()
            $lines = New-Object System.Collections.Generic.List[string]
            continue
        }
        $lines.Add($line)
    }
    if ($null -ne $title) { [pscustomobject]@{ Title = $title; Lines = @($lines) } }
}

function Get-DocsFolder { Join-Path (Resolve-Path -LiteralPath (Join-Path $PSScriptRoot '../..')).Path 'docs' }

function Get-DocsPage {
    # The page of a command: front matter, synopsis, description, parameters (with their yaml blocks) and examples.
    param([Parameter(Mandatory)][string] $Command)
    $path = Join-Path (Get-DocsFolder) "$Command.md"
    $lines = @(Get-Content -LiteralPath $path)
    $frontMatter = @{}
    $start = 0
    if ($lines.Count -gt 0 -and $lines[0] -eq '---') {
        for ($start = 1; $start -lt $lines.Count -and $lines[$start] -ne '---'; $start++) {
            $colon = $lines[$start].IndexOf(':')
            if ($colon -gt 0) { $frontMatter[$lines[$start].Substring(0, $colon).Trim()] = $lines[$start].Substring($colon + 1).Trim() }
        }
        $start++
    }
    $sections = @{}
    $current = $null
    $inFence = $false
    for ($i = $start; $i -lt $lines.Count; $i++) {
        $line = $lines[$i]
        if (Test-Fence $line) { $inFence = -not $inFence }
        if (-not $inFence -and $line.StartsWith('## ')) {
            $current = New-Object System.Collections.Generic.List[string]
            $sections[$line.Substring(3).Trim()] = $current
            continue
        }
        if ($null -ne $current) { $current.Add($line) }
    }
    foreach ($required in 'SYNOPSIS', 'DESCRIPTION', 'PARAMETERS', 'EXAMPLES') {
        if (-not $sections.ContainsKey($required)) { throw "$path has no '## $required' section" }
    }
    $parameters = @(Get-Entry @($sections['PARAMETERS']) | Where-Object { $_.Title.StartsWith('-') } | ForEach-Object {
            $entry = $_
            $description = @()
            foreach ($l in $entry.Lines) { if (Test-Fence $l) { break }; $description += $l }
            $yaml = @(Get-Fence $entry.Lines | Where-Object { $_.Info -eq 'yaml' } | ForEach-Object {
                    $block = @{}
                    foreach ($l in $_.Lines) {
                        $colon = $l.IndexOf(':')
                        if ($colon -ge 0) { $block[$l.Substring(0, $colon).Trim()] = $l.Substring($colon + 1).Trim() }
                    }
                    $block
                })
            [pscustomobject]@{ Name = $entry.Title.Substring(1); Description = (Get-Prose $description); Yaml = $yaml }
        })
    $examples = @(Get-Entry @($sections['EXAMPLES']) | ForEach-Object {
            [pscustomobject]@{
                Title   = $_.Title
                Code    = (@(Get-Fence $_.Lines | ForEach-Object { $_.Lines -join "`n" }) -join "`n`n")
                Remarks = (Get-Prose $_.Lines)
            }
        })
    [pscustomobject]@{
        Path        = $path
        FrontMatter = $frontMatter
        Synopsis    = Get-Prose @($sections['SYNOPSIS'])
        Description = Get-Prose @($sections['DESCRIPTION'])
        Parameters  = $parameters
        Examples    = $examples
    }
}

Export-ModuleMember -Function 'ConvertTo-NormalizedText', 'Get-DocsPage', 'Get-DocsFolder', 'Get-Fence'
