using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Tests.Capacity;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>Every renderer over small fixed results, compared byte for byte with reviewed golden files.</summary>
public class GoldenTests
{
    private static readonly ReportOptions Options = new() { PerformanceLogName = "Performance_2014_3_3_13_44_8.perfmon.csv" };

    /// <summary>A fixed zone, so the PDH-CSV golden file does not depend on the machine's zone.</summary>
    private static readonly TimeZoneInfo Pacific = TimeZoneInfo.CreateCustomTimeZone("Lab Standard Time", TimeSpan.FromHours(-8), "Lab Standard Time", "Lab Standard Time");

    [Theory]
    [InlineData(TestType.Performance)]
    [InlineData(TestType.DatabaseBackup)]
    [InlineData(TestType.SoftRecovery)]
    public void Text(TestType type) => GoldenFile.Check($"{type}.txt", TextReport.Render(ReportFixtures.Small(type), Options));

    [Theory]
    [InlineData(TestType.Performance)]
    [InlineData(TestType.DatabaseBackup)]
    [InlineData(TestType.SoftRecovery)]
    public void Html(TestType type) => GoldenFile.Check($"{type}.html", HtmlReport.Render(ReportFixtures.Small(type), Options));

    [Fact]
    public void Html_buffered_io() => GoldenFile.Check("Performance.buffered.html", HtmlReport.Render(ReportFixtures.Small(directIo: false), Options));

    [Theory]
    [InlineData(TestType.Performance)]
    [InlineData(TestType.DatabaseBackup)]
    [InlineData(TestType.SoftRecovery)]
    public void Xml(TestType type) => GoldenFile.Check($"{type}.xml", XmlReport.Render(ReportFixtures.Small(type), Options));

    [Fact]
    public void Csv() => GoldenFile.Check("Performance.timeseries.csv", CsvReport.Render(ReportFixtures.Small()));

    [Fact]
    public void PdhCsv() => GoldenFile.Check("Performance.perfmon.csv", PdhCsvLog.Render(ReportFixtures.Small(), Pacific));

    [Fact]
    public void Esrp() => GoldenFile.Check("Esrp.txt", EsrpSummary.From(
        new[] { ReportFixtures.Js13(), ReportFixtures.Js14() },
        supplied: new Dictionary<string, string> { ["Number of Database Availability Groups (DAGs)"] = "1" }).RenderText());

    [Fact]
    public void EsrpHtml()
    {
        var suite = EsrpSuite.From(new[]
        {
            ReportFixtures.Js13(), ReportFixtures.Js14(),
            ReportFixtures.Backup("JS13", ("Instance3148.1", 448921.09, 5142, 87.29), ("Instance3148.2", 448905.09, 5586, 80.36)),
            ReportFixtures.SoftRecovery("JS13", ("Instance3376.1", 501, 1436.0856165), ("Instance3376.2", 505, 1497.0827895)),
        });
        GoldenFile.Check("Esrp.html", EsrpDocument.RenderHtml(suite, EsrpSummary.From(suite), "Contoso 4,500 Mailbox Resiliency Storage Solution", r => $"{r.TestType}_{r.Environment.MachineName}.html"));
    }

    [Fact]
    public void MergedText()
    {
        var a = ReportFixtures.Small();
        var b = ReportFixtures.Small(directIo: false);
        b.Environment.MachineName = "LAB02";
        GoldenFile.Check("Merged.txt", TextReport.Render(ResultsMerge.Merge(new[] { a, b })));
    }

    [Fact]
    public void Comparison() => GoldenFile.Check("Comparison.txt",
        RunComparison.Compare(new[] { ReportFixtures.Js13(), ReportFixtures.Js14() }, new[] { "JS13", "JS14" }).RenderText());

    /// <summary>The comparison page over runs with time series and histograms, so its charts are in it too.</summary>
    [Fact]
    public void ComparisonHtml() => GoldenFile.Check("Comparison.html", Engine.Reports.ComparisonHtml.Render(
        RunComparison.Compare(new[] { ReportFixtures.Small(), ReportFixtures.Small(directIo: false) }, new[] { "Direct", "Buffered" })));

    [Fact]
    public void DeploymentCapacityHtml() => GoldenFile.Check("DeploymentCapacity.html", Engine.Reports.DeploymentCapacityHtml.Render(ResultsMerge.Merge(new[]
    {
        CapacityDeploymentReportTests.Host(ReportFixtures.Js13(), CapacityDeploymentReportTests.StrongHost),
        CapacityDeploymentReportTests.Host(ReportFixtures.Js14(), CapacityDeploymentReportTests.WeakHost),
    })));
}
