using ExchStorageTest.Engine.Calculator;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Tests.Jetstress;

namespace ExchStorageTest.Engine.Tests.Calculator;

/// <summary>
/// The sizing calculator's import: the example's figures in (402 / 88.44 / 40 MB/s, 2500 mailboxes on 40 databases),
/// one profile out with the calculator's targets, wherever the labels sit; and a named refusal, naming the label or
/// the cell, for every kind of workbook it must not guess at.
/// </summary>
public class CalculatorImportTests : IDisposable
{
    private readonly TestFolder _dir = new("calc");

    private string Save(CalculatorWorkbookFile file, string name = "E2013Calc.xlsm") => file.Save(_dir.Combine(name));

    [Fact]
    public void The_example_gives_one_profile_of_2500_mailboxes_at_the_calculators_402_IOPS_on_40_databases_of_664_67_GB()
    {
        var import = CalculatorImport.Read(Save(new CalculatorWorkbookFile()), null);

        var p = Assert.Single(import.Profiles);
        Assert.Equal(2500, p.MailboxCount);
        Assert.Equal(0.1608, p.IopsPerMailbox, 12);
        Assert.Equal(402, p.TargetIops);
        Assert.Equal(0, p.HeadroomPercent);
        Assert.Equal(40, p.DatabaseCount);
        Assert.Equal(10890, p.MailboxSizeMB);
        Assert.Equal(664.67, Math.Round(p.DatabaseSizeMB / 1024, 2));
        Assert.Equal(4, p.CopiesPerDatabase);
        Assert.Empty(p.DatabasePaths);
        var t = p.Calculator!;
        Assert.Equal("Exchange 2013 Server Role Requirements Calculator", t.Calculator);
        Assert.Equal("7.6", t.Version);
        Assert.Equal("E2013Calc.xlsm", t.Workbook);
        Assert.Equal((2500, 40, 4, 2), (t.MailboxesPerServer, t.DatabasesPerServer, t.ServersPerDag, t.Dags));
        Assert.Equal((402.0, 88.44, 0.6, 40.0), (t.DatabaseIops, t.LogIops, t.DatabaseReadShare, t.MaintenanceMBPerSecond));
        Assert.Equal((241.2, 160.8, 80.4, 8.04), (t.DatabaseReadsPerSecond, t.DatabaseWritesPerSecond, t.LogWritesPerSecond, t.LogReadsPerSecond));
        Assert.Equal(664.6728515625, t.DatabaseSizeGB);
        Assert.Equal(16.384, t.DatabaseCachePerMailboxMB);
        Assert.Empty(import.Warnings);
    }

    [Fact]
    public void Where_the_labels_sit_does_not_matter()
    {
        var import = CalculatorImport.Read(Save(new CalculatorWorkbookFile().Moved(rows: 17, columns: 3)), null);
        var t = Assert.Single(import.Profiles).Calculator!;
        Assert.Equal((2500, 40, 402.0, 88.44, 40.0), (t.MailboxesPerServer, t.DatabasesPerServer, t.DatabaseIops, t.LogIops, t.MaintenanceMBPerSecond));
    }

    [Fact]
    public void An_xlsx_copy_reads_the_same()
    {
        var t = Assert.Single(CalculatorImport.Read(Save(new CalculatorWorkbookFile(), "copy.xlsx"), null).Profiles).Calculator!;
        Assert.Equal(402.0, t.DatabaseIops);
    }

    [Theory]
    [InlineData("Exchange 2016 Server Role Requirements Calculator", "Version: 9.1", "9.1")]
    [InlineData("Exchange 2013 Server Role Requirements Calculator", "Version: 6.6", "6.6")]
    public void Another_calculator_version_is_refused_naming_it_and_its_cells(string title, string version, string shown)
    {
        var file = new CalculatorWorkbookFile();
        file.Input["B1"] = title;
        file.Input["G2"] = version;
        var ex = Refused(file, ErrorCodes.CalculatorVersionUnsupported);
        Assert.Contains(shown, ex.Message);
        Assert.Contains("'Input'!B1", ex.Message);
        Assert.Contains("'Input'!G2", ex.Message);
    }

    [Fact]
    public void A_workbook_that_is_not_the_calculator_is_refused()
    {
        var file = new CalculatorWorkbookFile();
        file.Input["B1"] = "Quarterly budget";
        Assert.Contains("names no 'Exchange <year> Server Role Requirements Calculator'", Refused(file, ErrorCodes.CalculatorVersionUnsupported).Message);
    }

