namespace ExchStorageTest.Engine.Tests.Support;

/// <summary>
/// A scratch folder on a real disk (not tmpfs: the engine opens files with O_DIRECT), removed after the test.
/// </summary>
public sealed class TestFolder : IDisposable
{
    public TestFolder(string? name = null)
    {
        string root = !OperatingSystem.IsWindows() && Directory.Exists("/var/tmp") ? "/var/tmp" : System.IO.Path.GetTempPath();
        Path = System.IO.Path.Combine(root, "est-tests", (name ?? "t") + "-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public string Combine(params string[] parts) => System.IO.Path.Combine(new[] { Path }.Concat(parts).ToArray());

    public void Dispose()
    {
        try { Directory.Delete(Path, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }
}
