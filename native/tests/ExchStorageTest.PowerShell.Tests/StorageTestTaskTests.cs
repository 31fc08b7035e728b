using System.Collections;
using System.Management.Automation;
using System.Security;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// Register-/Unregister-StorageTestTask on Linux: the systemd units are written to a scratch -UnitPath and read
/// back, systemctl is a recording stand-in first on PATH (systemd is not PID 1 here, and a test must not touch
/// /etc/systemd). The runner script itself is run for real in RunnerScriptTests.
/// </summary>
public class StorageTestTaskTests : IClassFixture<SessionFixture>
{
    private const string RegisterCommand = "ExchStorageTest.Commands.RegisterStorageTestTaskCommand";
    private const string UnregisterCommand = "ExchStorageTest.Commands.UnregisterStorageTestTaskCommand";
    private readonly PowerShellSession _ps;

    public StorageTestTaskTests(SessionFixture fixture) => _ps = fixture.Session;

    /// <summary>A saved profile and the stand-ins (in <paramref name="fixtures"/>), and where the task goes (in <paramref name="target"/>).</summary>
    private sealed class Layout(PowerShellSession ps, ScratchFolder fixtures, ScratchFolder target)
    {
        public string ProfilePath { get; } = SaveProfile(ps, fixtures);
        public string ScriptFolder { get; } = target.Combine("tasks");
        public string UnitPath { get; } = target.Combine("units");
        public string OutputPath { get; } = target.Combine("out");

        public string ServiceFile(string name) => Path.Combine(UnitPath, $"exchstoragetest-{name}.service");
        public string TimerFile(string name) => Path.Combine(UnitPath, $"exchstoragetest-{name}.timer");
        public string RunnerFile(string name) => Path.Combine(ScriptFolder, name + ".ps1");

        private static string SaveProfile(PowerShellSession ps, ScratchFolder fixtures)
        {
            string file = fixtures.Combine("nightly.profile.json");
            var saved = ps.Run("New-MailboxProfile -Name nightly -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -ThreadCount 1 -Path $args[0] -SaveTo $args[1]", fixtures.Sub("db"), file);
            Assert.Null(saved.Error);
            return file;
        }
    }

    private Invocation Register(Layout l, string name, string? powerShell, IDictionary schedule, IDictionary? extra = null)
    {
        var parameters = new Hashtable
        {
            ["Name"] = name,
            ["ProfilePath"] = l.ProfilePath,
            ["OutputPath"] = l.OutputPath,
            ["ScriptFolder"] = l.ScriptFolder,
            ["UnitPath"] = l.UnitPath,
        };
        if (powerShell != null) parameters["PowerShellPath"] = powerShell;
        foreach (DictionaryEntry e in schedule) parameters[e.Key] = e.Value;
        if (extra != null) foreach (DictionaryEntry e in extra) parameters[e.Key] = e.Value;
        return _ps.Command("Register-StorageTestTask", parameters);
    }

    private static Hashtable DailyAt(string time) => new() { ["Daily"] = true, ["At"] = DateTime.Parse("2024-06-01 " + time, System.Globalization.CultureInfo.InvariantCulture) };
    private static readonly Hashtable Forced = new() { ["Force"] = true };

    [LinuxFact]
    public void Daily_registration_writes_a_oneshot_service_and_its_timer_then_enables_the_timer()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var l = new Layout(_ps, fixtures, target);

        var run = Register(l, "Nightly", systemctl.Pwsh, DailyAt("01:30"), new Hashtable { ["Duration"] = TimeSpan.FromHours(2), ["Force"] = true });

        Assert.Null(run.Error);
        var task = run.Single();
        Assert.Equal("ExchStorageTest.ScheduledTest", task.TypeNames[0]);
        Assert.Equal("Linux", task.Properties["Platform"].Value);
        Assert.Equal("Daily at 01:30", task.Properties["Schedule"].Value);
        Assert.Equal("root", task.Properties["Account"].Value);
        Assert.Equal(l.ServiceFile("Nightly"), task.Properties["ServiceUnit"].Value);
        Assert.Equal(l.TimerFile("Nightly"), task.Properties["TimerUnit"].Value);
        Assert.Equal(l.RunnerFile("Nightly"), task.Properties["RunnerScript"].Value);

