namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>The inode flags of FS_IOC_GETFLAGS that matter to Exchange's files (linux/fs.h).</summary>
public static class InodeFlags
{
    /// <summary>FS_COMPR_FL: chattr +c, compress the file (btrfs, and ext4/f2fs where built with compression).</summary>
    public const int CompressFlag = 0x00000004;

    public static bool Compressed(int flags) => (flags & CompressFlag) != 0;
}