    [Fact]
    public void A_calculator_without_its_version_is_refused()
    {
        var file = new CalculatorWorkbookFile();
        file.Input.Remove("G2");
        Assert.Contains("states its version", Refused(file, ErrorCodes.CalculatorVersionUnsupported).Message);
    }

    [Theory]
    [InlineData(CalculatorLabels.MailboxesPerServer)]
    [InlineData(CalculatorLabels.LogWritesPerSecond)]
    [InlineData(CalculatorLabels.DatabaseIops)]
    [InlineData(CalculatorLabels.HostIoTable)]
    public void A_missing_label_is_refused_naming_it(string label)
    {
        var file = new CalculatorWorkbookFile();
        file.Role.Remove(file.CellOf(label));
        var ex = Refused(file, ErrorCodes.CalculatorLabelMissing);
        Assert.Contains(label, ex.Message);
    }

    [Fact]
    public void A_label_found_twice_is_refused_naming_both_cells()
    {
        var file = new CalculatorWorkbookFile();
        file.Role["B300"] = CalculatorLabels.MailboxesPerServer;
        file.Role["C300"] = 1000.0;
        var ex = Refused(file, ErrorCodes.CalculatorLabelMissing);
        Assert.Contains("B101, B300", ex.Message);
    }

    [Theory]
    [InlineData(CalculatorLabels.MailboxesPerServer, "#VALUE!")]
    [InlineData(CalculatorLabels.DatabaseReadsPerSecond, "#DIV/0!")]
    public void An_excel_error_beside_a_label_is_refused_naming_the_cell(string label, string error)
    {
        var file = new CalculatorWorkbookFile();
        string cell = file.ValueOf(label);
        file.Role[cell] = new ExcelError(error);
        var ex = Refused(file, ErrorCodes.CalculatorCellError);
        Assert.Contains(error, ex.Message);
        Assert.Contains($"'Role Requirements'!{cell}", ex.Message);
        Assert.Contains(label, ex.Message);
    }

    [Fact]
    public void An_excel_error_in_a_table_cell_is_refused_naming_the_cell()
    {
        var file = new CalculatorWorkbookFile();
        file.Role["D282"] = new ExcelError("#VALUE!");
        var ex = Refused(file, ErrorCodes.CalculatorCellError);
        Assert.Contains("'Role Requirements'!D282", ex.Message);
        Assert.Contains(CalculatorLabels.LogIops, ex.Message);
    }

    [Fact]
    public void Text_where_a_figure_goes_is_refused_naming_the_cell_and_the_value()
    {
        var file = new CalculatorWorkbookFile();
        file.Role["C101"] = "--";
        var ex = Refused(file, ErrorCodes.CalculatorValueInvalid);
        Assert.Contains("'--'", ex.Message);
        Assert.Contains("'Role Requirements'!C101", ex.Message);
    }

    [Fact]
    public void More_databases_than_the_engine_simulates_are_refused()
    {
        var file = new CalculatorWorkbookFile();
        file.Role["C102"] = 300.0;
        Assert.Contains("300", Refused(file, ErrorCodes.CalculatorValueInvalid).Message);
    }

    [Fact]
    public void Files_that_are_not_workbooks_are_refused()
    {
        string text = _dir.Combine("notes.xlsm");
        File.WriteAllText(text, "this is not a workbook");
        Assert.Equal(ErrorCodes.CalculatorNotWorkbook.Code, Assert.Throws<EngineException>(() => CalculatorImport.Read(text, null)).Code);

        string zip = _dir.Combine("other.xlsx");
        using (var archive = System.IO.Compression.ZipFile.Open(zip, System.IO.Compression.ZipArchiveMode.Create))
            archive.CreateEntry("readme.txt");
        Assert.Equal(ErrorCodes.CalculatorNotWorkbook.Code, Assert.Throws<EngineException>(() => CalculatorImport.Read(zip, null)).Code);

        Assert.Equal(ErrorCodes.CalculatorNotFound.Code, Assert.Throws<EngineException>(() => CalculatorImport.Read(_dir.Combine("absent.xlsm"), null)).Code);
    }

    [Fact]
    public void Dedicated_lagged_copy_servers_are_named_as_not_profiled()
    {
        var file = new CalculatorWorkbookFile();
        file.Role["C109"] = "Yes";
        var import = CalculatorImport.Read(Save(file), null);
        Assert.Contains(import.Warnings, w => w.Contains("lagged copies on dedicated servers"));
    }

