using System.Text.RegularExpressions;

namespace ExchStorageTest.Engine.Inspection.SystemLog;

/// <summary>
/// Recognises kernel (and ntfs-3g) messages that mean an I/O failed. A storage error fails the run's
/// reliability check whatever its priority, as Jetstress fails on any I/O error.
/// </summary>
public static partial class KernelLogClassifier
{
    private static readonly (Regex Pattern, string Reason)[] Rules =
    {
        (BlockIoError(), "block layer I/O error"),
        (BufferIoError(), "buffer I/O error"),
        (FsError(), "file system error"),
        (XfsIoError(), "XFS I/O error"),
        (ScsiFailed(), "SCSI command failed"),
        (NtfsIoError(), "ntfs-3g I/O error"),
        (MultipathFailing(), "multipath path failure"),
        (NvmeError(), "NVMe error"),
    };

    /// <summary>
    /// Returns (reason, device, file system) when the message is a storage failure, else null. The file system
    /// (ext4, btrfs, f2fs, ntfs3) is named for a file-system error, so one that names no device can still be told
    /// apart from the test's volumes by the file system they use.
    /// </summary>
    public static (string Reason, string? Device, string? FileSystem)? Classify(string message)
    {
        // "EXT4-fs error: 800 callbacks suppressed" is printk's rate limit counting lines it did not print; the
        // lines it did print (each naming its device) were counted, so the summary is not an error of its own.
        if (message.Contains("callbacks suppressed", StringComparison.Ordinal)) return null;
        foreach (var (pattern, reason) in Rules)
        {
            var m = pattern.Match(message);
            if (!m.Success) continue;
            string? device = m.Groups["dev"].Success && m.Groups["dev"].Value.Length > 0 ? m.Groups["dev"].Value : null;
            string? fileSystem = m.Groups["fs"].Success ? FileSystemOf(m.Groups["fs"].Value) : null;
            return (reason, device, fileSystem);
        }
        return null;
    }

    /// <summary>The file system type (as mounts name it) a kernel message prefix stands for; ext2 and ext3 are served by the ext4 driver.</summary>
    private static string FileSystemOf(string prefix) => prefix.ToLowerInvariant() switch
    {
        var p when p.StartsWith("ext", StringComparison.Ordinal) => "ext4",
        var p when p.StartsWith("btrfs", StringComparison.Ordinal) => "btrfs",
        var p when p.StartsWith("f2fs", StringComparison.Ordinal) => "f2fs",
        _ => "ntfs3",
    };

    // "blk_update_request: I/O error, dev sdb, sector 123" (<= 5.x), "I/O error, dev sdb, sector 123 op 0x1:(WRITE)" (>= 5.14),
    // "print_req_error: critical medium error, dev sdb, sector 8"
    [GeneratedRegex(@"(?:(?:critical\s+)?(?:medium|target|nexus|space allocation|protection|recoverable transport)\s+error|I/O error), dev (?<dev>[\w\-\.]+), sector", RegexOptions.IgnoreCase)]
    private static partial Regex BlockIoError();

    [GeneratedRegex(@"Buffer I/O error on (?:dev(?:ice)?\s+)?(?<dev>[\w\-\.]+)", RegexOptions.IgnoreCase)]
    private static partial Regex BufferIoError();

    [GeneratedRegex(@"(?:(?<fs>EXT[234])-fs error|(?<fs>BTRFS) error|(?<fs>F2FS)-fs error|(?<fs>ntfs3)\(?[^)]*\)?.*error)[^(]*(?:\(device (?<dev>[\w\-\.]+)\))?", RegexOptions.IgnoreCase)]
    private static partial Regex FsError();

    [GeneratedRegex(@"XFS \((?<dev>[\w\-\.]+)\):.*(?:I/O error|metadata I/O error|Corruption)", RegexOptions.IgnoreCase)]
    private static partial Regex XfsIoError();

    [GeneratedRegex(@"sd \S+ \[(?<dev>\w+)\].*(?:FAILED Result|Unhandled (?:sense|error) code|timing out command)", RegexOptions.IgnoreCase)]
    private static partial Regex ScsiFailed();

    [GeneratedRegex(@"ntfs-3g.*(?:Input/output error|I/O error)", RegexOptions.IgnoreCase)]
    private static partial Regex NtfsIoError();

    [GeneratedRegex(@"(?:device-mapper: multipath.*Failing path (?<dev>[\d:]+)|multipathd.*(?:checker failed path (?<dev>\w+)|remaining active paths: 0))", RegexOptions.IgnoreCase)]
    private static partial Regex MultipathFailing();

    [GeneratedRegex(@"nvme (?<dev>nvme\d+)\S*: (?:I/O \d+ .*timeout|.*(?:I/O error|controller is down|Device not ready))", RegexOptions.IgnoreCase)]
    private static partial Regex NvmeError();
}
