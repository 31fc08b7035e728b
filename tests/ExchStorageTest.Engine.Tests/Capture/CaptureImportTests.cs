using System.Text;
using ExchStorageTest.Engine.Calculator;
using ExchStorageTest.Engine.Capture;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Tests.Calculator;

namespace ExchStorageTest.Engine.Tests.Capture;

/// <summary>
/// PerfMon captures as relog writes them (the committed fixtures under Fixtures/Capture follow docs/capture.md byte
/// for byte: CRLF, every cell quoted, the first rate sample blank, the ESE object's _Total, a sub-instance and
/// edgetransport's instance beside the databases'): four servers in one CSV, a German relog, a TSV; the busiest hour
/// and every figure as the docs derive them; and each bad capture's named refusal. The bad ones are the good fixtures
/// with one thing changed, so each refusal is about that one thing.
/// </summary>
public class CaptureImportTests : IDisposable
{
    private readonly TestFolder _dir = new("capture");

    public void Dispose() => _dir.Dispose();

    internal static string Fixture(string name) => Path.Combine(AppContext.BaseDirectory, "Fixtures", "Capture", name);

    private static CaptureImport Read(CaptureImport.Options? options = null, params string[] paths) =>
        CaptureImport.Read(paths.Length == 0 ? new[] { Fixture("ex01-ex04.csv") } : paths, options ?? new CaptureImport.Options(GrowthFactor: 1.3));

    [Fact]
    public void Four_servers_busiest_hour_is_10_to_11_with_4008_database_IOPS_and_the_target_is_1_3x_it()
    {
        var import = Read();
        var c = import.Profile.Capture!;

        Assert.Equal(new[] { "EX01", "EX02", "EX03", "EX04" }, c.Servers);
        Assert.Equal(("2026-11-02 10:00", "2026-11-02 11:00", false), (c.WindowStart, c.WindowEnd, c.WindowNamed));
        Assert.Equal("10:00-11:00 on 2026-11-02", c.WindowText());
        Assert.Equal("Pacific Standard Time", c.TimeZone);
        // 2 x 550 + 2 x 500 + 2 x 479 + 2 x 475: the databases' own instances only (the _Total, the sub-instance and edgetransport left out).
        Assert.Equal(4008, c.DatabaseIops, 3);
        Assert.Equal(4008 * 0.6, c.DatabaseReadsPerSecond, 3);
        Assert.Equal(4008 * 0.4, c.DatabaseWritesPerSecond, 3);
        Assert.Equal(5210.4, c.TargetIops, 3);
        Assert.Equal(5210.4, c.TestedIops, 3);
        Assert.Equal(0, c.CalculatorIops);
        Assert.Equal(9.8, c.ReadLatencyMs, 3);
        Assert.Equal(2.1, c.LogWriteLatencyMs, 3);
        Assert.Equal((32768.0, 36864.0), (c.ReadBytes, c.WriteBytes));
        Assert.Equal(8 * 12.0, c.RecoveryReadsPerSecond, 3);
        Assert.Equal(4008 / 14.0, c.LogWritesPerSecond, 1);
        Assert.Equal(4000, c.ActiveMailboxes);

        var p = import.Profile;
        Assert.Equal(1000, p.MailboxCount);
        Assert.Equal(1302.6, p.TargetIops, 3);
        Assert.Equal(0, p.HeadroomPercent);
        Assert.Equal(2, p.DatabaseCount);
        Assert.Equal("EX01-EX04 capture", p.Name);
        Assert.Contains(import.Derivation, l => l.StartsWith("Busiest hour of EX01-EX04: 10:00-11:00 on 2026-11-02 (Pacific Standard Time): 4008 attached database IOPS", StringComparison.Ordinal));
        Assert.Contains(import.Derivation, l => l.Contains("DB05: 479 IOPS (287.4 r, 191.6 w) at 9.8 ms read", StringComparison.Ordinal));
        Assert.Contains(import.Derivation, l => l.StartsWith("Target: 4008 x 1.3 (growth factor) = 5210.4 database IOPS for 4 servers, 1302.6 per server.", StringComparison.Ordinal));
        Assert.Contains(import.Derivation, l => l.Contains("1000 mailboxes per server (from the capture's Active mailboxes (4000 on 4 servers))", StringComparison.Ordinal));
    }

