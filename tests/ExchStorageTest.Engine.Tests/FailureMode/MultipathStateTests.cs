using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.FailureMode;

/// <summary>A fact that needs the kernel's device-mapper (dm-multipath) besides root and loop devices.</summary>
public sealed class DmMultipathFactAttribute : FactAttribute
{
    public DmMultipathFactAttribute()
    {
        Skip = Prerequisites.NotRootWithLoop
            ?? (Prerequisites.FindTool("dmsetup") is null ? "dmsetup is not installed." : null)
            ?? (!File.Exists("/dev/mapper/control")
                ? "The kernel has no device-mapper (/dev/mapper/control is missing): the dm-multipath case runs where it has; the multipath parsing is tested on recorded tool output (Inspection/MultipathTests)."
                : null);
    }
}

/// <summary>Each multipath volume's state before the run and after its measured window (results failureMode.multipath).</summary>
public class MultipathStateTests : IDisposable
{
    private readonly TestFolder _dir = new("mp");

    [Fact]
    public void A_run_without_multipath_volumes_reads_nothing_again()
    {
        var r = new TestResults();
        r.Environment.Volumes.Add(new VolumeReport { Path = _dir.Path, MountPoint = "/" });
        Assert.Empty(FailureModeRecord.MultipathStates(r));
    }

    [Fact]
    public void The_state_before_is_the_inspections_and_one_not_read_again_is_left_unknown()
    {
        var r = new TestResults();
        var paths = new MultipathReport { Name = "mpatha", Provider = "Linux dm-multipath", PathCount = 2, Policy = "service-time", PathStates = { "sdb: running", "sdc: running" } };
        string gone = _dir.Combine("gone");
        r.Environment.Volumes.Add(new VolumeReport { Path = gone, MountPoint = "/mnt/db", Multipath = paths });
        var state = Assert.Single(FailureModeRecord.MultipathStates(r));
        Assert.Equal("/mnt/db", state.Volume);
        Assert.Equal("2 paths (sdb: running, sdc: running), service-time", state.Before);
        Assert.Null(state.After); // the folder is gone: nothing to read the paths through
    }

    [DmMultipathFact]
    public void A_dm_multipath_volume_is_read_again_after_the_window()
    {
        string image = _dir.Combine("path.img");
        using (var f = File.Create(image)) f.SetLength(64L << 20);
        string loop = Tool.Run("losetup", "-f", "--show", image).Trim();
        string name = "exst-" + Path.GetFileName(_dir.Path)[^8..];
        string mount = _dir.Sub("mnt");
        try
        {
            string majorMinor = File.ReadAllText($"/sys/block/{Path.GetFileName(loop)}/dev").Trim();
            Tool.Run("dmsetup", "create", name, "--table", $"0 {64 * 2048} multipath 0 0 1 1 round-robin 0 1 1 {majorMinor} 1");
            Tool.Run("mkfs.ext4", "-q", $"/dev/mapper/{name}");
            Tool.Run("mount", $"/dev/mapper/{name}", mount);
            var r = new TestResults();
            r.Environment.Volumes = InspectCommand.Run(new[] { mount }, new VolumeCheckOptions { ProbeDirectIo = false });
            Assert.NotNull(r.Environment.Volumes[0].Multipath);
            Tool.Run("dmsetup", "message", name, "0", $"fail_path {majorMinor}");
            var state = Assert.Single(FailureModeRecord.MultipathStates(r));
            Assert.StartsWith("1 path", state.Before, StringComparison.Ordinal);
            Assert.NotNull(state.After);
        }
        finally
        {
            try { Tool.Run("umount", mount); } catch (InvalidOperationException) { }
            try { Tool.Run("dmsetup", "remove", name); } catch (InvalidOperationException) { }
            Tool.Run("losetup", "-d", loop);
        }
    }

    public void Dispose() => _dir.Dispose();
}
