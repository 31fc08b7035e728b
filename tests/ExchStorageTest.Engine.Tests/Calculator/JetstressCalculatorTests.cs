using ExchStorageTest.Engine.Cli.Jetstress;

namespace ExchStorageTest.Engine.Tests.Calculator;

/// <summary>
/// JetstressCmd /g /calculator: each server's JetstressConfig.xml from the calculator's design and its Servers.csv,
/// read back to the calculator's profile; a bad workbook or a file /g did not write is refused and nothing is written.
/// </summary>
public sealed class JetstressCalculatorTests : IDisposable
{
    private readonly TestFolder _dir = new("jscalc");

    private (int Exit, string Out, string Err) Run(string workingDirectory, params string[] args)
    {
        var stdout = new StringWriter();
        var stderr = new StringWriter();
        int exit = JetstressCmd.Run(args, workingDirectory, _dir.Sub("bin"), stdout, stderr, CancellationToken.None);
        return (exit, stdout.ToString(), stderr.ToString());
    }

    private static MailboxProfile ReadBack(string path)
    {
        var config = JetstressConfig.Read(path, out var violation);
        Assert.Null(violation);
        var profile = config!.ToProfile(out violation);
        Assert.Null(violation);
        return profile!;
    }

    [Fact]
    public void Each_server_of_the_servers_csv_gets_its_jetstress_config_of_the_calculators_design()
    {
        string workbook = new CalculatorWorkbookFile().Save(_dir.Combine("E2013Calc.xlsm"));
        string work = _dir.Sub("work");

        var g = Run(work, "/g", "/calculator", workbook, "/servers", ServersCsvFile.Save(_dir.Combine("Servers.csv")), "/timeout", "2H0M0S");

        Assert.True(g.Exit == 0, g.Out + g.Err);
        foreach (string server in new[] { "srv-nn-01", "srv-nn-02", "srv-nn-03", "srv-nn-04" })
        {
            string path = Path.Combine(work, server, "JetstressConfig.xml");
            Assert.Contains($"Wrote {path}.", g.Out);
            var p = ReadBack(path);
            Assert.Equal((2500, 0.1608, 10890L, 4, 40), (p.MailboxCount, p.IopsPerMailbox, p.MailboxSizeMB, p.CopiesPerDatabase, p.DatabaseCount));
            Assert.Equal(402, p.TargetIops);
            Assert.Equal(@"C:\ExchangeDatabases\DAG-nn-DB01", p.DatabasePaths[0]);
            Assert.Equal(@"C:\ExchangeDatabases\DAG-nn-DB40", p.DatabasePaths[39]);
            Assert.Contains("<Duration>P0Y0M0DT2H0M0S</Duration>", File.ReadAllText(path));
        }
    }

    [Fact]
    public void Without_a_servers_csv_one_config_holds_the_calculators_databases_in_the_current_folder()
    {
        string workbook = new CalculatorWorkbookFile().Save(_dir.Combine("E2013Calc.xlsx"));
        string work = _dir.Sub("work");
        Assert.Equal(0, Run(work, "/g", "/calculator", workbook).Exit);
        var p = ReadBack(Path.Combine(work, "JetstressConfig.xml"));
        Assert.Equal(40, p.DatabaseCount);
        Assert.Equal(Path.Combine(work, "DB40"), p.DatabasePaths[39]);
    }

    [Fact]
    public void A_bad_workbook_is_refused_with_its_named_error_and_nothing_is_written()
    {
        var file = new CalculatorWorkbookFile();
        file.Role["C101"] = new ExcelError("#VALUE!");
        string workbook = file.Save(_dir.Combine("bad.xlsm"));
        string work = _dir.Sub("work");

        var g = Run(work, "/g", "/calculator", workbook, "/servers", ServersCsvFile.Save(_dir.Combine("Servers.csv")));

        Assert.Equal(2, g.Exit);
        Assert.StartsWith("JetstressCmd: CalculatorCellError: ", g.Err, StringComparison.Ordinal);
        Assert.Contains("'Role Requirements'!C101", g.Err);
        Assert.Empty(Directory.GetFileSystemEntries(work));
    }

    [Fact]
    public void A_config_g_did_not_write_is_left_as_it_is_and_no_server_gets_one()
    {
        string workbook = new CalculatorWorkbookFile().Save(_dir.Combine("E2013Calc.xlsm"));
        string work = _dir.Sub("work");
        string theirs = Path.Combine(_dir.Sub(Path.Combine("work", "srv-nn-03")), "JetstressConfig.xml");
        File.WriteAllText(theirs, "<configuration />");

        var g = Run(work, "/g", "/calculator", workbook, "/servers", ServersCsvFile.Save(_dir.Combine("Servers.csv")));

        Assert.Equal(2, g.Exit);
        Assert.StartsWith("JetstressCmd: FileExists: ", g.Err, StringComparison.Ordinal);
        Assert.Equal("<configuration />", File.ReadAllText(theirs));
        Assert.False(Directory.Exists(Path.Combine(work, "srv-nn-01")));
    }

    [Theory]
    [InlineData("/c", "x.xml", "/calculator", "design.xlsm")]
    [InlineData("/g", "/servers", "Servers.csv")]
    public void Calculator_switches_belong_to_g(params string[] args)
    {
        var ex = Assert.Throws<ExchStorageTest.Engine.Protocol.EngineException>(() => JetstressCommandLine.Parse(args));
        Assert.Equal(ErrorCodes.JetstressArgumentInvalid.Code, ex.Code);
    }

    public void Dispose() => _dir.Dispose();
}
