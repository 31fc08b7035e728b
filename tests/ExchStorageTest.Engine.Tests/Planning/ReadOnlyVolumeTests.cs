using System.Diagnostics;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.Planning;

/// <summary>A database path on a read-only volume is refused before anything is written (real read-only bind mount).</summary>
public class ReadOnlyVolumeTests
{
    [RootFact]
    public void A_read_only_volume_is_refused_with_PathNotWritable()
    {
        using var dir = new TestFolder("ro");
        string source = dir.Combine("src");
        string mount = dir.Combine("ro");
        Directory.CreateDirectory(source);
        Directory.CreateDirectory(mount);
        Run("mount", "--bind", source, mount);
        try
        {
            Run("mount", "-o", "remount,ro,bind", mount);
            var request = new EngineRequest
            {
                DurationSeconds = 30,
                Profile = new MailboxProfile { MailboxCount = 100, IopsPerMailbox = 0.5, MailboxSizeMB = 10, DatabaseCount = 1, DatabasePaths = new[] { mount } },
            };
            var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(request));
            Assert.Equal("PathNotWritable", ex.Code);
            Assert.Equal(ErrorCategories.PermissionDenied, ex.Category);
            Assert.Contains(mount, ex.Message);
            Assert.Empty(Directory.GetFileSystemEntries(source));
        }
        finally
        {
            Run("umount", mount);
        }
    }

    private static void Run(string file, params string[] args)
    {
        var psi = new ProcessStartInfo(file) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var a in args) psi.ArgumentList.Add(a);
        using var p = Process.Start(psi)!;
        p.WaitForExit();
        Assert.True(p.ExitCode == 0, $"{file} {string.Join(' ', args)}: {p.StandardError.ReadToEnd()}");
    }
}
