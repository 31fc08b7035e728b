namespace ExchStorageTest.Engine.Results;

/// <summary>System-log entries of the test window; <see cref="Checked"/> false when no log could be read.</summary>
public sealed class SystemLogReport
{
    public bool Checked { get; set; }
    /// <summary>Where the entries came from: "journalctl -k", "/dev/kmsg" or "Windows System/Application".</summary>
    public string Source { get; set; } = "";
    public DateTime FromUtc { get; set; }
    public DateTime ToUtc { get; set; }
    public List<SystemLogEntry> Events { get; set; } = new();
    /// <summary>
    /// The kernel names (and major:minor) of the devices under the test's folders, which storage errors are judged
    /// against; empty when they are not known (Windows), and then every storage error counts.
    /// </summary>
    public List<string> Devices { get; set; } = new();
    /// <summary>Storage errors the verdict counts: on the test's devices, or naming no device (they may be the test's).</summary>
    public int StorageErrorCount => Events.Count(e => e.Judged);
    /// <summary>Storage errors of other devices: listed as information, not judged.</summary>
    public int OtherDeviceStorageErrorCount => Events.Count(e => e.IsStorageError && e.OtherDevice);
}
