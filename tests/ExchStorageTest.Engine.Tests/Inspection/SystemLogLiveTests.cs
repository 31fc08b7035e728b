using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.SystemLog;

namespace ExchStorageTest.Engine.Tests.Inspection;

public class SystemLogLiveTests
{
    [Fact]
    public void Collects_this_hosts_kernel_log_for_a_window_when_readable()
    {
        if (!OperatingSystem.IsLinux()) return;
        var to = DateTime.UtcNow;
        var from = to.AddDays(-30);
        var events = SystemLogCheck.CollectLinux(from, to);
        // Either source may be absent in a container (no journald, /dev/kmsg restricted): then null, never a throw.
        if (events == null)
        {
            Assert.False(File.Exists("/dev/kmsg") && System.Environment.IsPrivilegedProcess && File.Exists("/proc/uptime") && CanOpen("/dev/kmsg"),
                "kmsg is readable, so CollectLinux should have returned events");
            return;
        }
        Assert.All(events, e => Assert.InRange(e.TimeUtc, from.AddMinutes(-5), to.AddMinutes(5)));
        // The kernel has logged since boot (its version banner at least) and boot is within 30 days here.
        double uptime = double.Parse(File.ReadAllText("/proc/uptime").Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
        if (uptime < TimeSpan.FromDays(29).TotalSeconds && CanOpen("/dev/kmsg")) Assert.NotEmpty(events);
    }

    private static bool CanOpen(string path)
    {
        try
        {
            using var f = new FileStream(path, FileMode.Open, FileAccess.Read);
            return true;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
