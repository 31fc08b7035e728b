namespace ExchStorageTest.HelpCompiler.Tests;

/// <summary>A scratch docs folder for one test, removed after it.</summary>
public sealed class DocsFolder : IDisposable
{
    public DocsFolder()
    {
        Path = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "exst-helpc-" + Guid.NewGuid().ToString("N")[..12]);
        Directory.CreateDirectory(Path);
    }

    public string Path { get; }

    public string Combine(params string[] parts) => System.IO.Path.Combine(new[] { Path }.Concat(parts).ToArray());

    /// <summary>Every file and folder under the folder, relative, sorted: "nothing was written" is what was there before.</summary>
    public IReadOnlyList<string> Entries() =>
        Directory.EnumerateFileSystemEntries(Path, "*", SearchOption.AllDirectories).Select(p => System.IO.Path.GetRelativePath(Path, p)).OrderBy(p => p, StringComparer.Ordinal).ToList();

    public void Dispose()
    {
        try { Directory.Delete(Path, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }
}