    [Fact]
    public void The_default_growth_factor_is_the_calculators_20_percent_and_the_derivation_says_so()
    {
        var import = Read(new CaptureImport.Options());
        Assert.Equal(1.2, import.Profile.Capture!.GrowthFactor);
        Assert.Equal(4809.6, import.Profile.Capture.TargetIops, 3);
        Assert.Contains(import.Derivation, l => l.Contains("the default: the calculator's 20% I/O overhead", StringComparison.Ordinal));
    }

    [Fact]
    public void A_German_relog_with_day_first_dates_comma_decimals_and_an_ANSI_zone_name_reads_the_same_figures()
    {
        var import = Read(null, Fixture("de-de.csv"));
        var c = import.Profile.Capture!;
        Assert.Equal("Mitteleuropäische Zeit", c.TimeZone);
        Assert.Equal(("2026-11-03 10:00", "2026-11-03 11:00"), (c.WindowStart, c.WindowEnd));
        Assert.Equal(300.5 + 250.25, c.DatabaseIops, 3);
        Assert.Equal(750, c.ActiveMailboxes);
        Assert.Contains(import.Derivation, l => l.Contains("read as de-DE", StringComparison.Ordinal));
    }

    [Fact]
    public void A_TSV_relog_reads_as_the_CSV_does()
    {
        var c = Read(null, Fixture("ex07.tsv")).Profile.Capture!;
        Assert.Equal(new[] { "EX07" }, c.Servers);
        Assert.Equal(("2026-11-04 13:15", "2026-11-04 14:15"), (c.WindowStart, c.WindowEnd));
        Assert.Equal(400, c.DatabaseIops, 3);
    }

