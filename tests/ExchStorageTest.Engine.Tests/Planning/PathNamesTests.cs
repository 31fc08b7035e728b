using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Tests.Planning;

/// <summary>Paths as each OS names them: case on Windows, and the \\?\ prefix the engine's own Win32 calls need for long paths.</summary>
public class PathNamesTests
{
    private static readonly string LongTail = string.Join('\\', Enumerable.Repeat(new string('d', 60), 5));

    [Fact]
    public void A_long_drive_path_gets_the_extended_prefix()
    {
        string path = @"C:\" + LongTail;
        Assert.Equal(@"\\?\" + path, PathNames.ForWin32(path));
    }

    [Fact]
    public void A_long_share_path_gets_the_extended_UNC_prefix()
    {
        Assert.Equal(@"\\?\UNC\server\share\" + LongTail, PathNames.ForWin32(@"\\server\share\" + LongTail));
    }

    [Theory]
    [InlineData(@"C:\Exchange\DB1")]
    [InlineData(@"\\server\share\run")]
    public void A_short_path_goes_as_given(string path) => Assert.Equal(path, PathNames.ForWin32(path));

    [Fact]
    public void A_path_already_in_the_device_namespace_goes_as_given()
    {
        Assert.Equal(@"\\?\C:\" + LongTail, PathNames.ForWin32(@"\\?\C:\" + LongTail));
        Assert.Equal(@"\\.\C:\" + LongTail, PathNames.ForWin32(@"\\.\C:\" + LongTail));
    }

    [Fact]
    public void Paths_differ_by_case_only_where_the_OS_says_so()
    {
        Assert.Equal(OperatingSystem.IsWindows(), PathNames.Comparer.Equals(@"C:\Exchange\DB1", @"c:\exchange\db1"));
        Assert.True(PathNames.Comparer.Equals("/var/tmp/x", "/var/tmp/x"));
    }

    [Theory]
    [InlineData(@"\\?\C:\", @"C:\")]
    [InlineData(@"\\?\C:\Exchange", @"C:\Exchange")]
    [InlineData(@"C:\", @"C:\")]
    [InlineData(@"\\?\UNC\server\share\", @"\\?\UNC\server\share\")]
    [InlineData(@"\\?\Volume{0b1f}\", @"\\?\Volume{0b1f}\")]
    public void A_drive_path_shows_without_its_extended_prefix(string path, string shown) =>
        Assert.Equal(shown, PathNames.WithoutExtendedPrefix(path));
}
