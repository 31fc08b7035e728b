using ExchStorageTest.Engine.Cli.Jetstress;

namespace ExchStorageTest.Engine.Tests.Jetstress;

/// <summary>
/// The one JetstressConfig.xml reader (the contract's, for New-MailboxProfile -JetstressConfig and JetstressCmd /c) over
/// every kind of file automation hands it: each with a defined outcome (docs/jetstress.md, "Configurations").
/// </summary>
public sealed class JetstressConfigTests : IDisposable
{
    private readonly TestFolder _dir = new("jsconfig");

    private static MailboxProfile Profile(string path)
    {
        var config = JetstressConfig.Read(path, out var violation);
        Assert.Null(violation);
        var profile = config!.ToProfile(out violation);
        Assert.Null(violation);
        return profile!;
    }

    private static Violation Refusal(string path)
    {
        var config = JetstressConfig.Read(path, out var violation);
        if (config is not null) config.ToProfile(out violation);
        return Assert.IsType<Violation>(violation);
    }

    [Theory]
    [InlineData("P0Y0M0DT2H0M0S", 7200)]
    [InlineData("P0Y0M1DT0H0M0S", 86400)]
    [InlineData("P0Y0M0DT25H0M0S", 90000)]          // unnormalised hours (JetEdit writes what it is given)
    [InlineData("P0Y0M0DT0H90M0S", 5400)]
    [InlineData("PT90M", 5400)]
    [InlineData("pt1.5s", 1.5)]
    [InlineData(" P1D ", 86400)]
    [InlineData("P0Y1M0DT0H0M0S", 30 * 86400)]     // a month is 30 days, a year 365, as SoapDuration reads them
    public void Durations_are_read_leniently(string text, double seconds) =>
        Assert.Equal(seconds, JetstressDuration.ParseXsDuration(text));

    [Theory]
    [InlineData("")]
    [InlineData("P")]
    [InlineData("PT")]
    [InlineData("P1DT")]
    [InlineData("2H0M0S")]
    [InlineData("-P1D")]
    [InlineData("PT1H30")]
    [InlineData("two hours")]
    public void What_is_no_duration_is_refused(string text) => Assert.Null(JetstressDuration.ParseXsDuration(text));

    [Theory]
    [InlineData("2H0M0S", 7200)]
    [InlineData("0H40M0S", 2400)]
    [InlineData("0h5m0s", 300)]
    [InlineData("90M", 5400)]
    [InlineData("0H0M0S", 0)]
    [InlineData("0H0M10S", 10)]
    public void Timeouts_read_as_JetstressCmd_takes_them(string text, double seconds) =>
        Assert.Equal(seconds, JetstressDuration.ParseTimeout(text));

    [Theory]
    [InlineData("")]
    [InlineData("2:00:00")]
    [InlineData("H")]
    [InlineData("2H0M0")]
    public void What_is_no_timeout_is_refused(string text) => Assert.Null(JetstressDuration.ParseTimeout(text));

