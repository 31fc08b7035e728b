using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Cli.Jetstress;

namespace ExchStorageTest.Engine.Tests.Jetstress;

/// <summary>
/// JetstressCmd's command line, what it makes of a configuration, and whole runs in-process (the launcher that names
/// the process JetstressCmd is tested end to end by tests/Module/JetstressCmd.Tests.ps1).
/// </summary>
public sealed class JetstressCmdTests : IDisposable
{
    private readonly TestFolder _dir = new("jscmd");

    private static EngineException Refused(Action action) => Assert.Throws<EngineException>(action);

    [Fact]
    public void Switches_take_slash_or_dash_in_any_case_and_repeat()
    {
        var line = JetstressCommandLine.Parse(new[] { "/C", "lab.jetstressconfig", "-TIMEOUT", "0h5m0s", "/dbpath", "/mnt/a", "-DbPath", "/mnt/b", "/log", "/mnt/l", "/Open", "/threads", "2", "/pctcapacity", "100", "/Throughput", "100", "/output", "." });
        Assert.Equal(("lab.jetstressconfig", 300.0, ".", true, false, 2), (line.Config, line.TimeoutSeconds, line.Output, line.Open, line.New, line.Threads));
        Assert.Equal(new[] { "/mnt/a", "/mnt/b" }, line.DatabasePaths);
        Assert.Equal(new[] { "/mnt/l" }, line.LogPaths);
        Assert.Equal((100.0, 100.0), (line.CapacityPercentage, line.ThroughputPercentage));
        Assert.False(line.PrepareOnly);
        Assert.True(JetstressCommandLine.Parse(new[] { "/c", "x.xml", "/timeout", "0H0M0S", "/new", "/threads", "0" }).PrepareOnly);
        Assert.True(JetstressCommandLine.Parse(Array.Empty<string>()).Help);
        Assert.True(JetstressCommandLine.Parse(new[] { "-?" }).Help);
    }

    [Theory]
    [InlineData("/x", "Unknown switch '/x'")]
    [InlineData("config.xml", "'config.xml' is not a switch")]
    [InlineData("/c", "/c needs a value")]
    [InlineData("/c a.xml /timeout 2:00:00", "'2:00:00' is not a length like 2H0M0S")]
    [InlineData("/c a.xml /threads two", "/threads 'two' is not a whole number")]
    [InlineData("/c a.xml /threads 0", "/threads 0 runs no threads")]
    [InlineData("/c a.xml /timeout 0H0M0S", "/timeout 0H0M0S runs no test")]
    [InlineData("/c a.xml /new /open", "/new and /open cannot be used together")]
    [InlineData("/g /c a.xml", "give one of them")]
    [InlineData("/new", "No configuration")]
    [InlineData("/c a.xml /dbpath /a /dbpath /b /dbpath /c /logpath /l /logpath /m", "2 /logpath for 3 /dbpath")]
    [InlineData("/c a.xml /pctcapacity 0", "/pctcapacity '0' is not a number above 0")]
    public void A_bad_command_line_is_refused_by_name(string args, string said)
    {
        var ex = Refused(() => JetstressCommandLine.Parse(args.Split(' ')));
        Assert.Equal(ErrorCodes.JetstressArgumentInvalid.Code, ex.Code);
        Assert.True(ex.IsRefusal);
        Assert.Contains(said, ex.Message, StringComparison.Ordinal);
    }

    private string Config(Action<JetstressConfigDraft> change)
    {
        var d = new JetstressConfigDraft { MailboxCount = 40, MailboxQuota = 1, MailboxIops = 0.5 };
        d.Instances.Add(new JetstressInstance(_dir.Sub("db1"), _dir.Sub("log1")));
        change(d);
        string path = _dir.Combine("JetstressConfig.xml");
        File.WriteAllText(path, JetstressConfigWriter.Render(d));
        return path;
    }

    private EngineRequest Request(string config, params string[] args) =>
        JetstressRequest.Build(JetstressConfig.Read(config, out _)!, JetstressCommandLine.Parse(new[] { "/c", config }.Concat(args).ToList()), _dir.Path);

