using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.SystemLog;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Inspection;

public class SystemLogTests
{
    private static readonly DateTime From = DateTime.UnixEpoch.AddSeconds(1763776800);
    private static readonly DateTime To = From.AddSeconds(10);

    [Fact]
    public void Journal_json_storage_errors_in_window()
    {
        var events = KernelLogParser.ParseJournalJson(EnvFixtures.Text("journal-kernel.json"), From, To);
        Assert.Equal(7, events.Count);
        Assert.False(events[0].IsStorageError);
        Assert.Equal("Information", events[0].Level);
        Assert.Equal(From, events[0].TimeUtc);

        var errs = events.Where(e => e.IsStorageError).ToList();
        Assert.Equal(6, errs.Count);
        Assert.Equal(new string?[] { "sdb", "sdb1", "sdc1", null, "sdd", "8:32" }, errs.Select(e => e.Device));
        Assert.Equal("Error", errs[0].Level);
        Assert.Equal("Critical", errs[2].Level);
        Assert.Equal("ntfs-3g", errs[3].Provider);
        Assert.Equal("ntfs-3g I/O error", errs[3].Reason);
        Assert.Equal("I/O error, dev sdd, sector 9", errs[4].Message); // MESSAGE stored as a byte array
        Assert.Equal("multipath path failure", errs[5].Reason);
    }

    [Fact]
    public void Journal_without_window_keeps_everything()
    {
        Assert.Equal(8, KernelLogParser.ParseJournalJson(EnvFixtures.Text("journal-kernel.json")).Count);
    }

    [Fact]
    public void Kmsg_records_with_boot_time_anchor()
    {
        var boot = new DateTime(2026, 11, 22, 0, 0, 0, DateTimeKind.Utc);
        var events = KernelLogParser.ParseKmsg(EnvFixtures.Text("kmsg.txt"), boot);
        Assert.Equal(5, events.Count); // continuation lines skipped
        Assert.Equal(boot.AddSeconds(5.1409), events[0].TimeUtc);
        Assert.Equal(new[] { false, true, true, true, false }, events.Select(e => e.IsStorageError));
        Assert.Equal("sdb", events[1].Device);
        Assert.Equal("SCSI command failed", events[2].Reason);
        Assert.Equal("sdb1", events[3].Device);
        Assert.Equal("Warning", events[3].Level);
        Assert.Equal(2, KernelLogParser.ParseKmsg(EnvFixtures.Text("kmsg.txt"), boot, boot.AddSeconds(6), boot.AddSeconds(7.5)).Count);
    }

    [Theory]
    [InlineData("blk_update_request: I/O error, dev sdb, sector 123", true)]
    [InlineData("Buffer I/O error on dev dm-3, logical block 7", true)]
    [InlineData("EXT4-fs error (device sda1): ext4_journal_check_start:83: comm x", true)]
    [InlineData("EXT4-fs (sda1): mounted filesystem", false)]
    [InlineData("usb 1-1: new high-speed USB device number 2", false)]
    [InlineData("nvme nvme0: I/O 123 QID 4 timeout, aborting", true)]
    public void Kernel_classifier(string message, bool storage) =>
        Assert.Equal(storage, KernelLogClassifier.Classify(message) != null);

    [Fact]
    public void Windows_events_ps7_classified_and_windowed()
    {
        var from = new DateTime(2026, 11, 22, 1, 0, 0, DateTimeKind.Utc);
        var events = WindowsEventParser.Parse(EnvFixtures.Text("winevents-ps7.json"), from, from.AddHours(1));
        Assert.Equal(6, events.Count);
        Assert.Equal(new[] { true, true, false, true, true, false }, events.Select(e => e.IsStorageError));
        Assert.Equal("I/O retried (miniport timeout)", events[0].Reason);
        Assert.Equal(153, events[0].EventId);
        Assert.Equal("Warning", events[0].Level);
        Assert.Equal(new DateTime(2026, 11, 22, 1, 10, 0, DateTimeKind.Utc), events[0].TimeUtc);
        Assert.Equal("Error", events[5].Level); // a non-storage Error is still reported (ESRP reliability rule)
    }

    [Fact]
    public void Windows_event_ps51_single_object_and_date_format()
    {
        var e = Assert.Single(WindowsEventParser.Parse(EnvFixtures.Text("winevents-ps51.json")));
        Assert.Equal(DateTime.UnixEpoch.AddMilliseconds(1763773800000), e.TimeUtc);
        Assert.True(e.IsStorageError);
        Assert.Equal("controller error", e.Reason);
        Assert.Empty(WindowsEventParser.Parse(""));
        Assert.Equal("InvalidEventJson", Assert.Throws<EngineException>(() => WindowsEventParser.Parse("[")).Code);
    }

    [Theory]
    [InlineData("disk", 7, true)]
    [InlineData("disk", 9, true)]
    [InlineData("disk", 11, true)]
    [InlineData("disk", 15, true)]
    [InlineData("disk", 51, true)]
    [InlineData("disk", 153, true)]
    [InlineData("disk", 157, true)]
    [InlineData("disk", 8, false)]
    [InlineData("storport", 129, true)]
    [InlineData("stornvme", 129, true)]
    [InlineData("Microsoft-Windows-Time-Service", 129, false)]
    [InlineData("Ntfs", 55, true)]
    [InlineData("Microsoft-Windows-Ntfs", 98, true)]
    [InlineData("Ntfs", 57, false)]
    [InlineData("mpio", 16, true)]
    [InlineData("mpio", 17, true)]
    [InlineData("mpio", 20, true)]
    [InlineData("mpio", 22, true)]
    [InlineData("mpio", 23, true)]
    [InlineData("mpio", 32, true)]
    [InlineData("mpio", 1, false)]
    public void Windows_classifier(string provider, int id, bool storage) =>
        Assert.Equal(storage, WindowsEventParser.Classify(provider, id) != null);
}