        string service = File.ReadAllText(l.ServiceFile("Nightly"));
        Assert.Contains("\n[Service]\nType=oneshot\n", service);
        Assert.Contains($"\nExecStart=\"{systemctl.Pwsh}\" -NoProfile -NonInteractive -File \"{l.RunnerFile("Nightly")}\"\n", service);
        Assert.DoesNotContain("User=", service);
        string timer = File.ReadAllText(l.TimerFile("Nightly"));
        Assert.Contains("\nOnCalendar=*-*-* 01:30:00\n", timer);
        Assert.Contains("\nPersistent=true\nUnit=exchstoragetest-Nightly.service\n", timer);
        Assert.Contains("\n[Install]\nWantedBy=timers.target\n", timer);

        // The runner imports the module by its manifest and runs the saved profile for the given window.
        string runner = File.ReadAllText(l.RunnerFile("Nightly"));
        Assert.Equal(new byte[] { 0xEF, 0xBB, 0xBF }, File.ReadAllBytes(l.RunnerFile("Nightly"))[..3]); // Windows PowerShell 5.1 reads UTF-8 only with it
        Assert.StartsWith("# Generated by Register-StorageTestTask for the scheduled storage test 'Nightly'", runner);
        Assert.Contains($"Import-Module -Name '{PowerShellSession.ManifestPath}' -ErrorAction Stop", runner);
        Assert.Contains($"ProfilePath = '{l.ProfilePath}'", runner);
        Assert.Contains("[timespan]::Parse('02:00:00'", runner);
        Assert.Contains("Invoke-StorageTest @parameters", runner);
        Assert.Contains("exit $exitCode", runner);

