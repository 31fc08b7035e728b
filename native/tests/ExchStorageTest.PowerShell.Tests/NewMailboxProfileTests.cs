using System.Collections;
using System.Management.Automation;

namespace ExchStorageTest.PowerShell.Tests;

public class NewMailboxProfileTests : IClassFixture<SessionFixture>
{
    private readonly PowerShellSession _ps;

    public NewMailboxProfileTests(SessionFixture fixture) => _ps = fixture.Session;

    [Fact]
    public void Computes_target_iops_and_sizes_from_the_settings()
    {
        using var dir = new ScratchFolder("nmp");
        var profile = _ps.Run("New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $args[0]", dir.Path).Single();
        Assert.Equal("ExchStorageTest.MailboxProfile", profile.TypeNames[0]);
        Assert.Equal(50.0, (double)profile.Properties["TargetIops"].Value);
        Assert.Equal(2500.0, (double)profile.Properties["DatabaseSizeMB"].Value);
        Assert.Equal(5000.0, (double)profile.Properties["TotalCapacityMB"].Value);
        Assert.Equal(50, (int)profile.Properties["MailboxesPerDatabase"].Value);
        Assert.Null(profile.Properties["ThreadCount"].Value);
        Assert.Equal(new[] { dir.Path }, (string[])profile.Properties["DatabasePaths"].Value);
        Assert.Empty(dir.Entries());
    }

    [Fact]
    public void Saves_and_the_saved_file_loads_back()
    {
        using var dir = new ScratchFolder("nmp");
        string file = dir.Combine("p.json");
        var saved = _ps.Run("New-MailboxProfile -Name Lab -MailboxCount 40 -IopsPerMailbox 0.12 -HeadroomPercent 20 -MailboxSizeMB 10 -DatabaseCount 2 -Path $args[0] -ThreadCount 3 -SaveTo $args[1]", dir.Path, file);
        Assert.Null(saved.Error);
        string text = File.ReadAllText(file);
        Assert.Contains("\"schema\": \"exchstoragetest/profile\"", text);
        Assert.Contains("\"mailboxCount\": 40", text);
        Assert.NotEqual(0xEF, File.ReadAllBytes(file)[0]); // no byte order mark

        var again = _ps.Run("New-MailboxProfile -MailboxCount 1 -IopsPerMailbox 1 -MailboxSizeMB 1 -Path $args[0] -SaveTo $args[1]", dir.Path, file);
        Assert.Equal("ExchStorageTest.ProfileExists,ExchStorageTest.Commands.NewMailboxProfileCommand", again.Error!.FullyQualifiedErrorId);
        Assert.Contains("\"mailboxCount\": 40", File.ReadAllText(file));
    }

    [Fact]
    public void Binds_database_objects_by_property_name_like_get_mailboxdatabase_output()
    {
        using var dir = new ScratchFolder("nmp");
        string db1 = dir.Sub("DB1"), db2 = dir.Sub("DB2"), logs = dir.Sub("Logs");
        // Deserialized Get-MailboxDatabase output: property bags whose EdbFilePath is an object with PathName.
        var profile = _ps.Run(@"
            $dbs = @(
                [pscustomobject]@{ PSTypeName = 'Deserialized.Microsoft.Exchange.Data.Directory.SystemConfiguration.MailboxDatabase'; Name = 'DB1'; EdbFilePath = [pscustomobject]@{ PathName = ([IO.Path]::Combine($args[0], 'DB1.edb')) }; LogFolderPath = $args[2] }
                [pscustomobject]@{ Name = 'DB2'; EdbFilePath = ([IO.Path]::Combine($args[1], 'DB2.edb')); LogFolderPath = $args[2] }
            )
            $dbs | New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.1 -MailboxSizeMB 5", db1, db2, logs).Single();
        Assert.Equal(new[] { db1, db2 }, (string[])profile.Properties["DatabasePaths"].Value);
        Assert.Equal(2, (int)profile.Properties["DatabaseCount"].Value);
    }
}
