# Loader for the ExchStorageTest script module (development layout: one function per file).
# Private helpers load first so public commands can rely on them; only the public commands are
# exported, and the manifest repeats the list so auto-discovery never has to load the module.

$script:ModuleRoot = Split-Path -Path $PSScriptRoot -Parent
$script:ModuleManifestPath = Join-Path -Path $script:ModuleRoot -ChildPath 'ExchStorageTest.psd1'

# The protocol this module speaks with the engine helper (docs/protocol.md).
$script:EngineProtocolVersion = 1

foreach ($folder in @('Private', 'Public')) {
    $folderPath = Join-Path -Path $PSScriptRoot -ChildPath $folder
    foreach ($file in @(Get-ChildItem -Path $folderPath -Filter '*.ps1' -File | Sort-Object -Property Name)) {
        . $file.FullName
    }
}

$publicFunctions = @(
    Get-ChildItem -Path (Join-Path -Path $PSScriptRoot -ChildPath 'Public') -Filter '*.ps1' -File |
        ForEach-Object { $_.BaseName }
)
Export-ModuleMember -Function $publicFunctions -Cmdlet @() -Variable @() -Alias @()