        Assert.Equal(new[] { "daemon-reload", "enable --now exchstoragetest-Nightly.timer" }, systemctl.Calls);
    }

    [LinuxFact]
    public void Weekly_and_once_schedules_become_systemd_calendar_expressions()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var l = new Layout(_ps, fixtures, target);
        var at = DateTime.Parse("2031-02-03 20:05", System.Globalization.CultureInfo.InvariantCulture);

        var weekly = Register(l, "Weekend", systemctl.Pwsh, new Hashtable { ["Weekly"] = true, ["At"] = at, ["DaysOfWeek"] = new[] { DayOfWeek.Saturday, DayOfWeek.Sunday, DayOfWeek.Saturday } }, Forced);
        var once = Register(l, "Trial", systemctl.Pwsh, new Hashtable { ["Once"] = true, ["At"] = at }, Forced);

        Assert.Null(weekly.Error);
        Assert.Null(once.Error);
        Assert.Equal("Weekly on Sunday, Saturday at 20:05", weekly.Single().Properties["Schedule"].Value);
        Assert.Contains("\nOnCalendar=Sun,Sat *-*-* 20:05:00\n", File.ReadAllText(l.TimerFile("Weekend")));
        Assert.Equal("Once at 2031-02-03 20:05", once.Single().Properties["Schedule"].Value);
        Assert.Contains("\nOnCalendar=2031-02-03 20:05:00\n", File.ReadAllText(l.TimerFile("Trial")));
    }

    [LinuxFact]
    public void A_credential_runs_the_service_as_that_user_and_a_user_name_with_a_line_break_is_refused()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var l = new Layout(_ps, fixtures, target);

        var run = Register(l, "AsUser", systemctl.Pwsh, DailyAt("03:00"), new Hashtable { ["Force"] = true, ["Credential"] = Credential("svc-esrp") });
        Assert.Null(run.Error);
        Assert.Equal("svc-esrp", run.Single().Properties["Account"].Value);
        Assert.Contains("\nUser=svc-esrp\n", File.ReadAllText(l.ServiceFile("AsUser")));

        var injected = Register(l, "Injected", systemctl.Pwsh, DailyAt("03:00"), new Hashtable { ["Force"] = true, ["Credential"] = Credential("svc\nExecStartPre=/bin/rm") });
        Assert.Equal($"ExchStorageTest.InvalidUnitValue,{RegisterCommand}", injected.Error!.FullyQualifiedErrorId);
        Assert.False(File.Exists(l.ServiceFile("Injected")));
        Assert.False(File.Exists(l.RunnerFile("Injected")));
    }

    [LinuxFact]
    public void WhatIf_writes_nothing_and_calls_no_systemctl()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var l = new Layout(_ps, fixtures, target);

        var run = Register(l, "Nightly", systemctl.Pwsh, DailyAt("01:00"), new Hashtable { ["WhatIf"] = true });

        Assert.Null(run.Error);
        Assert.Empty(run.Output);
        Assert.Empty(target.Entries());
        Assert.Empty(systemctl.Calls);
    }

    [LinuxFact]
    public void An_existing_task_is_replaced_only_with_Force()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var l = new Layout(_ps, fixtures, target);
        Assert.Null(Register(l, "Nightly", systemctl.Pwsh, DailyAt("01:00"), Forced).Error);
        string timerBefore = File.ReadAllText(l.TimerFile("Nightly"));

        var again = Register(l, "Nightly", systemctl.Pwsh, DailyAt("02:00"), new Hashtable { ["Confirm"] = false });

        Assert.Equal($"ExchStorageTest.TaskExists,{RegisterCommand}", again.Error!.FullyQualifiedErrorId);
        Assert.Equal(ErrorCategory.ResourceExists, again.Error.CategoryInfo.Category);
        Assert.Equal(timerBefore, File.ReadAllText(l.TimerFile("Nightly")));
        Assert.Equal(2, systemctl.Calls.Length); // only the first registration's

        var replaced = Register(l, "Nightly", systemctl.Pwsh, DailyAt("02:00"), Forced);
        Assert.Null(replaced.Error);
        Assert.Contains("\nOnCalendar=*-*-* 02:00:00\n", File.ReadAllText(l.TimerFile("Nightly")));
    }

    [LinuxFact]
    public void A_file_at_the_runner_path_that_the_module_did_not_write_is_never_replaced()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var l = new Layout(_ps, fixtures, target);
        Directory.CreateDirectory(l.ScriptFolder);
        File.WriteAllText(l.RunnerFile("Nightly"), "Write-Output 'my own script'\n");

        var run = Register(l, "Nightly", systemctl.Pwsh, DailyAt("01:00"), Forced);

        Assert.Equal($"ExchStorageTest.TaskExists,{RegisterCommand}", run.Error!.FullyQualifiedErrorId);
        Assert.Equal("Write-Output 'my own script'\n", File.ReadAllText(l.RunnerFile("Nightly")));
        Assert.False(Directory.Exists(l.UnitPath));
        Assert.Empty(systemctl.Calls);
    }

    [LinuxFact]
    public void Unregister_disables_the_timer_and_removes_the_units_and_the_runner_bound_from_the_pipeline()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var l = new Layout(_ps, fixtures, target);
        var task = Register(l, "Nightly", systemctl.Pwsh, DailyAt("01:00"), Forced).Single();
        Directory.CreateDirectory(l.OutputPath);
        File.WriteAllText(Path.Combine(l.OutputPath, "kept.log"), "a run's log");

        var run = _ps.Run("$args[0] | Unregister-StorageTestTask -ScriptFolder $args[1] -UnitPath $args[2] -Force", task, l.ScriptFolder, l.UnitPath);

        Assert.Null(run.Error);
        Assert.Empty(run.Output);
        Assert.False(File.Exists(l.ServiceFile("Nightly")));
        Assert.False(File.Exists(l.TimerFile("Nightly")));
        Assert.False(File.Exists(l.RunnerFile("Nightly")));
        Assert.True(File.Exists(Path.Combine(l.OutputPath, "kept.log")));
        Assert.Equal(new[] { "daemon-reload", "enable --now exchstoragetest-Nightly.timer", "disable --now exchstoragetest-Nightly.timer", "daemon-reload" }, systemctl.Calls);
    }

    [LinuxFact]
    public void Unregister_of_an_unknown_name_is_TaskNotFound_and_touches_nothing()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var units = target.Sub("units");
        File.WriteAllText(Path.Combine(units, "exchstoragetest-Other.timer"), "[Timer]\n");

        var run = _ps.Run("Unregister-StorageTestTask -Name Nope -ScriptFolder $args[0] -UnitPath $args[1] -Force", target.Combine("tasks"), units);

        Assert.Equal($"ExchStorageTest.TaskNotFound,{UnregisterCommand}", run.Error!.FullyQualifiedErrorId);
        Assert.Equal(ErrorCategory.ObjectNotFound, run.Error.CategoryInfo.Category);
        Assert.Equal("Nope", run.Error.TargetObject);
        Assert.Equal(new[] { "units", Path.Combine("units", "exchstoragetest-Other.timer") }, target.Entries());
        Assert.Empty(systemctl.Calls);
    }

    [LinuxFact]
    public void Unregister_WhatIf_removes_nothing()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"));
        var l = new Layout(_ps, fixtures, target);
        Assert.Null(Register(l, "Nightly", systemctl.Pwsh, DailyAt("01:00"), Forced).Error);
        var before = target.Entries();

        var run = _ps.Run("Unregister-StorageTestTask -Name Nightly -ScriptFolder $args[0] -UnitPath $args[1] -WhatIf", l.ScriptFolder, l.UnitPath);

        Assert.Null(run.Error);
        Assert.Equal(before, target.Entries());
        Assert.Equal(2, systemctl.Calls.Length);
    }

    public static TheoryData<string, string, string> BadRegistrations => new()
    {
        // case, ErrorId, category
        { "weekly without days", "DaysOfWeekMissing", "InvalidArgument" },
        { "missing profile", "ProfileNotFound", "ObjectNotFound" },
        { "zero duration", "DurationOutOfRange", "InvalidArgument" },
        { "missing PowerShell", "PowerShellNotFound", "ObjectNotFound" },
        { "no pwsh on PATH", "PowerShellNotFound", "ObjectNotFound" },
        { "no systemctl", "SystemctlNotFound", "NotInstalled" },
    };

    [Theory]
    [MemberData(nameof(BadRegistrations))]
    public void Bad_input_is_refused_with_its_ErrorId_before_anything_is_written(string badCase, string errorId, string category)
    {
        if (!OperatingSystem.IsLinux()) return; // the systemd path; Windows registers through Task Scheduler
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        var l = new Layout(_ps, fixtures, target);
        bool systemdHere = badCase != "no systemctl";
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"), withPwsh: badCase != "no pwsh on PATH", keepPath: false);
        if (!systemdHere) File.Delete(Path.Combine(systemctl.Folder, "systemctl"));
        string? powerShell = badCase switch
        {
            "missing PowerShell" => fixtures.Combine("no", "pwsh"),
            "no pwsh on PATH" => null, // and this test host is not pwsh
            _ => systemctl.Pwsh,
        };
        IDictionary schedule = badCase == "weekly without days"
            ? new Hashtable { ["Weekly"] = true, ["DaysOfWeek"] = Array.Empty<DayOfWeek>(), ["At"] = DateTime.Now }
            : DailyAt("01:00");
        var extra = new Hashtable { ["Force"] = true };
        if (badCase == "zero duration") extra["Duration"] = TimeSpan.Zero;
        if (badCase == "missing profile") File.Delete(l.ProfilePath);

        var run = Register(l, "Nightly", powerShell, schedule, extra);

        Assert.NotNull(run.Error);
        Assert.Equal($"ExchStorageTest.{errorId},{RegisterCommand}", run.Error!.FullyQualifiedErrorId);
        Assert.Equal(category, run.Error.CategoryInfo.Category.ToString());
        Assert.Empty(target.Entries());
        Assert.Empty(systemctl.Calls);
    }

    [LinuxFact]
    public void Without_PowerShellPath_the_timer_starts_pwsh_found_on_PATH()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"), keepPath: false);
        var l = new Layout(_ps, fixtures, target);

        var run = Register(l, "Nightly", null, DailyAt("01:00"), Forced);

        Assert.Null(run.Error);
        Assert.Contains($"\nExecStart=\"{systemctl.Pwsh}\" -NoProfile", File.ReadAllText(l.ServiceFile("Nightly")));
    }

    [LinuxFact]
    public void A_failing_systemctl_is_SystemctlFailed_with_its_message()
    {
        using var fixtures = new ScratchFolder("stt");
        using var target = new ScratchFolder("stt");
        using var systemctl = new FakeSystemctl(fixtures.Combine("bin"), exitCode: 5);
        var l = new Layout(_ps, fixtures, target);

        var run = Register(l, "Nightly", systemctl.Pwsh, DailyAt("01:00"), Forced);

        Assert.Equal($"ExchStorageTest.SystemctlFailed,{RegisterCommand}", run.Error!.FullyQualifiedErrorId);
        Assert.Contains("exit code 5", run.Error.Exception.Message);
        Assert.Contains("Unit file not found", run.Error.Exception.Message);
        Assert.Equal(new[] { "daemon-reload" }, systemctl.Calls);
    }

    private static PSCredential Credential(string user)
    {
        var password = new SecureString();
        foreach (char c in "unused") password.AppendChar(c);
        return new PSCredential(user, password);
    }
}