    [Fact]
    public void The_servers_csv_gives_every_server_its_forty_mount_points_and_alike_servers_need_no_layout_of_their_own()
    {
        var import = CalculatorImport.Read(Save(new CalculatorWorkbookFile()), ServersCsvFile.Save(_dir.Combine("Servers.csv")));

        var p = Assert.Single(import.Profiles);
        Assert.Equal(new[] { "srv-nn-01", "srv-nn-02", "srv-nn-03", "srv-nn-04" }, p.Calculator!.Servers);
        Assert.Equal(40, p.DatabasePaths.Length);
        Assert.Equal(@"C:\ExchangeDatabases\DAG-nn-DB01", p.DatabasePaths[0]);
        Assert.Equal(@"C:\ExchangeDatabases\DAG-nn-DB40", p.DatabasePaths[39]);
        Assert.Empty(p.LogPaths);
        Assert.Empty(p.Servers);
        Assert.Null(ProfileRules.Check(p));
        var server = import.Servers[0];
        Assert.Equal(4, server.DatabasesPerVolume);
        Assert.Equal(new[] { 1, 1, 1, 1, 2 }, Enumerable.Range(0, 5).Select(server.Volume));
        Assert.Equal(10, server.Volume(39));
    }

    [Fact]
    public void Servers_holding_different_databases_each_get_their_own_and_a_host_tests_its_own()
    {
        string csv = _dir.Combine("Servers.csv");
        File.WriteAllText(csv, ServersCsvFile.Text.Replace("srv-nn-02,5,4,1,0,\"C:\\ExchangeVolumes\",\"C:\\ExchangeDatabases\",\"DAG-nn-DB01,", "srv-nn-02,5,4,1,0,\"C:\\ExchangeVolumes\",\"D:\\Mounts\",\"DAG-nn-DB41,"));
        var p = Assert.Single(CalculatorImport.Read(Save(new CalculatorWorkbookFile()), csv).Profiles);

        Assert.Equal(4, p.Servers.Length);
        Assert.Null(ProfileRules.Check(p));
        var second = p.ForServer("SRV-NN-02.contoso.com")!;
        Assert.Equal(@"D:\Mounts\DAG-nn-DB41", second.DatabasePaths[0]);
        Assert.Equal("srv-nn-02", Assert.Single(second.Servers).Name);
        Assert.Equal(@"C:\ExchangeDatabases\DAG-nn-DB01", p.ForServer("srv-nn-01")!.DatabasePaths[0]);
        Assert.Null(p.ForServer("lab-host-7"));
    }

    [Theory]
    [InlineData("VersionNumber,2.1,7.6", "VersionNumber,2.1,6.6", "exported by calculator version '6.6'")]
    [InlineData(",DAG-nn-DB40\"\r\nsrv-nn-02", "\"\r\nsrv-nn-02", "holds 39 databases")]
    [InlineData("DatabasesRootFolder", "DatabaseFolder", "no column 'DatabasesRootFolder'")]
    [InlineData("srv-nn-02,", "srv-nn-01,", "names the server 'srv-nn-01' twice")]
    public void A_servers_csv_that_disagrees_is_refused_saying_why(string from, string to, string why)
    {
        string csv = _dir.Combine("Servers.csv");
        string real = ServersCsvFile.Text;
        string changed = real.Replace(from, to);
        if (changed == real) changed = real.Replace(from.Replace("\r\n", "\n"), to.Replace("\r\n", "\n"));
        Assert.NotEqual(real, changed);
        File.WriteAllText(csv, changed);
        var ex = Assert.Throws<EngineException>(() => CalculatorImport.Read(Save(new CalculatorWorkbookFile()), csv));
        Assert.Equal(ErrorCodes.CalculatorLayoutInvalid.Code, ex.Code);
        Assert.Contains(why, ex.Message);
        Assert.True(ex.IsRefusal);
    }

    [RealClientsFact]
    public void The_servers_csv_the_tests_write_is_the_one_ExchangeDsc_ships()
    {
        string real = File.ReadAllText(Path.Combine(RealClientsFactAttribute.Folder!, "dsccommunity_ExchangeDsc_Servers.csv"));
        Assert.Equal(real.ReplaceLineEndings("\n"), ServersCsvFile.Text);
    }

    private EngineException Refused(CalculatorWorkbookFile file, ErrorCode code)
    {
        var ex = Assert.Throws<EngineException>(() => CalculatorImport.Read(Save(file), null));
        Assert.Equal(code.Code, ex.Code);
        Assert.True(ex.IsRefusal);
        return ex;
    }

    public void Dispose() => _dir.Dispose();
}
