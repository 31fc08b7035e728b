using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>The platform pre-flight and the modelled Exchange as a reader of the reports sees them.</summary>
public class PlatformReportTests
{
    private static TestResults WithPlatform()
    {
        var r = ReportFixtures.Small();
        r.Environment.Platform = new PlatformReport
        {
            Sockets = 2, PhysicalCores = 16, LogicalProcessors = 32, Hypervisor = "VMware", PowerPolicy = "Balanced",
            Findings =
            {
                new Finding { Severity = Severities.Warning, Code = FindingCodes.PowerPolicyNotFullSpeed, Message = "The active power plan is Balanced." },
                new Finding { Severity = Severities.Info, Code = FindingCodes.Virtualised, Message = "The host is a virtual machine (VMware)." },
            },
        };
        return r;
    }

    [Fact]
    public void The_html_environment_shows_the_platform_and_its_findings_beside_the_volumes()
    {
        string html = HtmlReport.Render(WithPlatform());
        Assert.Contains(">Platform<", html);
        Assert.Contains(">Balanced<", html);
        Assert.Contains(">VMware<", html);
        Assert.Contains($">{ReportText.HostFindingPlace}<", html);
        Assert.Contains(">PowerPolicyNotFullSpeed<", html);
        Assert.DoesNotContain(">Platform<", HtmlReport.Render(ReportFixtures.Small()));
    }

    [Fact]
    public void The_text_report_lists_warnings_and_errors_but_not_information()
    {
        string text = TextReport.Render(WithPlatform());
        Assert.Contains("Platform findings", text);
        Assert.Contains($"Warning PowerPolicyNotFullSpeed ({ReportText.HostFindingPlace}): The active power plan is Balanced.", text);
        Assert.DoesNotContain("Virtualised", text);
    }

    [Fact]
    public void Every_report_says_which_exchange_was_modelled_and_an_old_results_file_reads_as_jetstress_s_model()
    {
        var r = ReportFixtures.Small();
        Assert.Contains("Exchange 2013/2016, Jetstress-compatible: active databases only", TextReport.Render(r));
        Assert.Contains("Exchange 2013/2016, Jetstress-compatible: active databases only", HtmlReport.Render(r));
        var old = System.Text.Json.JsonSerializer.Deserialize<TestResults>("{\"testId\":\"t\"}", ResultsFile.Options)!;
        Assert.Same(ModelledExchange.Jetstress, old.Exchange.Model());
        r.Exchange = ExchangeModelled.Of(ModelledExchange.PreferredArchitecture2019);
        Assert.Contains($"{ReportText.ExchangeModelledLabel}        Exchange 2019/SE, Preferred Architecture: active and passive copies per disk", TextReport.Render(r));
    }
}
