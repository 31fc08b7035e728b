using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;

namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>Result of trying O_DIRECT in a directory: supported, or why not (null = could not tell).</summary>
public sealed record DirectIoProbeResult(bool? Supported, string Detail);

/// <summary>
/// Creates a small probe file with O_DIRECT, writes one aligned block, and deletes it. Some file systems
/// (tmpfs, older FUSE) refuse O_DIRECT at open with EINVAL; others only at the first I/O.
/// </summary>
[SupportedOSPlatform("linux")]
public static unsafe class DirectIoProbe
{
    public static DirectIoProbeResult Probe(string directory, int blockSize = 4096)
    {
        string path = Path.Combine(directory, $".exchstoragetest-probe-{Guid.NewGuid():N}.tmp");
        int fd = LibC.Open(path, LibC.O_CREAT | LibC.O_EXCL | LibC.O_RDWR | LibC.O_DIRECT | LibC.O_CLOEXEC, 0x180);
        if (fd < 0)
        {
            int err = Marshal.GetLastPInvokeError();
            return err == LibC.EINVAL
                ? new DirectIoProbeResult(false, "open with O_DIRECT failed with EINVAL: the file system refuses direct I/O")
                : new DirectIoProbeResult(null, $"could not create a probe file in {directory}: {LibC.ErrorText(err)}");
        }
        try
        {
            using var buffer = new AlignedBuffer(blockSize, blockSize);
            nint n = LibC.PWrite(fd, (void*)buffer.Address, (nuint)blockSize, 0);
            if (n < 0)
            {
                int err = Marshal.GetLastPInvokeError();
                return err == LibC.EINVAL
                    ? new DirectIoProbeResult(false, $"an aligned {blockSize}-byte O_DIRECT write failed with EINVAL")
                    : new DirectIoProbeResult(null, $"the probe write failed: {LibC.ErrorText(err)}");
            }
            return new DirectIoProbeResult(true, $"O_DIRECT open and an aligned {blockSize}-byte write succeeded");
        }
        finally
        {
            LibC.Close(fd);
            try { File.Delete(path); } catch (IOException) { } catch (UnauthorizedAccessException) { }
        }
    }
}
