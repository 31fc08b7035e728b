# Calculator workbooks for the Pester tests, written with the Open XML SDK the engine reads them with (the published
# engine's build output's DocumentFormat.OpenXml.dll, untrimmed - the published engine's is trimmed to what the
# engine reads, without the SDK's writers -, so PowerShell 7 only: tag such tests 'Needs:PowerShell7'). They hold the labels
# and cached values of the Exchange 2013 Server Role Requirements Calculator 7.6 example (ExchangeDsc's
# "E2013Calcv7.6 - Example.xlsm") at its cells: 2500 mailboxes and 40 databases per server, 402 database and
# 88.44 log IOPS, 40 MB/s of background maintenance, 664.67 GB databases, 4 copies.

function Get-ExampleCalculatorCells {
    # The example's cells: Input (title, version) and Role Requirements (label beside value, and the titled tables).
    @{
        Input = [ordered]@{ B1 = 'Exchange 2013 Server Role Requirements Calculator'; G2 = 'Version: 7.6' }
        Role  = [ordered]@{
            H78 = 'DB Read Transfers/s / Server'; I78 = 241.2
            H79 = 'DB Write Transfers/s / Server'; I79 = 160.8
            H80 = 'Log Write Transfers/s /Server'; I80 = 80.4
            H81 = 'Log Read Transfers/s /Server'; I81 = 8.04
            H91 = 'Total Number of Mailbox Servers / DAG'; I91 = 4.0
            B96 = 'Total DAGs in the Environment'; C96 = 2.0
            B101 = 'Calculated Total Number of Mailboxes / Server'; C101 = 2500.0
            B102 = 'Total Number of Database Copies per Server'; C102 = 40.0
            B108 = 'Dedicated Disaster Recovery Mailbox Servers in Secondary Datacenter'; C108 = 'No'
            B109 = 'Lagged Database Copies Hosted on Dedicated Servers'; C109 = 'No'
            B237 = 'Database Copy Instance Configuration'; C237 = '/ Datacenter 1'; D237 = '/ Datacenter 2'; E237 = 'Total'
            B238 = 'Number of HA Database Copy Instances / DAG'; E238 = 3.0
            B239 = 'Number of Lagged Database Copy Instances / DAG'; E239 = 1.0
            B240 = 'Total Number of Database Copy Instances'; E240 = 4.0
            B245 = 'Available Database Cache / Mailbox'; C245 = 16.384
            B272 = 'Disk Space Requirements'; C272 = '/ Database'; D272 = ' / Server'
            B273 = 'Transport Database Space Required'; C273 = '--'; D273 = 643.73
            B274 = 'Database Space Required'; C274 = 664.6728515625; D274 = 26586.9140625
            B280 = 'Host IO and Throughput Requirements'; C280 = '/ Database'; D280 = ' / Server'; E280 = '/ DAG'; F280 = '/ Environment'
            B281 = 'Total Database Required IOPS'; C281 = 10.05; D281 = 402.0; E281 = 1608.0; F281 = 3216.0
            B282 = 'Total Log Required IOPS'; C282 = 2.211; D282 = 88.44; E282 = 353.76; F282 = 707.52
            B283 = 'Database Read I/O Percentage'; C283 = 0.6; D283 = '--'
            B284 = 'Background Database Maintenance Throughput Requirements'; C284 = 1.0; D284 = 40.0; E284 = 160.0; F284 = 320.0
        }
    }
}

function Import-OpenXml {
    $root = Split-Path -Parent (Split-Path -Parent $PSScriptRoot)
    $folder = Join-Path $root 'native/src/ExchStorageTest.Engine.Cli/bin/Release/net8.0'
    $dll = Get-Item -LiteralPath (Join-Path $folder 'DocumentFormat.OpenXml.dll') -ErrorAction SilentlyContinue
    if (-not $dll) { throw "DocumentFormat.OpenXml.dll is not in ${folder}: build first (./build.sh Build)." }
    if (-not ('DocumentFormat.OpenXml.Packaging.SpreadsheetDocument' -as [type])) {
        Add-Type -Path (Join-Path $dll.DirectoryName 'DocumentFormat.OpenXml.Framework.dll')
        Add-Type -Path $dll.FullName
    }
}

function Add-Part {
    # AddNewPart<T>() through reflection: generic method calls are not PowerShell 5.1 syntax, and this file must parse there.
    param($Container, [type] $Type)
    $method = $Container.GetType().GetMethods() | Where-Object { $_.Name -eq 'AddNewPart' -and $_.IsGenericMethodDefinition -and $_.GetParameters().Count -eq 0 } | Select-Object -First 1
    $method.MakeGenericMethod($Type).Invoke($Container, @())
}