    [Fact]
    public void Several_files_of_one_capture_read_as_one()
    {
        string first = Columns("ex01-ex04.csv", "a.csv", h => h.Contains(@"\\EX01\") || h.Contains(@"\\EX02\"));
        string second = Columns("ex01-ex04.csv", "b.csv", h => h.Contains(@"\\EX03\") || h.Contains(@"\\EX04\"));
        var c = Read(null, first, second).Profile.Capture!;
        Assert.Equal(new[] { "a.csv", "b.csv" }, c.Captures);
        Assert.Equal(4008, c.DatabaseIops, 3);
        Assert.Equal("2026-11-02 10:00", c.WindowStart);
    }

    [Fact]
    public void A_named_shorter_window_is_measured_as_named()
    {
        var c = Read(new CaptureImport.Options(1.3, new DateTime(2026, 11, 2, 9, 30, 0), 30)).Profile.Capture!;
        Assert.True(c.WindowNamed);
        Assert.Equal(("2026-11-02 09:30", "2026-11-02 10:00"), (c.WindowStart, c.WindowEnd));
        Assert.Equal(4008 / 2.0, c.DatabaseIops, 3);
    }

    [Fact]
    public void With_the_calculators_design_both_targets_are_kept_and_the_higher_tested()
    {
        string workbook = new CalculatorWorkbookFile().Save(_dir.Combine("E2013Calc.xlsm"));
        // EX07: 400 database IOPS x 1.0 = 400, below the calculator's 402 per server: the design is tested.
        var import = Read(new CaptureImport.Options(1.0, CalculatorPath: workbook), Fixture("ex07.tsv"));
        var c = import.Profile.Capture!;
        Assert.Equal((400.0, 402.0, 402.0), (c.TargetIops, c.CalculatorIops, c.TestedIops));
        Assert.Equal(402, import.Profile.TargetIops, 3);
        Assert.Equal(402, import.Profile.Calculator!.DatabaseIops);
        Assert.Contains(import.Derivation, l => l.Contains("the calculator's is higher and is tested", StringComparison.Ordinal));

        // x 1.2 = 480, above it: the capture's is tested on the design's mailboxes.
        var higher = Read(new CaptureImport.Options(1.2, CalculatorPath: workbook), Fixture("ex07.tsv"));
        Assert.Equal(480, higher.Profile.TargetIops, 3);
        Assert.Equal(2500, higher.Profile.MailboxCount);
        Assert.Contains(higher.Derivation, l => l.Contains("the capture's is higher and is tested", StringComparison.Ordinal));
    }

    [Fact]
    public void Without_Active_mailboxes_the_mailbox_count_must_be_given()
    {
        string path = Columns("ex07.tsv", "nombx.tsv", h => !h.Contains("Active mailboxes"));
        Refused(ErrorCodes.CaptureFigureMissing, "-MailboxCount", path);
        var p = Read(new CaptureImport.Options(1.2, MailboxCount: 800), path).Profile;
        Assert.Equal((800, 480.0), (p.MailboxCount, p.TargetIops));
    }

    [Fact]
    public void A_file_that_is_not_a_capture_is_refused()
    {
        string path = _dir.Combine("notes.csv");
        File.WriteAllText(path, "Name,Size\r\nDB01,100\r\n");
        Refused(ErrorCodes.CaptureNotPerfmon, "'Name'", path);
        Refused(ErrorCodes.CaptureNotFound, "does not exist", _dir.Combine("missing.csv"));
    }

    [Fact]
    public void A_blg_off_Windows_is_refused_saying_how_to_relog_it()
    {
        if (OperatingSystem.IsWindows()) return; // Windows reads it through PDH: no capture .blg is committed to read (docs/capture.md).
        string path = _dir.Combine("EX01.blg");
        File.WriteAllBytes(path, new byte[] { 0x4C, 0x6F, 0x67, 0x20 });
        Refused(ErrorCodes.CaptureNotPerfmon, "relog \"EX01.blg\" -f csv -o capture.csv", path);
    }

    [Fact]
    public void A_capture_without_Exchange_database_counters_is_refused()
    {
        string path = Columns("ex01-ex04.csv", "disk.csv", h => h.Contains("LogicalDisk"));
        Refused(ErrorCodes.CaptureNoDatabaseCounters, "no 'MSExchange Database ==> Instances' object", path);
    }

    [Fact]
    public void A_server_missing_a_required_counter_is_refused_naming_server_database_and_counter()
    {
        string path = Columns("ex01-ex04.csv", "gap.csv", h => h != @"\\EX03\MSExchange Database ==> Instances(Information Store - DB05/_Total)\I/O Database Reads (Attached) Average Latency");
        Refused(ErrorCodes.CaptureCountersMissing, @"'\\EX03\MSExchange Database ==> Instances(Information Store - DB05/_Total)\I/O Database Reads (Attached) Average Latency'", path);

        string noDatabases = Columns("ex01-ex04.csv", "nodb.csv", h => !h.StartsWith(@"\\EX02\MSExchange Database", StringComparison.Ordinal));
        Refused(ErrorCodes.CaptureCountersMissing, "server 'EX02' has no Exchange database counters", noDatabases);
    }

    [Fact]
    public void A_capture_shorter_than_an_hour_is_refused_unless_a_shorter_window_is_named()
    {
        string path = Rows("ex07.tsv", "short.tsv", lines => lines.Take(41));
        Refused(ErrorCodes.CaptureTooShort, "server 'EX07' has 40 samples from 2026-11-04 13:00:00 to 2026-11-04 13:39:00, 39 minutes", path);
        var c = Read(new CaptureImport.Options(1.2, new DateTime(2026, 11, 4, 13, 0, 0), 30), path).Profile.Capture!;
        Assert.Equal("2026-11-04 13:30", c.WindowEnd);
        Refused(ErrorCodes.CaptureValueInvalid, "another length needs its start named", path, new CaptureImport.Options(1.2, null, 30));
    }

    [Fact]
    public void Comma_decimals_in_a_capture_whose_dates_are_en_US_are_refused_naming_the_cell()
    {
        string path = Rows("ex07.tsv", "mixed.tsv", lines => lines.Select((l, i) => i == 5 ? l.Replace("\"6.5\"", "\"6,5\"") : l));
        Refused(ErrorCodes.CaptureValueInvalid, "'6,5' in row 6", path);
    }

    [Fact]
    public void A_clock_set_back_as_the_autumn_change_does_is_refused_naming_the_rows()
    {
        // 13:30 to 13:59 again after 13:59: the repeated hour of a change back to standard time.
        string path = Rows("ex07.tsv", "dst.tsv", lines => lines.Select((l, i) => i >= 61 ? l.Replace("11/04/2026 14:", "11/04/2026 13:") : l));
        Refused(ErrorCodes.CaptureClockChanged, "goes back in time from row 61 (2026-11-04 13:59:00) to row 62 (2026-11-04 13:00:00)", path);
    }

    [Fact]
    public void A_skipped_hour_is_a_gap_no_window_spans()
    {
        // The spring change: 13:30 is followed by 14:31 (the rows after shifted an hour on), so no hour is covered whole.
        string path = Rows("ex07.tsv", "spring.tsv", lines => lines.Select((l, i) => i >= 32 ? ShiftHour(l) : l));
        Refused(ErrorCodes.CaptureTooShort, "with a gap of 61 minutes", path);
    }

    private static string ShiftHour(string line)
    {
        string time = line.Substring(1, 23);
        var t = DateTime.ParseExact(time, "MM/dd/yyyy HH:mm:ss.fff", System.Globalization.CultureInfo.InvariantCulture).AddHours(1);
        return "\"" + t.ToString("MM/dd/yyyy HH:mm:ss.fff", System.Globalization.CultureInfo.InvariantCulture) + line.Substring(24);
    }

    private void Refused(ErrorCode code, string text, string path, CaptureImport.Options? options = null)
    {
        var e = Assert.Throws<EngineException>(() => CaptureImport.Read(new[] { path }, options ?? new CaptureImport.Options()));
        Assert.Equal(code.Code, e.Code);
        Assert.Contains(text, e.Message, StringComparison.Ordinal);
    }

    /// <summary>The fixture with only the counter columns <paramref name="keep"/> takes (the time column always), written as it was.</summary>
    private string Columns(string fixture, string name, Func<string, bool> keep)
    {
        bool tsv = fixture.EndsWith(".tsv", StringComparison.Ordinal);
        char separator = tsv ? '\t' : ',';
        var lines = File.ReadAllText(Fixture(fixture)).Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        var header = PerfmonCsv.Cells(lines[0], separator);
        var kept = Enumerable.Range(0, header.Count).Where(i => i == 0 || keep(header[i])).ToList();
        var text = new StringBuilder();
        foreach (string line in lines)
        {
            var cells = PerfmonCsv.Cells(line, separator);
            text.Append(string.Join(separator, kept.Select(i => "\"" + cells[i] + "\""))).Append("\r\n");
        }
        string path = _dir.Combine(name);
        File.WriteAllText(path, text.ToString());
        return path;
    }

    private string Rows(string fixture, string name, Func<IEnumerable<string>, IEnumerable<string>> change)
    {
        var lines = File.ReadAllText(Fixture(fixture)).Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        string path = _dir.Combine(name);
        File.WriteAllText(path, string.Join("\r\n", change(lines)) + "\r\n");
        return path;
    }
}
