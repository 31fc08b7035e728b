using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Tests;

/// <summary>A scratch folder on a real disk, removed after the test. Tests never share one.</summary>
public sealed class TestFolder : IDisposable
{
    public TestFolder(string name = "t")
    {
        // O_DIRECT needs a block-backed file system: /var/tmp unless it is missing or tmpfs.
        string root = OperatingSystem.IsWindows() ? System.IO.Path.GetTempPath() : "/var/tmp";
        if (!OperatingSystem.IsWindows() && (!Directory.Exists(root) || ExchStorageTest.Engine.Io.Linux.LibC.FileSystemType(root) == ExchStorageTest.Engine.Io.Linux.LibC.TMPFS_MAGIC))
            root = AppContext.BaseDirectory;
        Path = System.IO.Path.Combine(root, "exst-tests", $"{name}-{Guid.NewGuid():N}"[..(name.Length + 13)]);
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    /// <summary>A path inside the folder (not created).</summary>
    public string Combine(params string[] parts) => System.IO.Path.Combine(new[] { Path }.Concat(parts).ToArray());

    public string Sub(string name)
    {
        string p = System.IO.Path.Combine(Path, name);
        Directory.CreateDirectory(p);
        return p;
    }

    /// <summary>A tiny profile: 2 databases of ~20 MB, a small cache.</summary>
    public EngineRequest Request(TestType type, double seconds, int? threads = 4, int databases = 2, int copies = 2)
    {
        return new EngineRequest
        {
            TestType = type,
            DurationSeconds = seconds,
            SampleIntervalSeconds = 1,
            WarmupSeconds = 2,
            ThreadCount = threads,
            OutputPath = System.IO.Path.Combine(Path, "Results"),
            Profile = new MailboxProfile
            {
                Name = "Tiny",
                MailboxCount = 20 * databases,
                IopsPerMailbox = 0.5,
                MailboxSizeMB = 1,
                DatabaseCount = databases,
                CopiesPerDatabase = copies,
                DatabasePaths = new[] { Sub("Db") },
                MinimumDatabaseCacheMB = 4,
                MaximumDatabaseCacheMB = 8,
            },
        };
    }

    public void Dispose()
    {
        try { Directory.Delete(Path, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }
}