function New-CalculatorWorkbook {
    # Writes the example's workbook to -Path; -Role and -InputCells change cells (a value of $null removes the cell), an
    # the cells named in -ErrorCell are written as Excel error values (their value, for example '#VALUE!').
    param(
        [Parameter(Mandatory)][string] $Path,
        [hashtable] $Role = @{},
        [hashtable] $InputCells = @{},
        [string[]] $ErrorCell = @()
    )
    Import-OpenXml
    $cells = Get-ExampleCalculatorCells
    foreach ($k in $Role.Keys) { $cells.Role[$k] = $Role[$k] }
    foreach ($k in $InputCells.Keys) { $cells.Input[$k] = $InputCells[$k] }
    $macro = $Path -like '*.xlsm'
    $type = if ($macro) { [DocumentFormat.OpenXml.SpreadsheetDocumentType]::MacroEnabledWorkbook } else { [DocumentFormat.OpenXml.SpreadsheetDocumentType]::Workbook }
    $document = [DocumentFormat.OpenXml.Packaging.SpreadsheetDocument]::Create($Path, $type)
    try {
        $workbookPart = $document.AddWorkbookPart()
        $workbookPart.Workbook = [DocumentFormat.OpenXml.Spreadsheet.Workbook]::new()
        $sheets = $workbookPart.Workbook.AppendChild([DocumentFormat.OpenXml.Spreadsheet.Sheets]::new())
        $strings = [System.Collections.Generic.List[string]]::new()
        $id = 1
        foreach ($sheet in @(@{ Name = 'Input'; Cells = $cells.Input }, @{ Name = 'Role Requirements'; Cells = $cells.Role })) {
            $part = Add-Part $workbookPart ([DocumentFormat.OpenXml.Packaging.WorksheetPart])
            $data = [DocumentFormat.OpenXml.Spreadsheet.SheetData]::new()
            $rows = $sheet.Cells.Keys | Where-Object { $null -ne $sheet.Cells[$_] } | Group-Object { [int]($_ -replace '^[A-Z]+', '') } | Sort-Object { [int]$_.Name }
            foreach ($group in $rows) {
                $row = [DocumentFormat.OpenXml.Spreadsheet.Row]::new()
                $row.RowIndex = [uint32]$group.Name
                foreach ($reference in ($group.Group | Sort-Object { ($_ -replace '\d', '').Length }, { $_ })) {
                    $value = $sheet.Cells[$reference]
                    $cell = [DocumentFormat.OpenXml.Spreadsheet.Cell]::new()
                    $cell.CellReference = $reference
                    if ($ErrorCell -contains $reference) {
                        $cell.DataType = [DocumentFormat.OpenXml.Spreadsheet.CellValues]::Error
                        $cell.CellValue = [DocumentFormat.OpenXml.Spreadsheet.CellValue]::new([string]$value)
                    }
                    elseif ($value -is [string]) {
                        $index = $strings.IndexOf($value)
                        if ($index -lt 0) { $strings.Add($value); $index = $strings.Count - 1 }
                        $cell.DataType = [DocumentFormat.OpenXml.Spreadsheet.CellValues]::SharedString
                        $cell.CellValue = [DocumentFormat.OpenXml.Spreadsheet.CellValue]::new([string]$index)
                    }
                    else {
                        $cell.CellFormula = [DocumentFormat.OpenXml.Spreadsheet.CellFormula]::new('0+0')
                        $cell.CellValue = [DocumentFormat.OpenXml.Spreadsheet.CellValue]::new([double]$value)
                    }
                    $null = $row.AppendChild($cell)
                }
                $null = $data.AppendChild($row)
            }
            $part.Worksheet = [DocumentFormat.OpenXml.Spreadsheet.Worksheet]::new()
            $null = $part.Worksheet.AppendChild($data)
            $sheetEntry = [DocumentFormat.OpenXml.Spreadsheet.Sheet]::new()
            $sheetEntry.Id = $workbookPart.GetIdOfPart($part)
            $sheetEntry.SheetId = [uint32]$id
            $sheetEntry.Name = $sheet.Name
            $null = $sheets.AppendChild($sheetEntry)
            $id++
        }
        $table = Add-Part $workbookPart ([DocumentFormat.OpenXml.Packaging.SharedStringTablePart])
        $table.SharedStringTable = [DocumentFormat.OpenXml.Spreadsheet.SharedStringTable]::new()
        foreach ($s in $strings) {
            $item = [DocumentFormat.OpenXml.Spreadsheet.SharedStringItem]::new()
            $null = $item.AppendChild([DocumentFormat.OpenXml.Spreadsheet.Text]::new($s))
            $null = $table.SharedStringTable.AppendChild($item)
        }
    }
    finally { $document.Dispose() }
    $Path
}

function New-ServersCsv {
    # A Servers.csv as the calculator exports it for its deployment scripts: byte for byte the example ExchangeDsc
    # ships (shared/research/realclients/SOURCES.md), which the engine's xUnit fact
    # The_servers_csv_the_tests_write_is_the_one_ExchangeDsc_ships compares with the saved real file.
    param([Parameter(Mandatory)] [string] $Path)
    $databases = (1..40 | ForEach-Object { 'DAG-nn-DB{0:00}' -f $_ }) -join ','
    $lines = @(
        'ServerName, StartDrive, DbPerVolume, AutoReseedVolumes, DbLogIsolation, VolumesRootFolder, DatabasesRootFolder, DbMap'
        'VersionNumber,2.1,7.6,,,,, '
    )
    foreach ($server in 'srv-nn-01', 'srv-nn-02', 'srv-nn-03', 'srv-nn-04') {
        $lines += '{0},5,4,1,0,"C:\ExchangeVolumes","C:\ExchangeDatabases","{1}"' -f $server, $databases
    }
    [System.IO.File]::WriteAllText($Path, (($lines -join "`n") + "`n"))
    $Path
}

Export-ModuleMember -Function New-CalculatorWorkbook
Export-ModuleMember -Function New-ServersCsv
Export-ModuleMember -Function Get-ExampleCalculatorCells
