namespace ExchStorageTest.Engine.Tests.Contract;

/// <summary>
/// The passive-copy model of docs/load-model.md ("Passive copies on a volume"): its per-copy figures and what they do to
/// the load a volume carries and so to the mailboxes it can carry. The table's figures are checked here.
/// </summary>
public class PassiveCopyModelTests
{
    private static MailboxProfile Profile(int copiesPerVolume, int active = 1, int lagged = 0) => new()
    {
        MailboxCount = 1000, IopsPerMailbox = 0.12, MailboxSizeMB = 100, DatabaseCount = 4, CopiesPerDatabase = 4,
        CopiesPerVolume = copiesPerVolume, ActiveCopiesPerVolume = active, LaggedCopiesPerVolume = lagged, DatabasePaths = new[] { "/db" },
    };

    [Fact]
    public void The_default_profile_is_the_Jetstress_model_with_no_passive_copy()
    {
        var p = new MailboxProfile { MailboxCount = 10, IopsPerMailbox = 0.1, MailboxSizeMB = 10, DatabasePaths = new[] { "/db" } };
        Assert.Null(ProfileRules.Check(p));
        Assert.Equal((1, 1, 0), (p.CopiesPerVolume, p.ActiveCopiesPerVolume, p.LaggedCopiesPerVolume));
        Assert.Equal(0, PassiveCopyModel.PassivePerDatabase(p));
        Assert.Same(ModelledExchange.Jetstress, PassiveCopyModel.Modelled(p));
        Assert.Equal(1.0, PassiveCopyModel.DatabaseIopsFactor(p));
        Assert.Equal(1.0, PassiveCopyModel.LogBytesFactor(p));
    }

    [Fact]
    public void A_preferred_architecture_disk_has_three_passive_copies_beside_its_active_database()
    {
        var p = Profile(copiesPerVolume: 4);
        Assert.Null(ProfileRules.Check(p));
        Assert.Equal(3, PassiveCopyModel.PassivePerDatabase(p));
        Assert.Equal(3, PassiveCopyModel.ReplayingPerDatabase(p));
        Assert.Same(ModelledExchange.PreferredArchitecture2019, PassiveCopyModel.Modelled(p));
        // Two active databases on a volume of four copies: one passive copy beside each.
        Assert.Equal(1, PassiveCopyModel.PassivePerDatabase(Profile(copiesPerVolume: 4, active: 2)));
    }

    [Fact]
    public void Replay_is_half_the_active_copys_database_IOPS_its_writes_those_of_the_active()
    {
        // The active database: R = 2W (the load model's 2:1 reads to writes).
        double reads = 200, writes = 100;
        Assert.Equal(100, PassiveCopyModel.ReplayWrites(reads, writes), 9);
        Assert.Equal(50, PassiveCopyModel.ReplayReads(reads, writes), 9);
        Assert.Equal(0.5 * (reads + writes), PassiveCopyModel.ReplayReads(reads, writes) + PassiveCopyModel.ReplayWrites(reads, writes), 9);
        // A write-heavy active copy: the writes are capped at the 50%, no negative reads.
        Assert.Equal(60, PassiveCopyModel.ReplayWrites(20, 100), 9);
        Assert.Equal(0, PassiveCopyModel.ReplayReads(20, 100), 9);
    }

    [Fact]
    public void A_lagged_copy_writes_the_copied_log_and_replays_nothing()
    {
        var p = Profile(copiesPerVolume: 4, lagged: 1);
        Assert.Null(ProfileRules.Check(p));
        Assert.Equal(1, PassiveCopyModel.LaggedPerDatabase(p));
        Assert.Equal(2, PassiveCopyModel.ReplayingPerDatabase(p));
        Assert.Equal(4.0, PassiveCopyModel.LogBytesFactor(p));
    }

    [Theory]
    // The load model's table: database IOPS on the volume per unit of the active database's.
    [InlineData(1, 0, 1.0)]
    [InlineData(2, 0, 1.5)]
    [InlineData(4, 0, 2.5)]
    [InlineData(4, 1, 2.0)]
    [InlineData(4, 3, 1.0)]
    public void The_volume_carries_the_documented_multiple_of_the_active_databases_IOPS(int copies, int lagged, double factor)
    {
        Assert.Equal(factor, PassiveCopyModel.DatabaseIopsFactor(Profile(copies, lagged: lagged)), 9);
    }

    [Fact]
    public void Storage_limited_by_its_database_IOPS_carries_fewer_mailboxes_with_passive_copies()
    {
        // A volume whose database IOPS carry 2,500 mailboxes tested the Jetstress way carries 1,000 with 4 copies, 1 active:
        // 60% fewer (docs/load-model.md).
        Assert.Equal(2500, PassiveCopyModel.MailboxesCarried(2500, Profile(1)));
        Assert.Equal(1000, PassiveCopyModel.MailboxesCarried(2500, Profile(4)));
        Assert.Equal(1250, PassiveCopyModel.MailboxesCarried(2500, Profile(4, lagged: 1)));
    }

    [Theory]
    [InlineData(0, 1, 0, "CopiesPerVolumeOutOfRange")]
    [InlineData(17, 1, 0, "CopiesPerVolumeOutOfRange")]
    [InlineData(4, 0, 0, "ActiveCopiesPerVolumeOutOfRange")]
    [InlineData(4, 17, 0, "ActiveCopiesPerVolumeOutOfRange")]
    [InlineData(1, 2, 0, "CopiesPerVolumeOutOfRange")]
    [InlineData(3, 2, 0, "CopiesPerVolumeOutOfRange")]
    [InlineData(4, 1, -1, "LaggedCopiesPerVolumeOutOfRange")]
    [InlineData(4, 1, 4, "LaggedCopiesPerVolumeOutOfRange")]
    [InlineData(4, 2, 1, "LaggedCopiesPerVolumeOutOfRange")]
    public void Each_rule_refuses_a_bad_value_with_its_own_code_and_names_it(int copies, int active, int lagged, string code)
    {
        var bad = ProfileRules.Check(Profile(copies, active, lagged));
        Assert.NotNull(bad);
        Assert.Equal(code, bad!.Code.Code);
        string named = code switch { "CopiesPerVolumeOutOfRange" => $"'{copies}'", "ActiveCopiesPerVolumeOutOfRange" => $"'{active}'", _ => $"'{lagged}'" };
        Assert.Contains(named, bad.Message);
    }

    [Fact]
    public void Passive_copies_need_a_replicated_database()
    {
        var p = Profile(4);
        p.CopiesPerDatabase = 1;
        Assert.Equal("CopiesPerVolumeOutOfRange", ProfileRules.Check(p)!.Code.Code);
        p.CopiesPerVolume = 1;
        Assert.Null(ProfileRules.Check(p));
    }
}
