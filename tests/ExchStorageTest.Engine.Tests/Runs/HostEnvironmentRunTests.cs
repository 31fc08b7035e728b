using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Engine.Tests.Runs;

/// <summary>Every run records the volumes under its paths, host counters over the window and the system-log check.</summary>
public class HostEnvironmentRunTests
{
    [Fact]
    public void A_run_records_volumes_host_counters_and_the_system_log_check()
    {
        using var folder = new TestFolder("hostenv");
        var request = folder.Request(TestType.Performance, seconds: 3, databases: 1, copies: 1);
        request.WarmupSeconds = 0.5;
        var r = TestRunner.Run(TestPlanner.Plan(request), EventWriter.Null, CancellationToken.None);

        Assert.Equal("Complete", r.Completion);
        var db = Assert.Single(r.Environment.Volumes, v => v.Path == TestPlanner.Plan(request).Instances[0].DatabaseFolder);
        Assert.False(string.IsNullOrEmpty(db.FileSystem));
        Assert.NotEmpty(db.Findings);
        Assert.NotNull(r.Environment.StorageSoftware);
        // The findings agree with the run: files opened unbuffered prove direct I/O.
        Assert.True(r.Environment.DirectIo);
        foreach (var v in r.Environment.Volumes)
        {
            Assert.True(v.DirectIoSupported, $"{v.Path}: the run used direct I/O there, yet the volume says {v.DirectIoSupported?.ToString() ?? "not probed"}.");
            Assert.DoesNotContain(v.Findings, f => f.Code == "DirectIoNotProbed");
        }
        if (OperatingSystem.IsLinux())
        {
            Assert.Contains(r.HostCounters, c => c.Name == "% Processor Time" && c.Samples >= 2);
            Assert.Contains(r.HostCounters, c => c.Name == "Available MBytes" && c.Average > 0);
        }
        Assert.NotNull(r.SystemLog);
        Assert.Equal(r.Timeline.TestStartUtc, r.SystemLog!.FromUtc);
        Assert.Contains(r.TestLog, l => l.Message.StartsWith("System log check", StringComparison.Ordinal) || l.Message.StartsWith("The system log could not be read", StringComparison.Ordinal));
    }
}
