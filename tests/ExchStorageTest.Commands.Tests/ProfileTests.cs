using ExchStorageTest.Errors;
using ExchStorageTest.Profiles;

namespace ExchStorageTest.Tests;

/// <summary>A profile on other folders: one contract function for a host's paths and for the databases piped from Get-MailboxDatabase.</summary>
public sealed class ProfileTests
{
    private static MailboxProfile Profile() => new()
    {
        Name = "p", MailboxCount = 40, IopsPerMailbox = 0.5, MailboxSizeMB = 10, DatabaseCount = 2, ThreadCount = 3, BackgroundMaintenance = false,
        DatabasePaths = new[] { "/db/{host}" }, LogPaths = new[] { "/log/{host}" },
    };

    [Fact]
    public void WithPaths_keeps_every_other_setting_and_leaves_the_original_alone()
    {
        MailboxProfile original = Profile();
        MailboxProfile host = original.WithPaths(new[] { "/db/a" }, new[] { "/log/a" });
        Assert.Equal(new[] { "/db/a" }, host.DatabasePaths);
        Assert.Equal(new[] { "/log/a" }, host.LogPaths);
        Assert.Equal(new[] { "/db/{host}" }, original.DatabasePaths);
        var others = typeof(MailboxProfile).GetProperties().Where(p => p.CanWrite && p.Name != nameof(MailboxProfile.DatabasePaths) && p.Name != nameof(MailboxProfile.LogPaths));
        foreach (var property in others) Assert.Equal(property.GetValue(original), property.GetValue(host));
    }

    [Fact]
    public void Piped_databases_set_the_count_drop_the_profile_s_own_log_folders_and_are_checked()
    {
        MailboxProfile piped = ProfileReader.WithDatabases(Profile(), new[] { "/e/db1", "/e/db2", "/e/db3" }, Array.Empty<string>());
        Assert.Equal(3, piped.DatabaseCount);
        Assert.Empty(piped.LogPaths);
        Assert.Equal(3, piped.ThreadCount);
        var tooMany = Assert.Throws<StorageTestException>(() => ProfileReader.WithDatabases(Profile(), Enumerable.Range(1, 41).Select(i => $"/e/db{i}").ToArray(), Array.Empty<string>()));
        Assert.Equal("ExchStorageTest.DatabaseCountOutOfRange", tooMany.ErrorRecord.FullyQualifiedErrorId);
        Assert.Same(Profile().GetType(), ProfileReader.WithDatabases(Profile(), Array.Empty<string>(), Array.Empty<string>()).GetType());
    }
}
