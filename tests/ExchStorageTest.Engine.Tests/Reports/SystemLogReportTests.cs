using ExchStorageTest.Engine.Verdict;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

public class SystemLogReportTests
{
    [Fact]
    public void Storage_errors_in_the_system_log_appear_in_text_and_html()
    {
        var r = ReportFixtures.Js13();
        r.SystemLog = new SystemLogReport
        {
            Checked = true,
            Source = "kernel log",
            Events =
            {
                new SystemLogEntry { TimeUtc = ReportFixtures.Start.AddMinutes(5), Provider = "kernel", Level = "Error", Message = "blk_update_request: I/O error, dev sdb, sector 2048", IsStorageError = true, Device = "sdb" },
                new SystemLogEntry { TimeUtc = ReportFixtures.Start.AddMinutes(6), Provider = "kernel", Level = "Error", Message = "usb 1-1: descriptor read error", IsStorageError = false },
            },
        };
        string text = TextReport.Render(r);
        Assert.Contains("System log: 1 storage error in the test window (kernel log).", text);
        Assert.Contains("blk_update_request: I/O error, dev sdb", text);
        Assert.DoesNotContain("usb 1-1", text);
        string html = HtmlReport.Render(r);
        Assert.Contains("blk_update_request: I/O error, dev sdb, sector 2048", html);
    }

    [Fact]
    public void Another_devices_storage_errors_are_listed_as_information_and_do_not_fail_the_run()
    {
        var r = ReportFixtures.Js13();
        var verdictBefore = VerdictJudge.Judge(r, r.Settings.Thresholds);
        r.SystemLog = new SystemLogReport
        {
            Checked = true,
            Source = "kernel log",
            Devices = { "sdb", "8:16" },
            Events =
            {
                new SystemLogEntry { TimeUtc = ReportFixtures.Start.AddMinutes(5), Provider = "kernel", Level = "Error", Message = "I/O error, dev loop0, sector 2048", IsStorageError = true, Device = "loop0", OtherDevice = true },
            },
        };
        Assert.Equal(0, r.SystemLog.StorageErrorCount);
        Assert.Equal(verdictBefore.Reasons.Select(x => x.Code), VerdictJudge.Judge(r, r.Settings.Thresholds).Reasons.Select(x => x.Code));
        string text = TextReport.Render(r);
        Assert.Contains("System log: no storage errors in the test window (kernel log; 0 other error entries). 1 storage error on devices that hold none of the test's folders, listed for information, not judged.", text);
        Assert.Contains("I/O error, dev loop0, sector 2048 (another device: not judged)", text);
        Assert.Contains("no: another device", HtmlReport.Render(r));
    }

    [Fact]
    public void An_unreadable_log_is_reported_as_not_checked_rather_than_clean()
    {
        var r = ReportFixtures.Js13();
        r.SystemLog = new SystemLogReport { Checked = false };
        Assert.Contains("could not be read", TextReport.Render(r));
    }
}
