using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Planning;

public class TestPlannerTests : IDisposable
{
    private readonly TestFolder _dir = new("planner");

    private EngineRequest Request(Action<MailboxProfile>? profile = null, Action<EngineRequest>? request = null)
    {
        var r = new EngineRequest
        {
            DurationSeconds = 30,
            Profile = new MailboxProfile { MailboxCount = 100, IopsPerMailbox = 0.5, MailboxSizeMB = 50, DatabaseCount = 2, DatabasePaths = new[] { _dir.Path } },
        };
        profile?.Invoke(r.Profile);
        request?.Invoke(r);
        return r;
    }

    [Fact]
    public void A_folder_several_databases_name_holds_each_in_a_folder_of_its_own()
    {
        // A JetstressConfig.xml with 32 instances over 4 folders (austinmccollum/PS-solutions @ ef323e0): the shared
        // folders are roots for their databases, as one root is for all, so no two databases' logs share a name.
        string a = _dir.Sub("a"), b = _dir.Sub("b"), logA = _dir.Sub("logA"), own = _dir.Sub("own");
        var plan = TestPlanner.Plan(Request(p =>
        {
            p.MailboxCount = 400;
            p.MailboxSizeMB = 1;
            p.DatabaseCount = 4;
            p.DatabasePaths = new[] { a, a, b, b };
            p.LogPaths = new[] { logA, logA, own, b };
        }));
        Assert.Equal(new[] { Path.Combine(a, "DB1"), Path.Combine(a, "DB2"), Path.Combine(b, "DB3"), Path.Combine(b, "DB4") }, plan.Instances.Select(i => i.DatabaseFolder));
        Assert.Equal(new[] { Path.Combine(logA, "DB1", "Logs"), Path.Combine(logA, "DB2", "Logs"), own, b }, plan.Instances.Select(i => i.LogFolder));
        Assert.Equal(plan.Files().Count(), plan.Files().Select(f => f.Path).Distinct().Count());
        Assert.Equal(new[] { a, b, logA, own }.OrderBy(f => f, StringComparer.Ordinal), plan.LockFolders.OrderBy(f => f, StringComparer.Ordinal));
    }

    [Fact]
    public void Jetstress_folders_hold_their_database_and_logs_directly_and_are_created_when_the_run_starts()
    {
        // Jetstress puts an instance's database directly in its DatabasePaths/Path and its logs in its LogPath (an ESRP
        // report's Database Configuration: "Log path: C:\DB\DB1 Database: C:\DB\DB1\Jetstress001001.edb").
        string db = _dir.Combine("new", "DB1"), log = _dir.Combine("new", "LOG1");
        var request = Request(p => { p.DatabaseCount = 1; p.DatabasePaths = new[] { db }; p.LogPaths = new[] { log }; }, r => { r.JetstressFolders = true; r.OutputPath = _dir.Path; });
        var plan = TestPlanner.Plan(request);
        Assert.Equal(Path.Combine(db, TestPlan.DatabaseFileName(1)), plan.Instances[0].DatabaseFile);
        Assert.Equal(log, plan.Instances[0].LogFolder);
        Assert.Equal(new[] { db, log }, plan.FoldersToCreate);
        Assert.False(Directory.Exists(_dir.Combine("new")));   // a plan writes nothing
        plan.CreateFolders();
        Assert.True(Directory.Exists(db) && Directory.Exists(log));

        // The module's single root stays a root for one database as for several; shared Jetstress folders do too.
        request.JetstressFolders = false;
        Assert.Equal(Path.Combine(db, "DB1", TestPlan.DatabaseFileName(1)), TestPlanner.Plan(request).Instances[0].DatabaseFile);
        Assert.Equal(Path.Combine(log, "DB1", "Logs"), TestPlanner.Plan(request).Instances[0].LogFolder);
        Assert.Empty(TestPlanner.Plan(request).FoldersToCreate);
    }

