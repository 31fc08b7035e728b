namespace ExchStorageTest.PowerShell.Tests;

/// <summary>A folder on a real disk for one test (direct I/O needs a block-backed file system, so not tmpfs), removed after it.</summary>
public sealed class ScratchFolder : IDisposable
{
    public ScratchFolder(string name = "ps")
    {
        string root = OperatingSystem.IsWindows() ? System.IO.Path.GetTempPath() : "/var/tmp";
        Path = System.IO.Path.Combine(root, "exst-ps-tests", $"{name}-{Guid.NewGuid():N}"[..(name.Length + 9)]);
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public string Combine(params string[] parts) => System.IO.Path.Combine(new[] { Path }.Concat(parts).ToArray());

    public string Sub(string name) => Directory.CreateDirectory(Combine(name)).FullName;

    /// <summary>Every file and folder under the scratch folder, relative, sorted: "nothing was written" is an empty list.</summary>
    public IReadOnlyList<string> Entries() =>
        Directory.EnumerateFileSystemEntries(Path, "*", SearchOption.AllDirectories).Select(p => System.IO.Path.GetRelativePath(Path, p)).OrderBy(p => p, StringComparer.Ordinal).ToList();

    public void Dispose()
    {
        try { Directory.Delete(Path, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }
}