    [Fact]
    public void The_blank_template_is_refused_by_name()
    {
        // jacobklitzke's template: its script fills in the mailbox figures before it runs JetstressCmd.
        var v = Refusal(JetstressSamples.BlankTemplate(_dir.Path));
        Assert.Equal(ErrorCodes.JetstressConfigMalformed, v.Code);
        Assert.Contains("has no <MailboxCount> value", v.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void The_JetTest_profile_reads_with_its_four_databases_and_tuning()
    {
        var p = Profile(JetstressSamples.JetTestHm(_dir.Path));
        Assert.Equal((300, 1.0, 100L, 3, 4), (p.MailboxCount, p.IopsPerMailbox, p.MailboxSizeMB, p.CopiesPerDatabase, p.DatabaseCount));
        Assert.Null(p.ThreadCount); // SuppressTuning false: Jetstress tunes, and so does the engine
        Assert.Equal(new[] { @"E:\db1\db", @"E:\db2\db", @"E:\db3\db", @"E:\db4\db" }, p.DatabasePaths);
        Assert.Equal(new[] { @"E:\db1\log", @"E:\db2\log", @"E:\db3\log", @"E:\db4\log" }, p.LogPaths);
        Assert.Equal("JetstressConfig-HM", p.Name);
        Assert.Equal(0, p.HeadroomPercent);
    }

    [Fact]
    public void The_32_instances_over_4_folders_keep_every_instance_and_its_folder()
    {
        var p = Profile(JetstressSamples.Austin(_dir.Path));
        Assert.Equal((3000, 1.0, 200L, 2, 2), (p.MailboxCount, p.IopsPerMailbox, p.MailboxSizeMB, p.CopiesPerDatabase, p.ThreadCount ?? 0));
        Assert.Equal(32, p.DatabaseCount);
        Assert.Equal(4, p.DatabasePaths.Distinct().Count());
        Assert.Equal(4, p.LogPaths.Distinct().Count());
        Assert.Null(ProfileRules.Check(p)); // a valid profile: the plan gives each database its own folder (TestPlannerTests)
    }

    [Fact]
    public void What_JetEdit_writes_reads_too()
    {
        // us-ascii, no namespace declarations, an unnormalised duration, a .jetstressconfig extension.
        string path = JetstressSamples.JetEdit(_dir.Path, "P0Y0M0DT0H1500M0S");
        Assert.StartsWith("<?xml version='1.0' encoding='us-ascii'?>", File.ReadAllText(path), StringComparison.Ordinal);
        var config = JetstressConfig.Read(path, out var violation);
        Assert.Null(violation);
        Assert.Equal(1500 * 60, JetstressDuration.ParseXsDuration(config!.Duration));
        Assert.Equal(300, Profile(path).MailboxCount);
    }

    [Fact]
    public void A_calculator_export_is_no_configuration()
    {
        var v = Refusal(JetstressSamples.ServersCsv(_dir.Path));
        Assert.Equal(ErrorCodes.JetstressConfigMalformed, v.Code);
        Assert.Contains("is not valid XML", v.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_missing_file_and_a_non_number_are_refused_by_name()
    {
        Assert.Equal(ErrorCodes.JetstressConfigNotFound, Refusal(_dir.Combine("nope.xml")).Code);
        string path = JetstressSamples.JetTestHm(_dir.Path);
        File.WriteAllText(path, File.ReadAllText(path).Replace("<MailboxCount>300</MailboxCount>", "<MailboxCount>many</MailboxCount>", StringComparison.Ordinal));
        var v = Refusal(path);
        Assert.Equal(ErrorCodes.MailboxCountOutOfRange, v.Code);
        Assert.Contains("'many'", v.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void What_g_writes_reads_back_to_the_same_values()
    {
        var draft = new JetstressConfigDraft
        {
            Generator = "ExchStorageTest 0.1.0", Type = "Stress", Description = "lab 4", DurationSeconds = 90000, OutputPath = @".\Stress Results",
            ThreadCount = 3, DatabaseSource = "Open", MailboxCount = 2500, MailboxQuota = 2048, MailboxIops = 0.1608, DatabaseCopyCount = 2,
            RunDatabaseMaintenance = false, LogFilesToReplay = 20,
        };
        draft.Instances.Add(new JetstressInstance(@"C:\DB\DB1", @"C:\Logs\DB1"));
        draft.Instances.Add(new JetstressInstance(@"C:\DB\DB2", @"C:\Logs\DB2"));
        string path = _dir.Combine("JetstressConfig.xml");
        File.WriteAllText(path, JetstressConfigWriter.Render(draft));

        var config = JetstressConfig.Read(path, out _)!;
        Assert.Equal(("Stress", 90000.0, @".\Stress Results", "Open", "Profile", "100", "100", "20"),
            (config.Type, JetstressDuration.ParseXsDuration(config.Duration), config.OutputPath, config.DatabaseSource, config.DatabaseSizing, config.CapacityPercentage, config.ThroughputPercentage, config.LogFilesToReplay));
        Assert.Equal("P0Y0M1DT1H0M0S", config.Duration);
        var p = Profile(path);
        Assert.Equal((2500, 0.1608, 2048L, 2, 3, false, "lab 4"), (p.MailboxCount, p.IopsPerMailbox, p.MailboxSizeMB, p.CopiesPerDatabase, p.ThreadCount ?? 0, p.BackgroundMaintenance, p.Description));
        Assert.Equal(new[] { @"C:\DB\DB1", @"C:\DB\DB2" }, p.DatabasePaths);
        Assert.Equal(new[] { @"C:\Logs\DB1", @"C:\Logs\DB2" }, p.LogPaths);
        Assert.Equal("20", config.Thresholds["Strict"]["AverageDatabaseReadLatency"]);
        Assert.Equal("200", config.Thresholds["Lenient"]["MaximumLogWriteLatency"]);
    }

    [Fact]
    public void The_generated_file_has_every_element_automation_edits_in_Jetstress_nesting()
    {
        var draft = new JetstressConfigDraft { MailboxCount = 1, MailboxQuota = 1, MailboxIops = 1 };
        draft.Instances.Add(new JetstressInstance(@"D:\DB1", @"E:\Log1"));
        var doc = System.Xml.Linq.XDocument.Parse(JetstressConfigWriter.Render(draft));
        var configuration = doc.Root!;
        Assert.Equal("configuration", configuration.Name.LocalName);
        // The Azure Stack template (Azure/AzureStack-QuickStart-Templates @ 989b052, JetstressWorkload.zip,
        // xJetstressTest.psm1) sets these on $x.configuration.ExchangeProfile and .TestDesignInfo: each must exist.
        foreach (var element in new[] { "MailboxCount", "MailboxIops", "MailboxQuota", "DatabaseSizing", "ThroughputPercentage", "CapacityPercentage", "ThreadCount", "DatabaseSource" })
            Assert.NotNull(configuration.Element("ExchangeProfile")!.Element(element));
        foreach (var element in new[] { "SuppressTuning", "Type", "Description", "Duration", "OutputPath" })
            Assert.NotNull(configuration.Element("TestDesignInfo")!.Element(element));
        // ExchangeDsc's ExchJetstressCleanup (dsccommunity/ExchangeDsc @ d8010f4, DSC_ExchJetstressCleanup.psm1) reads
        // configuration.ExchangeProfile.EseInstances.EseInstance.DatabasePaths.Path and .LogPath.
        var instance = configuration.Element("ExchangeProfile")!.Element("EseInstances")!.Element("EseInstance")!;
        Assert.Equal(@"D:\DB1", instance.Element("DatabasePaths")!.Element("Path")!.Value);
        Assert.Equal(@"E:\Log1", instance.Element("LogPath")!.Value);
        Assert.Equal("1", instance.Attribute("IopsBias")!.Value);
    }

    [RealClientsFact]
    public void The_saved_real_configurations_read_as_their_shapes_do()
    {
        string folder = RealClientsFactAttribute.Folder!;
        var blank = Refusal(Path.Combine(folder, "jacobklitzke_Jetstress-Test-Automation_JetstressConfig.xml"));
        Assert.Equal(ErrorCodes.JetstressConfigMalformed, blank.Code);
        Assert.Contains("<MailboxCount>", blank.Message, StringComparison.Ordinal);
        var hm = Profile(Path.Combine(folder, "TheOtherOtherOperation_JetTest_JetstressConfig-HM.xml"));
        Assert.Equal((300, 1.0, 100L, 3, 4), (hm.MailboxCount, hm.IopsPerMailbox, hm.MailboxSizeMB, hm.CopiesPerDatabase, hm.DatabaseCount));
        Assert.Null(hm.ThreadCount);
        var austin = Profile(Path.Combine(folder, "austinmccollum_PS-solutions_JetstressConfig.xml"));
        Assert.Equal((3000, 200L, 2, 2, 32), (austin.MailboxCount, austin.MailboxSizeMB, austin.CopiesPerDatabase, austin.ThreadCount ?? 0, austin.DatabaseCount));
        Assert.Equal(4, austin.DatabasePaths.Distinct().Count());
        // Its DatabaseSizing Capacity at 100% with Type Performance: the engine's Throughput test, named Performance. The
        // real file with its F:\ folders made this host's: 32 databases over the 4 folders, each sized by the volume, plan.
        string real = File.ReadAllText(Path.Combine(folder, "austinmccollum_PS-solutions_JetstressConfig.xml"));
        for (int n = 1; n <= 4; n++)
            real = real.Replace($@"F:\ExchangeDBs\DAG1-DB{n}\DAG1-DB{n}.db", _dir.Sub($"DAG1-DB{n}.db"), StringComparison.Ordinal)
                .Replace($@"F:\ExchangeDBs\DAG1-DB{n}\DAG1-DB{n}.log", _dir.Sub($"DAG1-DB{n}.log"), StringComparison.Ordinal);
        string local = _dir.Combine("austin.xml");
        File.WriteAllText(local, real);
        var request = JetstressRequest.Build(JetstressConfig.Read(local, out _)!, JetstressCommandLine.Parse(new[] { "/c", local }), _dir.Path);
        Assert.Equal((TestType.Throughput, (TestType?)TestType.Performance, 100.0), (request.TestType, request.ReportedAs, request.CapacityPercent));
        // Planned at half the free space: the layout is what this proves, and other tests write to the same volume
        // meanwhile (the share is taken from the free space twice, sizing and checking).
        request.CapacityPercent = 50;
        var plan = ExchStorageTest.Engine.Planning.TestPlanner.Plan(request);
        Assert.Equal(32, plan.Instances.Count);
        Assert.Equal(32, plan.Instances.Select(i => i.DatabaseFile).Distinct().Count());
        Assert.Equal(4, plan.Instances.Select(i => Path.GetDirectoryName(i.DatabaseFolder)).Distinct().Count());
        Assert.All(plan.Instances, i => Assert.True(i.DatabaseSizeBytes >= 64L * ExchStorageTest.Engine.Planning.TestPlan.PageSize));
        Assert.Equal(ErrorCodes.JetstressConfigMalformed, Refusal(Path.Combine(folder, "dsccommunity_ExchangeDsc_Servers.csv")).Code);
    }

    public void Dispose() => _dir.Dispose();
}
