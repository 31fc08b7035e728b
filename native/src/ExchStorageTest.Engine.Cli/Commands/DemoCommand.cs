using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// The built-in default: a short Performance run of a small profile in a temporary folder on a real
/// disk, writing results and reports. What `build.ps1 Demo` runs; also usable without PowerShell.
/// Tuned automatically, as a user's first run would be: the report's Test Log shows the
/// step-down from 16 sessions and the think time that holds the load to the profile.
/// </summary>
internal static class DemoCommand
{
    public static EngineRequest BuildRequest(string? folder)
    {
        string root = folder ?? Path.Combine(TempRoot(), "ExchStorageTest-demo-" + DateTime.UtcNow.ToString("yyyyMMdd-HHmmss"));
        Directory.CreateDirectory(root);
        return new EngineRequest
        {
            Command = EngineCommands.Run,
            TestType = TestType.Performance,
            DurationSeconds = 30,
            SampleIntervalSeconds = 5,
            TuningSeconds = 20,
            OutputPath = Path.Combine(root, "Results"),
            Profile = new MailboxProfile
            {
                Name = "Demo",
                Description = "Built-in demo: 100 mailboxes x 0.5 IOPS, 10 MiB each, 2 databases",
                MailboxCount = 100,
                IopsPerMailbox = 0.5,
                MailboxSizeMB = 10,
                DatabaseCount = 2,
                DatabasePaths = new[] { root },
                MinimumDatabaseCacheMB = 8,
                MaximumDatabaseCacheMB = 32,
            },
        };
    }

    /// <summary>A temp folder that supports direct I/O: /tmp is often tmpfs on Linux, /var/tmp is on disk.</summary>
    private static string TempRoot()
    {
        if (!OperatingSystem.IsWindows() && Environment.GetEnvironmentVariable("TMPDIR") is null && Directory.Exists("/var/tmp"))
            return "/var/tmp";
        return Path.GetTempPath();
    }
}