    [Fact]
    public void Every_folder_that_cannot_be_used_is_named_in_one_refusal_and_nothing_is_created()
    {
        string file = _dir.Combine("a-file.txt");
        File.WriteAllText(file, "x");
        var before = Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories);
        // The module's folders must exist: both missing ones are named at once.
        string a = _dir.Combine("missingA"), b = _dir.Combine("missingB");
        var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(Request(p => { p.DatabasePaths = new[] { a, b }; p.LogPaths = new[] { a, b }; })));
        Assert.Equal("PathNotFound", ex.Code);
        Assert.Contains($"'{a}'", ex.Message, StringComparison.Ordinal);
        Assert.Contains($"'{b}'", ex.Message, StringComparison.Ordinal);
        Assert.StartsWith("2 of the database and log folders cannot be used", ex.Message, StringComparison.Ordinal);

        // Jetstress's are created, unless they cannot be: beneath a file, on a drive that is not there.
        var bad = new List<string> { Path.Combine(file, "DB1"), Path.Combine(file, "LOG1") };
        if (OperatingSystem.IsWindows())
            bad.Add(Enumerable.Range('D', 23).Select(c => $"{(char)c}:\\").First(d => !Directory.Exists(d)) + "DB2");
        ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(Request(p =>
        {
            p.DatabaseCount = bad.Count;
            p.DatabasePaths = bad.ToArray();
            p.LogPaths = bad.ToArray();
        }, r => r.JetstressFolders = true)));
        Assert.Equal("PathNotFound", ex.Code);
        Assert.All(bad, folder => Assert.Contains($"'{folder}' does not exist and cannot be created", ex.Message, StringComparison.Ordinal));
        Assert.Contains($"'{file}' is a file", ex.Message, StringComparison.Ordinal);
        Assert.Equal(before, Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories));
    }

    [Fact]
    public void Plans_sizes_and_files_from_the_profile()
    {
        var plan = TestPlanner.Plan(Request());
        Assert.Equal(50, plan.TargetIops, 6);
        Assert.Equal(2, plan.Instances.Count);
        Assert.Equal(100L * 50 * 1024 * 1024 / 2, plan.Instances[0].DatabaseSizeBytes);
        Assert.Equal(Path.Combine(_dir.Path, "DB2", "ExchStorageTest002.edb"), plan.Instances[1].DatabaseFile);
        Assert.Equal(Path.Combine(_dir.Path, "DB1", "Logs"), plan.Instances[0].LogFolder);
        Assert.Equal(2 * (1 + TestPlanner.CircularLogGenerations), plan.Files().Count());
        Assert.Null(plan.ThreadCount);
        Assert.Equal("Strict", plan.Thresholds.Name);
        Assert.Equal("Lenient", TestPlanner.Plan(Request(request: r => r.TestType = TestType.Stress)).Thresholds.Name);
    }

    [Theory]
    [InlineData(30, null, 1)]      // a 30 s run: 30 samples, not 2 at the old fixed 15 s
    [InlineData(100, null, 5)]     // 20 samples
    [InlineData(7200, null, 15)]   // long runs keep Jetstress's 15 s
    [InlineData(10, null, 1)]      // never under the rule's 1 s
    [InlineData(30, 10.0, 10)]     // given: as given
    public void Picks_the_sample_interval_from_the_duration_when_none_is_given(double duration, double? given, double expected)
    {
        var plan = TestPlanner.Plan(Request(request: r => { r.DurationSeconds = duration; r.SampleIntervalSeconds = given; }));
        Assert.Equal(expected, plan.SampleIntervalSeconds);
    }

    [Fact]
    public void Headroom_raises_the_target()
    {
        Assert.Equal(60, TestPlanner.Plan(Request(p => p.HeadroomPercent = 20)).TargetIops, 6);
    }

    public static TheoryData<string, string> BadRequests => new()
    {
        { "mailboxes0", "MailboxCountOutOfRange" },
        { "mailboxesNegative", "MailboxCountOutOfRange" },
        { "iops0", "IopsPerMailboxOutOfRange" },
        { "iopsNaN", "IopsPerMailboxOutOfRange" },
        { "size0", "MailboxSizeOutOfRange" },
        { "databases0", "DatabaseCountOutOfRange" },
        { "copies0", "CopiesOutOfRange" },
        { "activePerVolume0", "ActiveCopiesPerVolumeOutOfRange" },
        { "copiesPerVolumeBelowActive", "CopiesPerVolumeOutOfRange" },
        { "copiesPerVolumeNotMultiple", "CopiesPerVolumeOutOfRange" },
        { "passiveWithoutReplication", "CopiesPerVolumeOutOfRange" },
        { "laggedAbovePassive", "LaggedCopiesPerVolumeOutOfRange" },
        { "laggedNotMultiple", "LaggedCopiesPerVolumeOutOfRange" },
        { "threads0", "ThreadCountOutOfRange" },
        { "cache", "CacheSizeInvalid" },
        { "duration0", "DurationOutOfRange" },
        { "interval0", "SampleIntervalOutOfRange" },
        { "noPath", "DatabasePathMissing" },
        { "missingPath", "PathNotFound" },
        { "fileAsPath", "PathIsFile" },
        { "pathCount", "PathCountMismatch" },
        { "tooBig", "InsufficientSpace" },
        { "tinyDb", "DatabaseTooSmall" },
        { "restoreNoPath", "RestorePathMissing" },
        { "rate", "TargetRateOutOfRange" },
    };

    [Theory]
    [MemberData(nameof(BadRequests))]
    public void Refuses_bad_input_with_a_stable_code_and_writes_nothing(string @case, string code)
    {
        string file = _dir.Combine("a-file.txt");
        File.WriteAllText(file, "x");
        var before = Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories);
        var request = @case switch
        {
            "mailboxes0" => Request(p => p.MailboxCount = 0),
            "mailboxesNegative" => Request(p => p.MailboxCount = -5),
            "iops0" => Request(p => p.IopsPerMailbox = 0),
            "iopsNaN" => Request(p => p.IopsPerMailbox = double.NaN),
            "size0" => Request(p => p.MailboxSizeMB = 0),
            "databases0" => Request(p => p.DatabaseCount = 0),
            "copies0" => Request(p => p.CopiesPerDatabase = 0),
            "activePerVolume0" => Request(p => p.ActiveCopiesPerVolume = 0),
            "copiesPerVolumeBelowActive" => Request(p => { p.CopiesPerDatabase = 4; p.ActiveCopiesPerVolume = 2; p.CopiesPerVolume = 1; }),
            "copiesPerVolumeNotMultiple" => Request(p => { p.CopiesPerDatabase = 4; p.ActiveCopiesPerVolume = 2; p.CopiesPerVolume = 3; }),
            "passiveWithoutReplication" => Request(p => { p.CopiesPerDatabase = 1; p.CopiesPerVolume = 4; }),
            "laggedAbovePassive" => Request(p => { p.CopiesPerDatabase = 4; p.CopiesPerVolume = 2; p.LaggedCopiesPerVolume = 2; }),
            "laggedNotMultiple" => Request(p => { p.CopiesPerDatabase = 4; p.ActiveCopiesPerVolume = 2; p.CopiesPerVolume = 4; p.LaggedCopiesPerVolume = 1; }),
            "threads0" => Request(p => p.ThreadCount = 0),
            "cache" => Request(p => { p.MinimumDatabaseCacheMB = 512; p.MaximumDatabaseCacheMB = 128; }),
            "duration0" => Request(request: r => r.DurationSeconds = 0),
            "interval0" => Request(request: r => r.SampleIntervalSeconds = 0),
            "noPath" => Request(p => p.DatabasePaths = Array.Empty<string>()),
            "missingPath" => Request(p => p.DatabasePaths = new[] { _dir.Combine("nope") }),
            "fileAsPath" => Request(p => p.DatabasePaths = new[] { file }),
            "pathCount" => Request(p => { p.DatabaseCount = 3; p.DatabasePaths = new[] { _dir.Path, _dir.Path }; }),
            "tooBig" => Request(p => { p.MailboxCount = 1_000_000; p.MailboxSizeMB = 1_000_000; }),
            "tinyDb" => Request(p => { p.MailboxCount = 2; p.MailboxSizeMB = 1; }),
            "restoreNoPath" => Request(request: r => r.DatabaseSource = DatabaseSource.Restore),
            "rate" => Request(request: r => r.TargetRateIops = -1),
            _ => throw new ArgumentException(@case),
        };
        var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(request));
        Assert.Equal(code, ex.Code);
        Assert.False(string.IsNullOrWhiteSpace(ex.Message));
        Assert.Equal(before, Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories));
    }

    [Fact]
    public void Error_messages_name_the_bad_value()
    {
        var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(Request(p => p.MailboxCount = -5)));
        Assert.Contains("-5", ex.Message);
        var missing = _dir.Combine("nope");
        ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(Request(p => p.DatabasePaths = new[] { missing })));
        Assert.Contains(missing, ex.Message);
        Assert.Equal(missing, ex.Target);
        Assert.Equal(ErrorCategories.ObjectNotFound, ex.Category);
    }

    public void Dispose() => _dir.Dispose();
}
