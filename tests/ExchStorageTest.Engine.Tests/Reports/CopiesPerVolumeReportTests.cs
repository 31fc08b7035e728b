using ExchStorageTest.Engine.Reports;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>
/// Where the reports print which Exchange was modelled, a run with passive copies on its volumes also says how many copies
/// each volume carried; a run of the Jetstress model prints no such row (its reports stay as they were).
/// </summary>
public class CopiesPerVolumeReportTests
{
    private static Results.TestResults PreferredArchitecture()
    {
        var r = ReportFixtures.Small();
        r.Profile.CopiesPerDatabase = 4;
        r.Profile.CopiesPerVolume = 4;
        r.Profile.LaggedCopiesPerVolume = 1;
        r.Exchange = Results.ExchangeModelled.Of(ModelledExchange.PreferredArchitecture2019);
        return r;
    }

    [Fact]
    public void The_test_summary_and_the_html_report_say_the_copies_per_volume_beside_the_modelled_Exchange()
    {
        var r = PreferredArchitecture();
        var rows = ReportText.TestSummary(r, ReportOptions.Default).ToList();
        int exchange = rows.FindIndex(x => x.Label == ReportText.ExchangeModelledLabel);
        Assert.Equal((ReportText.CopiesPerVolumeLabel, "4 (1 active, 3 passive, 1 of them lagged)"), rows[exchange + 1]);
        Assert.Contains("4 (1 active, 3 passive, 1 of them lagged)", HtmlReport.Render(r));
    }

    [Fact]
    public void The_esrp_table_says_the_copies_per_volume_after_the_modelled_Exchange()
    {
        var items = EsrpDeployment.Tables(new[] { PreferredArchitecture() }, new Dictionary<string, string>())
            .First(t => t.Title == "Simulated Exchange Configuration").Items.ToList();
        int exchange = items.FindIndex(i => i.Label == ReportText.ExchangeModelledLabel);
        Assert.Equal(ReportText.CopiesPerVolumeLabel, items[exchange + 1].Label);
    }

    [Fact]
    public void A_Jetstress_model_run_prints_no_copies_row()
    {
        var r = ReportFixtures.Small();
        Assert.Null(ReportText.CopiesPerVolume(r.Profile));
        Assert.DoesNotContain(ReportText.TestSummary(r, ReportOptions.Default), x => x.Label == ReportText.CopiesPerVolumeLabel);
        Assert.DoesNotContain(EsrpDeployment.Tables(new[] { r }, new Dictionary<string, string>()).SelectMany(t => t.Items), i => i.Label == ReportText.CopiesPerVolumeLabel);
        // Two active copies on a volume of four: one passive beside each.
        r.Profile.CopiesPerDatabase = 2;
        r.Profile.CopiesPerVolume = 4;
        r.Profile.ActiveCopiesPerVolume = 2;
        Assert.Equal("4 (2 active, 2 passive)", ReportText.CopiesPerVolume(r.Profile));
    }
}
