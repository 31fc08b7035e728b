using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;

namespace ExchStorageTest.Engine.Tests.Io;

/// <summary>Real device errors reach the caller as -errno completions through every backend.</summary>
public class FaultInjectionTests
{
    public static TheoryData<string> Backends() => BackendReadWriteTests.Backends();

    [RootTheory]
    [MemberData(nameof(Backends))]
    public void FullFileSystemCompletesWritesWithEnospc(string backendName)
    {
        using var dir = new ScratchDir();
        string image = dir.File("tiny.ext4");
        string mount = dir.File("mnt");
        Directory.CreateDirectory(mount);
        using (var fs = File.Create(image)) fs.SetLength(8L << 20);
        Tool.Run("mkfs.ext4", "-q", "-F", "-m", "0", image);
        Tool.Run("mount", "-o", "loop", image, mount);
        try
        {
            using IoFile file = IoFileOpener.Open(Path.Combine(mount, "fill.edb"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
            Assert.True(file.Direct);
            const int block = 64 * 1024;
            int count = (16 << 20) / block; // twice the file system: it must fill up
            using var buf = new AlignedBuffer(count * block, file.Alignment);
            using IIoBackend backend = IoBackendFactory.Create(8, backendName);
            int[] results = BackendDriver.RunAll(backend, file, IoOperation.Write, buf, count, block);
            int enospc = 0;
            foreach (int r in results)
            {
                Assert.True(r == block || r < 0 || r < block, $"unexpected result {r}");
                if (r < 0)
                {
                    Assert.Equal(-LibC.ENOSPC, r);
                    Assert.True(IoErrors.IsOutOfSpace(-r));
                    enospc++;
                }
            }
            Assert.True(enospc > 0, "No write failed with ENOSPC on a full 8 MiB file system.");
        }
        finally
        {
            Tool.Run("umount", mount);
        }
    }

    [NbdkitTheory]
    [MemberData(nameof(Backends))]
    public void DeviceErrorsCompleteWithEio(string backendName)
    {
        using var dir = new ScratchDir();
        string mount = dir.File("nbd");
        Directory.CreateDirectory(mount);
        string disk = Path.Combine(mount, "disk");
        // nbdkit's error filter fails every request with EIO; nbdfuse exposes the NBD export as a file.
        var psi = new ProcessStartInfo(Prerequisites.FindTool("nbdfuse")!) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (string a in new[] { disk, "--command", "nbdkit", "-s", "--exit-with-parent", "--filter=error", "memory", "16M", "error-rate=100%", "error=EIO" })
            psi.ArgumentList.Add(a);
        using Process nbd = Process.Start(psi)!;
        try
        {
            var sw = Stopwatch.StartNew();
            while (!File.Exists(disk) && sw.Elapsed < TimeSpan.FromSeconds(10) && !nbd.HasExited) Thread.Sleep(50);
            Assert.True(File.Exists(disk), "nbdfuse did not expose the disk: " + (nbd.HasExited ? nbd.StandardError.ReadToEnd() : "timeout"));

            using IoFile file = IoFileOpener.Open(disk, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
            using var buf = new AlignedBuffer(8 * 4096, file.Alignment);
            using IIoBackend backend = IoBackendFactory.Create(4, backendName);
            int[] reads = BackendDriver.RunAll(backend, file, IoOperation.Read, buf, 4, 4096);
            Assert.All(reads, r => Assert.Equal(-LibC.EIO, r));
            int[] writes = BackendDriver.RunAll(backend, file, IoOperation.Write, buf, 4, 4096, baseOffset: 1 << 20);
            Assert.All(writes, r => Assert.Equal(-LibC.EIO, r));
        }
        finally
        {
            string fusermount = Prerequisites.FindTool("fusermount3") ?? Prerequisites.FindTool("fusermount")!;
            try { Tool.Run(fusermount, "-u", mount); } catch (InvalidOperationException) { }
            if (!nbd.WaitForExit(5000)) nbd.Kill(entireProcessTree: true);
        }
    }
}