    [Fact]
    public void A_configuration_becomes_the_request_the_module_would_send()
    {
        var r = Request(Config(d => { d.Type = "Stress"; d.DurationSeconds = 5400; d.ThreadCount = 3; d.DatabaseSource = "Open"; d.OutputPath = @".\Stress Results"; }));
        Assert.Equal((TestType.Stress, 5400.0, DatabaseSource.Attach, (int?)null), (r.TestType, r.DurationSeconds, r.DatabaseSource, r.ThreadCount));
        Assert.Equal(3, r.Profile.ThreadCount);
        // A relative OutputPath is the working directory's, written with Windows separators on any OS.
        Assert.Equal(Path.Combine(_dir.Path, "Stress Results"), r.OutputPath);
        Assert.Null(r.Thresholds);

        var switched = Request(Config(d => d.Type = "Performance"), "/timeout", "0H0M30S", "/threads", "2", "/new", "/output", ".", "/dbpath", "a", "/dbpath", "b", "/logpath", "l");
        Assert.Equal((30.0, DatabaseSource.Create, (int?)2, _dir.Path), (switched.DurationSeconds, switched.DatabaseSource, switched.ThreadCount, switched.OutputPath));
        Assert.Equal(new[] { _dir.Combine("a"), _dir.Combine("b") }, switched.Profile.DatabasePaths);
        Assert.Equal(new[] { _dir.Combine("l") }, switched.Profile.LogPaths);
        Assert.Equal(2, switched.Profile.DatabaseCount);

        // A backup or recovery ends when its work is done, as in Jetstress: the Duration does not bound it.
        Assert.Null(Request(Config(d => d.Type = "DatabaseBackup")).DurationSeconds);
    }

    [Fact]
    public void Latency_limits_that_differ_from_the_preset_are_kept_under_their_set_name()
    {
        var r = Request(Config(d => { d.Type = "Stress"; d.Lenient = new JetstressThresholdSet(20, 150, 10, 200); }));
        Assert.Equal(("Lenient", (double?)150, (double?)null), (r.Thresholds!.Name, r.Thresholds.MaximumDatabaseReadLatencyMs, r.Thresholds.AverageDatabaseReadLatencyMs));
        Assert.Equal(150, Thresholds.For(TestType.Stress).With(r.Thresholds).MaximumDatabaseReadLatencyMs);
    }

