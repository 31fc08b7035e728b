namespace ExchStorageTest
{
    /// <summary>A scheduled storage test as Register-StorageTestTask registered it (PSTypeName ExchStorageTest.ScheduledTest).</summary>
    public sealed class ScheduledTest
    {
        public string Name { get; set; } = "";
        /// <summary>Windows (Task Scheduler) or Linux (systemd timer).</summary>
        public string Platform { get; set; } = "";
        /// <summary>"Daily at 01:00", "Weekly on Saturday at 20:00", "Once at 2024-06-01 02:00" (local time).</summary>
        public string Schedule { get; set; } = "";
        /// <summary>The account the test runs as: SYSTEM / root, or the -Credential user.</summary>
        public string Account { get; set; } = "";
        public string ProfilePath { get; set; } = "";
        public string OutputPath { get; set; } = "";
        public string RunnerScript { get; set; } = "";
        /// <summary>Windows: \ExchStorageTest\.</summary>
        public string? TaskPath { get; set; }
        /// <summary>Windows: the registered task (Register-ScheduledTask's output).</summary>
        public object? Task { get; set; }
        /// <summary>Linux: the service unit file.</summary>
        public string? ServiceUnit { get; set; }
        /// <summary>Linux: the timer unit file.</summary>
        public string? TimerUnit { get; set; }

        public override string ToString() => $"{Name} ({Schedule})";
    }
}
