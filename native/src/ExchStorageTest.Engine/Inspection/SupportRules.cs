using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// What Microsoft does not support under Exchange's database and log files, and what it doubts, judged from the
/// probed facts of a folder's volume. Unsupported is an <see cref="Severities.Error"/> whose code is in
/// <see cref="Refusing"/>: a run refuses it before anything is created (<see cref="Preflight"/>) unless the request
/// allows an unsupported platform. The sources are listed in Inspection/README.md.
/// </summary>
public static class SupportRules
{
    /// <summary>The finding codes that refuse a run: Microsoft's unsupported list.</summary>
    public static readonly IReadOnlySet<string> Refusing = new HashSet<string>(StringComparer.Ordinal)
    {
        FindingCodes.IntegrityStreams, FindingCodes.Compression, FindingCodes.FileEncryption, FindingCodes.Deduplication,
    };

    public static bool Refuses(Finding f) => f.Severity == Severities.Error && Refusing.Contains(f.Code);

    public static void Evaluate(VolumeFacts f, string where, List<Finding> list)
    {
        // Exchange 2016/2019/SE storage configuration options: ReFS data integrity must be off for databases (the 2019
        // Preferred Architecture formats ReFS "with the integrity feature disabled").
        if (f.IntegrityStreams is { } integrity)
            list.Add(Make(Severities.Error, FindingCodes.IntegrityStreams,
                $"{integrity}: Exchange does not support ReFS integrity streams on database files.",
                "Turn them off before the databases are created (Set-FileIntegrity <folder> -Enable $false; new files inherit the folder's setting), or format the volume with integrity off (Format-Volume -FileSystem ReFS -SetIntegrityStreams $false)."));
        // NTFS compression breaks ESE's sector independence; OS compression in general is on the unsupported list.
        if (f.Compression is { } compression)
            list.Add(Make(Severities.Error, FindingCodes.Compression,
                $"{compression}: Exchange does not support file-system compression under its database and log files, and measured latencies would include the compressor's.",
                f.Platform == VolumePlatform.Windows
                    ? "Clear the folder's compression (compact /u /s <folder>) or use an uncompressed volume (on Windows Server 2025 ReFS: Disable-ReFSDedup)."
                    : "Mount the file system without compression (btrfs: no compress option; chattr -c on the folder) to measure the storage as Exchange will use it."));
        if (f.FileEncryption is { } efs)
            list.Add(Make(Severities.Error, FindingCodes.FileEncryption,
                $"{efs}: Exchange does not support Encrypting File System (EFS) on its database and log files.",
                "Decrypt the folder (cipher /d /s:<folder>); encrypt the volume with BitLocker instead, which Exchange supports."));
        // Data deduplication (NTFS OS dedup, Windows Server 2025 ReFS dedup) is not supported for Exchange data.
        if (f.Deduplication is { } dedup)
            list.Add(Make(Severities.Error, FindingCodes.Deduplication,
                $"{dedup}: Exchange does not support deduplication of the volumes holding its databases and logs.",
                "Disable it for the volume (Disable-DedupVolume, or Disable-ReFSDedup on Windows Server 2025) before testing."));
        if (f.VolumeEncryption is { } bitlocker)
            list.Add(Make(Severities.Info, FindingCodes.VolumeEncryption,
                $"{where} is encrypted ({bitlocker}); volume encryption is supported for Exchange data (the Preferred Architecture uses BitLocker), and the test measures its cost.", null));
        if (f.WriteCache is { Enabled: true } cache)
        {
            if (cache.Flushable == false && cache.PowerProtected != true)
                list.Add(Make(Severities.Warning, FindingCodes.WriteCacheNotFlushable,
                    $"The device under {where} has its write cache on, cannot flush it and does not report power protection ({cache.Source}): writes Exchange makes write-through may be acknowledged from volatile cache, and lost on power failure.",
                    "Use a battery- or flash-backed controller cache, or turn the disk's volatile write cache off, as Exchange's storage guidance asks."));
            else
                list.Add(Make(Severities.Info, FindingCodes.WriteCacheEnabled,
                    $"The device under {where} has its write cache on ({(cache.PowerProtected == true ? "power-protected" : "flushed by the OS on write-through and flush")}; {cache.Source}).", null));
        }
    }

    internal static Finding Make(string severity, string code, string message, string? advice) =>
        new() { Severity = severity, Code = code, Message = message, Advice = advice };
}