    [Theory]
    [InlineData("Type", "asfdsa", "JetstressConfigMalformed", "<Type>asfdsa</Type>")]
    [InlineData("Duration", "two hours", "JetstressConfigMalformed", "<Duration>two hours</Duration>")]
    [InlineData("DatabaseSource", "Restore", "JetstressConfigMalformed", "without a <RestoreBackupPath>")]
    [InlineData("DatabaseSource", "Backup", "JetstressConfigMalformed", "New, Open or Restore")]
    [InlineData("ContinueOnErrors", "yes", "JetstressConfigMalformed", "true or false")]
    [InlineData("ThroughputPercentage", "80", "JetstressSettingUnsupported", "ThroughputPercentage 80")]
    [InlineData("CapacityPercentage", "50", "JetstressSettingUnsupported", "CapacityPercentage 50 with DatabaseSizing Profile")]
    [InlineData("DatabaseSizing", "Throughput", "JetstressConfigMalformed", "<DatabaseSizing>Throughput</DatabaseSizing>")]
    public void A_setting_the_engine_cannot_run_is_refused_by_name(string element, string value, string code, string said)
    {
        string path = Config(_ => { });
        var doc = new System.Xml.XmlDocument();
        doc.Load(path);
        doc.GetElementsByTagName(element)[0]!.InnerText = value;
        doc.Save(path);
        var ex = Refused(() => Request(path));
        Assert.Equal(code, ex.Code);
        Assert.Contains(said, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Capacity_sizing_of_a_Performance_test_is_the_Throughput_test_named_Performance()
    {
        // Jetstress's disk subsystem throughput test: databases sized by CapacityPercentage of the volumes' free space,
        // the most load that passes; its files are Performance_<time>.* as the configuration's Type names them.
        var r = Request(Config(d => { d.DatabaseSizing = "Capacity"; d.CapacityPercentage = 30; d.DurationSeconds = 600; }));
        Assert.Equal((TestType.Throughput, (TestType?)TestType.Performance, 30.0, (double?)600), (r.TestType, r.ReportedAs, r.CapacityPercent, r.DurationSeconds));
        Assert.Equal("Strict", Thresholds.For(r.TestType).Name);
        // /pctcapacity overrides the configuration's percentage, as Jetstress's switch does.
        Assert.Equal(5.0, Request(Config(d => d.DatabaseSizing = "capacity"), "/pctcapacity", "5").CapacityPercent);
        // A mailbox profile test is not named otherwise.
        Assert.Null(Request(Config(_ => { })).ReportedAs);
    }

    [Theory]
    [InlineData("Stress")]
    [InlineData("DatabaseBackup")]
    [InlineData("SoftRecovery")]
    public void Capacity_sizing_of_another_test_type_is_refused_by_name(string type)
    {
        var ex = Refused(() => Request(Config(d => { d.Type = type; d.DatabaseSizing = "Capacity"; })));
        Assert.Equal(ErrorCodes.JetstressSettingUnsupported.Code, ex.Code);
        Assert.Contains($"DatabaseSizing Capacity with Type {type}", ex.Message, StringComparison.Ordinal);
        Assert.Equal("DatabaseSizing", ex.Target);
    }

    [Theory]
    [InlineData(TestType.Stress, TestType.Performance)]
    [InlineData(TestType.Performance, TestType.Throughput)]
    [InlineData(TestType.Throughput, TestType.Stress)]
    public void A_run_is_named_only_by_its_own_test_or_Jetstress_s_name_for_it(TestType type, TestType reportedAs)
    {
        var r = Request(Config(_ => { }));
        r.TestType = type;
        r.ReportedAs = reportedAs;
        var ex = Refused(() => TestPlanner.Plan(r));
        Assert.Equal(ErrorCodes.RequestMalformed.Code, ex.Code);
        Assert.Contains($"reportedAs {reportedAs} with testType {type}", ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Switches_override_the_percentages_and_are_refused_as_the_configuration_would_be()
    {
        var ex = Refused(() => Request(Config(_ => { }), "/throughput", "80"));
        Assert.Equal(ErrorCodes.JetstressSettingUnsupported.Code, ex.Code);
        // Capacity sizing drives the most load that passes: a share of it is no test the engine runs.
        var share = Refused(() => Request(Config(d => d.DatabaseSizing = "Capacity"), "/throughput", "50"));
        Assert.Equal((ErrorCodes.JetstressSettingUnsupported.Code, "ThroughputPercentage"), (share.Code, share.Target));
        Assert.NotNull(Request(Config(d => d.ThroughputPercentage = 80), "/throughput", "100"));
    }

    [Theory]
    [InlineData("JetstressCmd", true)]
    [InlineData("JetstressCmd.exe", true)]
    [InlineData("jetstresscmd.EXE", true)]
    [InlineData("exchstoragetest-engine", false)]
    [InlineData("dotnet", false)]
    public void The_helper_is_JetstressCmd_when_started_by_that_name(string file, bool expected) =>
        Assert.Equal(expected, JetstressCmd.IsInvokedAs(Path.Combine("/opt/bin", file)));

    private (int Exit, string Out, string Err) Run(params string[] args) => RunBeside(_dir.Sub("bin"), args);

    /// <summary>JetstressCmd as if installed in <paramref name="installFolder"/> (where its Jetstress.log goes).</summary>
    private (int Exit, string Out, string Err) RunBeside(string installFolder, params string[] args)
    {
        var stdout = new StringWriter();
        var stderr = new StringWriter();
        int exit = JetstressCmd.Run(args, _dir.Path, installFolder, stdout, stderr, CancellationToken.None);
        return (exit, stdout.ToString(), stderr.ToString());
    }

    /// <summary>The /g template's profile made small enough to create here, as automation edits MailboxCount and MailboxQuota.</summary>
    private static void Shrink(string config) =>
        File.WriteAllText(config, File.ReadAllText(config).Replace("<MailboxCount>100</MailboxCount>", "<MailboxCount>40</MailboxCount>", StringComparison.Ordinal)
            .Replace("<MailboxQuota>10</MailboxQuota>", "<MailboxQuota>1</MailboxQuota>", StringComparison.Ordinal));

    [Fact]
    public void Generate_then_configure_in_an_empty_folder_makes_the_folders_and_puts_the_files_where_Jetstress_does()
    {
        // An admin's first minutes: /g, then /c of that file in the same empty folder. The configuration's DB1 does not
        // exist: it is made, as the output folder is, and the database and its logs lie directly in it, as Jetstress's
        // do (an ESRP report's Database Configuration: "Log path: C:\DB\DB1 Database: C:\DB\DB1\Jetstress001001.edb").
        // JetstressCmd's own folder is read-only here (a file stands where it would be): that costs its log, not the run.
        string file = _dir.Combine("a-file");
        File.WriteAllText(file, "x");
        string readOnlyInstall = Path.Combine(file, "bin");
        Assert.Equal(0, RunBeside(readOnlyInstall, "/g").Exit);
        string config = _dir.Combine("JetstressConfig.xml");
        Shrink(config);
        Assert.False(Directory.Exists(_dir.Combine("DB1")));

        var prepare = RunBeside(readOnlyInstall, "/c", "JetstressConfig.xml", "/timeout", "0H0M0S", "/threads", "0");
        Assert.True(prepare.Exit == 0, prepare.Out + prepare.Err);
        Assert.Contains($"{Path.Combine(file, "bin", "Jetstress.log")} could not be written", prepare.Out, StringComparison.Ordinal);
        string db1 = _dir.Combine("DB1");
        Assert.Equal(new[] { Path.Combine(db1, "ExchStorageTest001.edb") }, Directory.GetFiles(db1, "*.edb", SearchOption.AllDirectories));
        Assert.NotEmpty(Directory.GetFiles(db1, "E00*.log"));
        Assert.Empty(Directory.GetDirectories(db1));

        // Jetstress.log in the output folder ("." here): every line of this start, each with its process id.
        var lines = File.ReadAllLines(_dir.Combine("Jetstress.log"));
        Assert.Contains(lines, l => l.Contains("/c JetstressConfig.xml", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains("Preparing 1 database", StringComparison.Ordinal));
        Assert.All(lines, l => Assert.Matches($@"^\d+/\d+/\d{{4}} \d+:\d\d:\d\d [AP]M -- \[pid {Environment.ProcessId}\] ", l));

        // ExchangeDsc's layout: the output folder "." is JetstressCmd's own folder; the one file is both logs, each line once.
        var again = RunBeside(_dir.Path, "/c", "JetstressConfig.xml", "/timeout", "0H0M0S", "/threads", "0", "/open");
        Assert.True(again.Exit == 0, again.Out + again.Err);
        Assert.Single(File.ReadAllLines(_dir.Combine("Jetstress.log")), l => l.Contains("/threads 0 /open", StringComparison.Ordinal));
    }

    [Fact]
    public void Folders_that_cannot_be_made_are_refused_all_at_once_and_nothing_is_written()
    {
        string file = _dir.Combine("a-file");
        File.WriteAllText(file, "x");
        string db = Path.Combine(file, "DB1"), log = Path.Combine(file, "LOG1"), db2 = _dir.Combine("fine", "DB2");
        Assert.Equal(0, Run("/g", "/dbpath", db, "/logpath", log, "/dbpath", db2, "/logpath", log).Exit);
        var before = Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories);
        var (exit, output, error) = Run("/c", "JetstressConfig.xml");
        Assert.Equal(2, exit);
        Assert.Single(error.TrimEnd().Split('\n'));
        Assert.StartsWith("JetstressCmd: PathNotFound: 2 of the database and log folders cannot be used", error, StringComparison.Ordinal);
        Assert.Contains($"'{db}' does not exist and cannot be created: '{file}' is a file", error, StringComparison.Ordinal);
        Assert.Contains($"'{log}' does not exist and cannot be created", error, StringComparison.Ordinal);
        Assert.DoesNotContain("Running the", output, StringComparison.Ordinal);
        // Nothing new: not the folder that could be made, not a log in the output folder; Jetstress.log beside JetstressCmd grew.
        Assert.Equal(before, Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories));
    }

    [Fact]
    public void A_refusal_exits_2_with_one_line_on_standard_error_and_writes_nothing()
    {
        string config = JetstressSamples.BlankTemplate(_dir.Sub("cfg"));
        _dir.Sub("bin");
        var before = Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories).Length;
        var (exit, output, error) = Run("/c", config);
        Assert.Equal(2, exit);
        Assert.Single(error.TrimEnd().Split('\n'));
        Assert.StartsWith("JetstressCmd: JetstressConfigMalformed: ", error, StringComparison.Ordinal);
        Assert.Contains("<MailboxCount>", error, StringComparison.Ordinal);
        Assert.Contains("Error JetstressConfigMalformed", output, StringComparison.Ordinal);
        // Jetstress.log (beside JetstressCmd: here the "bin" folder) is all that was written.
        Assert.Equal(before + 1, Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories).Length);
        Assert.Contains("JetstressConfigMalformed", File.ReadAllText(_dir.Combine("bin", "Jetstress.log")), StringComparison.Ordinal);
    }

    [Fact]
    public void Help_says_every_switch_and_the_log_says_JetstressCmd_ran()
    {
        var (exit, output, error) = Run();
        Assert.Equal(0, exit);
        Assert.Empty(error);
        foreach (var s in new[] { "/?", "/c", "/g", "/timeout", "/output", "/dbpath", "/logpath", "/new", "/open", "/threads", "/pctcapacity", "/throughput" })
            Assert.Contains(s, output, StringComparison.Ordinal);
        Assert.True(File.Exists(_dir.Combine("bin", "Jetstress.log")));
    }

    [Fact]
    public void Generate_replaces_its_own_file_and_never_anyone_elses()
    {
        string path = _dir.Combine("JetstressConfig.xml");
        Assert.Equal(0, Run("/g").Exit);
        Assert.Equal(0, Run("/g", "/timeout", "0H0M9S").Exit);
        Assert.Contains("<Duration>P0Y0M0DT0H0M9S</Duration>", File.ReadAllText(path), StringComparison.Ordinal);
        // Jetstress's own file (or a user's) stays as it is.
        string theirs = File.ReadAllText(path).Replace("ExchStorageTest 0.", "15.0.995.", StringComparison.Ordinal);
        File.WriteAllText(path, theirs);
        var again = Run("/g");
        Assert.Equal(2, again.Exit);
        Assert.StartsWith("JetstressCmd: FileExists: ", again.Err, StringComparison.Ordinal);
        Assert.Equal(theirs, File.ReadAllText(path));
    }

    [Fact]
    public void Generate_then_prepare_then_run_as_lab_scripts_do()
    {
        // /g into the working directory, as the Azure Stack template runs it; then austinmccollum's two steps: create the
        // databases and stop, then open them and test.
        // The folders do not exist yet: JetstressCmd makes them.
        string db = _dir.Combine("E", "DB1"), log = _dir.Combine("F", "LOG1");
        var g = Run("/g", "/dbpath", db, "/logpath", log, "/output", ".", "/new", "/timeout", "0H0M3S", "/threads", "2");
        Assert.Equal(0, g.Exit);
        string config = _dir.Combine("JetstressConfig.xml");
        Assert.True(File.Exists(config));
        // Small enough to run here: the template's profile edited as automation edits it.
        Shrink(config);

        var prepare = Run("/c", config, "/timeout", "0H0M0S", "/new", "/threads", "0");
        Assert.True(prepare.Exit == 0, prepare.Out + prepare.Err);
        Assert.Contains("created", prepare.Out, StringComparison.Ordinal);
        // Where Jetstress puts them: the database directly in its folder, the logs directly in theirs.
        Assert.Equal(new[] { Path.Combine(db, "ExchStorageTest001.edb") }, Directory.GetFiles(db, "*.edb", SearchOption.AllDirectories));
        Assert.NotEmpty(Directory.GetFiles(log, "E00*.log"));
        Assert.Empty(Directory.GetFiles(_dir.Path, "Performance*"));

        var run = Run("/c", config, "/open", "/threads", "2");
        Assert.True(run.Exit == 0, run.Out + run.Err);
        Assert.Empty(run.Err);
        Assert.Contains("Attaching databases", run.Out, StringComparison.Ordinal);
        var html = Assert.Single(Directory.GetFiles(_dir.Path, "Performance*.html"));
        Assert.Matches(@"Performance(_\d+){6}\.html$", html);
        Assert.Single(Directory.GetFiles(_dir.Path, "Performance*.xml"));
        Assert.Single(Directory.GetFiles(_dir.Path, "Performance*.json"));
        Assert.Matches(@"Overall Test Result: (Pass|Fail) \(Complete\)", run.Out);
        // Both starts' lines in the output folder's Jetstress.log, as in the one beside JetstressCmd.
        Assert.Contains("Overall Test Result", File.ReadAllText(_dir.Combine("Jetstress.log")), StringComparison.Ordinal);
        Assert.Contains("Preparing 1 database", File.ReadAllText(_dir.Combine("Jetstress.log")), StringComparison.Ordinal);
    }

    [Fact]
    public void Thirty_two_instances_over_four_folders_run_as_thirty_two_databases()
    {
        // austinmccollum's template (PS-solutions @ ef323e0): 32 instances over 4 database and 4 log folders, here on this
        // disk, small, and sized by the profile: its DatabaseSizing Capacity at 100% would fill this disk (that sizing plans
        // in JetstressConfigTests and runs, at a small percentage, in Capacity_sizing_runs_as_Jetstress_names_it).
        var folders = Enumerable.Range(1, 4).Select(n => (Db: _dir.Sub($"DAG1-DB{n}.db"), Log: _dir.Sub($"DAG1-DB{n}.log"))).ToList();
        string config = JetstressSamples.Austin(_dir.Sub("automation"), n => folders[n - 1]);
        Assert.Equal(TestType.Throughput, Request(config).TestType);
        File.WriteAllText(config, File.ReadAllText(config).Replace("<DatabaseSizing>Capacity</DatabaseSizing>", "<DatabaseSizing>Profile</DatabaseSizing>", StringComparison.Ordinal)
            .Replace("<MailboxCount>3000</MailboxCount>", "<MailboxCount>320</MailboxCount>", StringComparison.Ordinal)
            .Replace("<MailboxQuota>200</MailboxQuota>", "<MailboxQuota>3</MailboxQuota>", StringComparison.Ordinal));

        var prepare = Run("/c", config, "/timeout", "0H0M0S", "/new", "/threads", "0");
        Assert.True(prepare.Exit == 0, prepare.Out + prepare.Err);
        var databases = folders.SelectMany(f => Directory.GetFiles(f.Db, "*.edb", SearchOption.AllDirectories)).ToList();
        Assert.Equal(32, databases.Count);
        // Each shared folder holds its eight databases, each in a DB<n> folder of its own; their logs likewise.
        Assert.All(folders, f => Assert.Equal(8, Directory.GetDirectories(f.Db).Length));
        Assert.All(folders, f => Assert.Equal(8, Directory.GetDirectories(f.Log).Length));
        Assert.Equal(32, folders.SelectMany(f => Directory.GetDirectories(f.Log)).SelectMany(d => Directory.GetFiles(Path.Combine(d, "Logs"), "E00*.log")).GroupBy(Path.GetDirectoryName).Count());

        // The configuration's OutputPath "." is the working directory's.
        var run = Run("/c", config, "/timeout", "0H0M3S", "/open", "/threads", "2");
        Assert.True(run.Exit == 0, run.Out + run.Err);
        var results = Results.ResultsFile.Load(Assert.Single(Directory.GetFiles(_dir.Path, "Performance*.json")));
        Assert.Equal(32, results.Instances.Count);
        Assert.Equal(32, results.Instances.Select(i => i.DatabasePath).Distinct().Count());
    }

    [Fact]
    public void Capacity_sizing_runs_as_Jetstress_names_it()
    {
        // A configuration with DatabaseSizing Capacity and Type Performance, run as ExchangeDsc's ExchJetstress runs it
        // (/c, the working directory the output folder "."): the engine's Throughput test, its files Performance_<time>.*.
        string db = _dir.Sub("DB1"), log = _dir.Sub("LOG1");
        // A share of this volume's free space that makes a database of about 32 MiB, whatever the volume (4 decimals).
        long free = VolumeSpace.Of(db).FreeBytes;
        double pct = Math.Max(0.0001, Math.Round(100.0 * (40L << 20) / free, 4));
        string config = Config(d =>
        {
            d.DatabaseSizing = "Capacity";
            d.CapacityPercentage = pct;
            d.OutputPath = ".";
            d.Instances.Clear();
            d.Instances.Add(new JetstressInstance(db, log));
        });
        var run = Run("/c", config, "/timeout", "0H0M3S");
        Assert.True(run.Exit == 0, run.Out + run.Err);
        Assert.Contains("Running the Performance test with DatabaseSizing Capacity (the engine's Throughput test", run.Out, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFiles(_dir.Path, "Throughput*"));
        var results = Results.ResultsFile.Load(Assert.Single(Directory.GetFiles(_dir.Path, "Performance*.json")));
        Assert.Equal((TestType.Throughput, (TestType?)TestType.Performance, (double?)pct), (results.TestType, results.ReportedAs, results.Sizing.CapacityPercent));
        Assert.NotEqual(TuningOutcomes.NotRun, results.TuningOutcome);

        // ExchangeDsc's Test-JetstressSuccessful (dsccommunity/ExchangeDsc @ d8010f4, DSC_ExchJetstress.psm1): the newest
        // Performance*.html; the line after each label, between its first '>' and its last '<'.
        string html = Directory.GetFiles(_dir.Path, "Performance*.html").OrderByDescending(File.GetLastWriteTimeUtc).First();
        Assert.Matches(@"Performance(_\d+){6}\.html$", html);
        var lines = File.ReadAllLines(html);
        string Cell(string label)
        {
            int i = Array.FindIndex(lines, l => l.Contains($"<td class=\"grid_row_header\">{label}</td>", StringComparison.Ordinal));
            Assert.True(i >= 0, $"{label} is not in {html}");
            string next = lines[i + 1];
            int start = next.IndexOf('>') + 1;
            return next[start..next.LastIndexOf('<')];
        }
        Assert.Equal(results.Verdict.Result, Cell("Overall Test Result"));
        Assert.Contains(Cell("Overall Test Result"), new[] { "Pass", "Fail" });
        Assert.Equal(Math.Round((decimal)results.Sizing.AchievedTransactionalIops, 0), Math.Round(decimal.Parse(Cell("Achieved Transactional I/O per Second"), System.Globalization.CultureInfo.InvariantCulture), 0));
        Assert.True(results.Sizing.AchievedTransactionalIops > 0);
        Assert.Contains("Performance Test Report", File.ReadAllText(html), StringComparison.Ordinal);

        // The Azure Stack template's xJetstressUploadResult (Azure/AzureStack-QuickStart-Templates @ 989b052): the one
        // Performance*.xml, database-sizing's Capacity Percentage and Throughput Percentage.
        var xml = System.Xml.Linq.XDocument.Load(Assert.Single(Directory.GetFiles(_dir.Path, "Performance*.xml")));
        string Sizing(string name) => xml.Root!.Element("database-sizing")!.Elements("element").Single(e => (string?)e.Attribute("name") == name).Attribute("value")!.Value;
        Assert.Equal(pct, double.Parse(Sizing("Capacity Percentage"), System.Globalization.CultureInfo.InvariantCulture));
        Assert.Equal("100", Sizing("Throughput Percentage"));
        Assert.Equal("Performance", (string?)xml.Root!.Attribute("test-type"));
        Assert.Equal(results.Verdict.Result, xml.Root!.Element("test-summary")!.Elements("element").Single(e => (string?)e.Attribute("name") == "Overall Test Result").Attribute("value")!.Value);
    }

    public void Dispose() => _dir.Dispose();
}
