using System.Buffers.Binary;
using ExchStorageTest.Engine.Inspection.Windows;

namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>
/// struct statvfs as glibc lays it out on 64-bit Linux (x86-64 and arm64 alike): eleven 8-byte fields
/// then spare ints. Parsed from bytes so the layout is checked by a test, not trusted.
/// </summary>
public sealed record StatVfs(
    long BlockSize,
    long FragmentSize,
    long Blocks,
    long BlocksFree,
    long BlocksAvailable,
    long Files,
    long FilesFree,
    long FilesAvailable,
    ulong FileSystemId,
    long Flags,
    long NameMax)
{
    public const int NativeSize = 112;

    /// <summary>Sizes are in f_frsize units (f_bsize is the preferred I/O size; they differ on some file systems).</summary>
    public long TotalBytes => Blocks * FragmentSize;

    /// <summary>Space an unprivileged writer can use (f_bavail), which is what the test files will get.</summary>
    public long AvailableBytes => BlocksAvailable * FragmentSize;

    public static StatVfs Parse(ReadOnlySpan<byte> b)
    {
        IoctlBuffer.RequireLength(b, 88, "struct statvfs");
        Span<long> f = stackalloc long[11];
        for (int i = 0; i < f.Length; i++) f[i] = BinaryPrimitives.ReadInt64LittleEndian(b.Slice(i * 8, 8));
        return new StatVfs(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], (ulong)f[8], f[9], f[10]);
    }
}
