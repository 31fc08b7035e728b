using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// What one load phase runs, built by what the phase is for, so the two rules that differ between phases are written
/// here once: which streams ride with the transactional load (background maintenance and log replication, as the
/// profile says, with every load that stands for the profile's), and whether inserts grow the databases (<see cref="Grow"/>).
/// </summary>
internal sealed record PhaseOptions
{
    private PhaseOptions() { }

    /// <summary>Transactional sessions over all instances (the backup read: its readers, one a database).</summary>
    public int Sessions { get; private init; }
    /// <summary>The open loop's transactional rate (Poisson arrivals); null for a closed loop.</summary>
    public double? OpenLoopRateIops { get; private init; }
    public bool Transactional { get; private init; }
    /// <summary>Background database maintenance: a sequential checksum scan of each database.</summary>
    public bool Maintenance { get; private init; }
    /// <summary>Log replication: each passive copy reads the log as it is written.</summary>
    public bool Replication { get; private init; }
    /// <summary>The backup read: one sequential pass over each database.</summary>
    public bool Backup { get; private init; }

    /// <summary>
    /// Whether inserts grow the databases. Only the test's own load does (<see cref="Test"/>), as Jetstress's transactional
    /// test grows its databases (its report's Initial and Final Database Size differ): from the warm-up through the
    /// measured window to the clean shutdown, which writes every new page before the headers record the new size
    /// (<see cref="DatabaseGrowth"/>). A search's steps do not (<see cref="SearchStep"/>): a tuning trial or a capacity
    /// step measures how the storage answers a load on the databases as prepared; a capacity search has no clean shutdown
    /// to record growth with; and the growth allowance (at most a tenth of each database) is the test's to spend, not a
    /// closed-loop tuning step's on flash. Soft recovery's log generation does not either (<see cref="LogGeneration"/>):
    /// the replay reads every page a log names, so a log may name only pages the database has.
    /// </summary>
    public bool Grow { get; private init; }

    /// <summary>The test's transactional load (Performance, Stress, Throughput): the profile's streams, the request's open-loop rate if it gives one, and growth.</summary>
    public static PhaseOptions Test(TestPlan plan, int sessions) =>
        ProfileLoad(plan, sessions) with { OpenLoopRateIops = plan.Request.TargetRateIops, Grow = true };

    /// <summary>One step of a search (a tuning trial, a capacity step): the profile's streams as in the test, closed-loop, without growth.</summary>
    public static PhaseOptions SearchStep(TestPlan plan, int sessions) => ProfileLoad(plan, sessions);

    /// <summary>
    /// Soft recovery's log generation: the transactional load alone, with neither maintenance (Jetstress's
    /// RunDatabaseMaintenanceSoftRecovery is false by default) nor replication, and without growth.
    /// </summary>
    public static PhaseOptions LogGeneration(int sessions) => new() { Sessions = sessions, Transactional = true };

    /// <summary>The backup read alone, one reader a database.</summary>
    public static PhaseOptions BackupRead(int databases) => new() { Sessions = databases, Backup = true };

    /// <summary>The profile's transactional load: maintenance when the profile runs it, replication when it has passive copies.</summary>
    private static PhaseOptions ProfileLoad(TestPlan plan, int sessions) => new()
    {
        Sessions = sessions,
        Transactional = true,
        Maintenance = plan.Profile.BackgroundMaintenance,
        Replication = plan.Profile.CopiesPerDatabase > 1,
    };
}
