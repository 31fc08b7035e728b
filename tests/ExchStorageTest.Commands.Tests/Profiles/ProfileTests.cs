using ExchStorageTest.Errors;
using ExchStorageTest.Profiles;

namespace ExchStorageTest.Tests.Profiles;

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

    [Fact]
    public void A_capture_s_figures_travel_with_the_profile_through_its_JSON_and_a_hashtable_unchanged()
    {
        var captured = new CaptureTargets
        {
            Captures = new[] { "ex01-ex04.csv" }, Servers = new[] { "EX01", "EX04" }, TimeZone = "Pacific Standard Time", WindowStart = "2026-11-02 10:00",
            WindowEnd = "2026-11-02 11:00", WindowNamed = true, GrowthFactor = 1.3, DatabaseIops = 4008, TargetIops = 5210.4, CalculatorIops = 1608, TestedIops = 5210.4, ActiveMailboxes = 4000,
        };
        var json = ProfileParts.JsonOf(captured);
        var back = ProfileParts.ReadCapture(json)!;
        foreach (var property in typeof(CaptureTargets).GetProperties()) Assert.Equal(property.GetValue(captured), property.GetValue(back));
        var table = new System.Collections.Hashtable { ["servers"] = new[] { "EX01" }, ["testedIops"] = "1302.6", ["windowNamed"] = false };
        Assert.Equal(1302.6, ProfileParts.ReadCapture(table)!.TestedIops);
        var bad = Assert.Throws<StorageTestException>(() => ProfileParts.ReadCapture(new System.Collections.Hashtable { ["testedIops"] = "many" }));
        Assert.Equal("ExchStorageTest.ProfileInvalid", bad.ErrorRecord.FullyQualifiedErrorId);
        Assert.Throws<StorageTestException>(() => ProfileParts.ReadCapture("EX01"));
    }

    [Fact]
    public void Copies_per_volume_are_read_with_the_profile_default_to_the_Jetstress_model_and_are_checked()
    {
        System.Collections.Hashtable Settings() => new(StringComparer.OrdinalIgnoreCase)
        {
            ["mailboxCount"] = 40, ["iopsPerMailbox"] = 0.5, ["mailboxSizeMB"] = 10, ["databaseCount"] = 4, ["copiesPerDatabase"] = 4, ["databasePaths"] = new[] { "/db" },
        };
        MailboxProfile plain = ProfileReader.Read(Settings());
        Assert.Equal((1, 1, 0), (plain.CopiesPerVolume, plain.ActiveCopiesPerVolume, plain.LaggedCopiesPerVolume));
        var table = Settings();
        table["copiesPerVolume"] = "4";
        table["activeCopiesPerVolume"] = 1;
        table["laggedCopiesPerVolume"] = 1;
        MailboxProfile pa = ProfileReader.Read(table);
        Assert.Equal((4, 1, 1), (pa.CopiesPerVolume, pa.ActiveCopiesPerVolume, pa.LaggedCopiesPerVolume));
        Assert.Contains(pa.Settings(), s => s.Key == "copiesPerVolume" && Equals(s.Value, 4));
        table["laggedCopiesPerVolume"] = 5;
        var bad = Assert.Throws<StorageTestException>(() => ProfileReader.Read(table));
        Assert.Equal("ExchStorageTest.LaggedCopiesPerVolumeOutOfRange", bad.ErrorRecord.FullyQualifiedErrorId);
    }
}
