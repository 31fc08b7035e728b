using System.Diagnostics;

namespace ExchStorageTest.Engine.Tests.Inspection;

/// <summary>
/// Skips (with the reason) unless this host can build a real NTFS volume: Linux, root, mkntfs, losetup,
/// ntfs-3g, /dev/fuse and /dev/loop-control. Never passes silently when it cannot run.
/// </summary>
public sealed class NtfsLoopFactAttribute : FactAttribute
{
    public NtfsLoopFactAttribute()
    {
        if (LoopNtfsVolume.WhyUnavailable() is { } why) Skip = why;
    }
}

/// <summary>An NTFS image under /var/tmp, formatted by mkntfs, attached to a loop device and mounted with ntfs-3g.</summary>
public sealed class LoopNtfsVolume : IDisposable
{
    private readonly string _image;
    private string? _loop;
    private bool _mounted;

    public string MountPoint { get; }
    public string LoopDevice => _loop!;

    public LoopNtfsVolume(int clusterBytes, int sizeMiB = 64)
    {
        string id = Guid.NewGuid().ToString("N")[..12];
        _image = $"/var/tmp/exchstoragetest-ntfs-{id}.img";
        MountPoint = $"/var/tmp/exchstoragetest-ntfs-{id}";
        try
        {
            using (var fs = new FileStream(_image, FileMode.CreateNew)) fs.SetLength((long)sizeMiB << 20);
            Run("mkntfs", $"-F -f -c {clusterBytes} -s 512 -p 2048 -Q -L exchtest {_image}");
            _loop = Run("losetup", $"-f --show {_image}").Trim();
            Directory.CreateDirectory(MountPoint);
            Run("ntfs-3g", $"{_loop} {MountPoint}");
            _mounted = true;
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public void Dispose()
    {
        if (_mounted)
        {
            // ntfs-3g may still be flushing; retry briefly before detaching.
            for (int i = 0; i < 20 && _mounted; i++)
            {
                _mounted = TryRun("umount", MountPoint) != 0;
                if (_mounted) Thread.Sleep(100);
            }
            if (_mounted) TryRun("umount", $"-l {MountPoint}");
        }
        if (_loop != null) TryRun("losetup", $"-d {_loop}");
        try { if (Directory.Exists(MountPoint)) Directory.Delete(MountPoint); } catch (IOException) { }
        try { File.Delete(_image); } catch (IOException) { }
    }

    public static string? WhyUnavailable()
    {
        if (!OperatingSystem.IsLinux()) return "Real NTFS volume tests need Linux (loop devices and ntfs-3g).";
        if (!System.Environment.IsPrivilegedProcess) return "Real NTFS volume tests need root (losetup and mount).";
        foreach (var tool in new[] { "mkntfs", "losetup", "ntfs-3g", "umount" })
            if (Which(tool) == null) return $"Real NTFS volume tests need '{tool}' (apt-get install ntfs-3g util-linux).";
        if (!File.Exists("/dev/fuse")) return "Real NTFS volume tests need /dev/fuse for ntfs-3g.";
        if (!File.Exists("/dev/loop-control")) return "Real NTFS volume tests need /dev/loop-control.";
        return null;
    }

    private static string? Which(string tool)
    {
        foreach (var dir in (System.Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Concat(new[] { "/usr/sbin", "/sbin", "/usr/bin", "/bin" }))
        {
            if (dir.Length == 0) continue;
            string p = Path.Combine(dir, tool);
            if (File.Exists(p)) return p;
        }
        return null;
    }

    private static string Run(string tool, string args)
    {
        var psi = new ProcessStartInfo(Which(tool) ?? tool, args)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        using var p = Process.Start(psi)!;
        var stderr = p.StandardError.ReadToEndAsync();
        string stdout = p.StandardOutput.ReadToEnd();
        if (!p.WaitForExit(60000)) { p.Kill(); throw new InvalidOperationException($"{tool} {args} timed out"); }
        if (p.ExitCode != 0) throw new InvalidOperationException($"{tool} {args} failed ({p.ExitCode}): {stderr.Result}");
        return stdout;
    }

    private static int TryRun(string tool, string args)
    {
        try
        {
            Run(tool, args);
            return 0;
        }
        catch (InvalidOperationException)
        {
            return 1;
        }
    }
}
