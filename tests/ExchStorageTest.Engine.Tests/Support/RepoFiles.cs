using System.Runtime.CompilerServices;

namespace ExchStorageTest.Engine.Tests.Support;

/// <summary>
/// A file of the repository (docs/, fixtures of another project), found by walking up from the calling test's source
/// file, so no test counts folder levels and a moved test project still finds them.
/// </summary>
internal static class RepoFiles
{
    public static string Path(string relative, [CallerFilePath] string here = "")
    {
        for (var dir = System.IO.Path.GetDirectoryName(here); dir is not null; dir = System.IO.Path.GetDirectoryName(dir))
            if (File.Exists(System.IO.Path.Combine(dir, relative))) return System.IO.Path.Combine(dir, relative);
        throw new FileNotFoundException($"{relative} is not above {here}.");
    }
}
