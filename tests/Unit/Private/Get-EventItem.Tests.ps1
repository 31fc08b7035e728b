#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# The two shapes the verify and inspect commands report: one event with a list, or one per item.

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
}

Describe 'Get-EventItem' {
    It 'returns the items of the named list' {
        $items = InModuleScope ExchStorageTest {
            @(Get-EventItem -InputObject ([pscustomobject]@{ type = 'verify'; files = @(@{ path = 'a' }, @{ path = 'b' }) }) -Name 'files')
        }
        $items.Count | Should -Be 2
        $items[1].path | Should -Be 'b'
    }

    It 'returns the event itself when it carries no such list' {
        $items = InModuleScope ExchStorageTest {
            @(Get-EventItem -InputObject ([pscustomobject]@{ type = 'finding'; code = 'ClusterSize' }) -Name 'findings')
        }
        $items.Count | Should -Be 1
        $items[0].code | Should -Be 'ClusterSize'
    }
}
