using System.Collections.Generic;
using System.Linq;
using System.Management.Automation.Runspaces;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;
using ExchStorageTest.MultiHost;
using ExchStorageTest.Profiles;
using ExchStorageTest.Runs;
using ExchStorageTest.Suite;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Invoke-StorageTest: runs a Jetstress-style storage test for a mailbox profile. The command binds its parameters,
    /// refuses combinations PowerShell alone can judge, and hands each profile to a run: <see cref="LocalRun"/> (also
    /// -AsJob and -StartFile), <see cref="SuiteRun"/> (-TestType EsrpSuite) or <see cref="MultiHostRun"/>
    /// (-ComputerName, -Session). Every setting's rule is the engine's, checked by the engine's plan.
    /// </summary>
    [Cmdlet(VerbsLifecycle.Invoke, "StorageTest", HelpUri = HelpLinks.InvokeStorageTest, DefaultParameterSetName = ProfileSet, SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Medium)]
    [OutputType(typeof(TestResult))]
    [OutputType(typeof(Job))]
    [OutputType(typeof(AggregateResult))]
    [OutputType(typeof(SuiteResult))]
    public sealed class InvokeStorageTestCommand : StorageTestCmdlet
    {
        private const string ProfileSet = "Profile";
        private const string ProfilePathSet = "ProfilePath";
        private const string ComputerNameSet = "ComputerName";
        private const string SessionSet = "Session";
        private const string StartFileSet = "StartFile";

        private readonly List<object> _profiles = new List<object>();
        private readonly List<string> _databasePaths = new List<string>();
        private readonly List<string> _logPaths = new List<string>();
        private MultiHostRun? _multiHost;

        [Parameter(Mandatory = true, ParameterSetName = ProfileSet, ValueFromPipeline = true)]
        [Parameter(ParameterSetName = ComputerNameSet, ValueFromPipeline = true)]
        [Parameter(ParameterSetName = SessionSet, ValueFromPipeline = true)]
        [Parameter(ParameterSetName = StartFileSet, ValueFromPipeline = true)]
        [Alias("Profile")]
        public PSObject? MailboxProfile { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ProfilePathSet)]
        [Parameter(ParameterSetName = ComputerNameSet)]
        [Parameter(ParameterSetName = SessionSet)]
        [Parameter(ParameterSetName = StartFileSet)]
        public string? ProfilePath { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ComputerNameSet)]
        [ValidateNotNullOrEmpty]
        public string[]? ComputerName { get; set; }

        [Parameter(ParameterSetName = ComputerNameSet)]
        [Credential]
        public PSCredential? Credential { get; set; }

        [Parameter(ParameterSetName = ComputerNameSet)]
        public SwitchParameter UseSSH { get; set; }

        /// <summary>-UseSSH: the user to log on as on every host (New-PSSession -UserName).</summary>
        [Parameter(ParameterSetName = ComputerNameSet)]
        [ValidateNotNullOrEmpty]
        public string? UserName { get; set; }

        /// <summary>-UseSSH: the private key file to authenticate with (New-PSSession -KeyFilePath).</summary>
        [Parameter(ParameterSetName = ComputerNameSet)]
        [ValidateNotNullOrEmpty]
        public string? KeyFilePath { get; set; }

        /// <summary>The port on every host: SSH's (default 22) with -UseSSH, else WinRM's (default 5985).</summary>
        [Parameter(ParameterSetName = ComputerNameSet)]
        public int Port { get; set; }

        /// <summary>-UseSSH: SSH options for every connection, ssh_config keywords and values (New-PSSession -Options).</summary>
        [Parameter(ParameterSetName = ComputerNameSet)]
        public System.Collections.Hashtable? SSHOptions { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = SessionSet)]
        [ValidateNotNullOrEmpty]
        public PSSession[]? Session { get; set; }

        [Parameter]
        public DateTime StartAtUtc { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = StartFileSet)]
        [ValidateNotNullOrEmpty]
        public string? StartFile { get; set; }

        [Parameter(ParameterSetName = StartFileSet)]

        [TimeSpanArgument]
        public TimeSpan StartFileTimeout { get; set; }

        [Parameter]
        [ValidateSet(nameof(Contract.TestType.Performance), nameof(Contract.TestType.Stress), nameof(Contract.TestType.DatabaseBackup), nameof(Contract.TestType.SoftRecovery),
            nameof(Contract.TestType.Throughput), nameof(Contract.TestType.Capacity), SuiteRun.TestTypeName)]
        public string TestType { get; set; } = RunDefaults.TestType.ToString();

        [Parameter]

        [TimeSpanArgument]
        public TimeSpan Duration { get; set; }

        /// <summary>EsrpSuite: the Stress test's window when it is not -Duration (ESRP: 24 hours).</summary>
        [Parameter]
        [TimeSpanArgument]
        public TimeSpan StressDuration { get; set; }

        [Parameter]
        public string? OutputPath { get; set; }

        [Parameter]
        [ValidateSet(nameof(Contract.DatabaseSource.Create), nameof(Contract.DatabaseSource.Attach), nameof(Contract.DatabaseSource.Restore))]
        public string DatabaseSource { get; set; } = RunDefaults.DatabaseSource.ToString();

        [Parameter]
        public string? RestoreFromPath { get; set; }

        [Parameter(ValueFromPipelineByPropertyName = true)]
        [Alias("EdbFilePath")]
        public object[]? DatabasePath { get; set; }

        [Parameter(ValueFromPipelineByPropertyName = true)]
        [Alias("LogFolderPath")]
        public object[]? LogPath { get; set; }

        [Parameter]
        public int ThreadCount { get; set; }

        [Parameter]
        public double TargetRateIops { get; set; }

        [Parameter]
        public object? Thresholds { get; set; }

        [Parameter]
        public SwitchParameter ContinueOnError { get; set; }

        [Parameter]
        public double SampleIntervalSeconds { get; set; }

        [Parameter]

        [TimeSpanArgument]
        public TimeSpan Warmup { get; set; }

        [Parameter]
        public int LogFilesToReplay { get; set; }

        [Parameter]
        public double CapacityPercent { get; set; }

        [Parameter]
        public int CompressibilityPercent { get; set; }

        [Parameter]
        public int DuplicatePercent { get; set; }

        [Parameter]
        public SwitchParameter AllowBufferedIo { get; set; }

        /// <summary>Run on storage the platform pre-flight refuses as unsupported for Exchange (labs that know).</summary>
        [Parameter]
        public SwitchParameter AllowUnsupportedPlatform { get; set; }

        [Parameter]
        public SwitchParameter NoCpuAffinity { get; set; }

        /// <summary>A failure-mode window's start, into the measured window (docs/failure-mode.md).</summary>
        [Parameter]
        [TimeSpanArgument]
        public TimeSpan FaultAt { get; set; }

        /// <summary>The longest the declared fault may take, recovery included (default 60 s).</summary>
        [Parameter]
        [TimeSpanArgument]
        public TimeSpan FaultLength { get; set; }

        /// <summary>The script that causes the fault at FaultAt; one host of a run starts it.</summary>
        [Parameter]
        public string? FaultScript { get; set; }

        /// <summary>The longest a volume may stall (I/O outstanding, nothing completing) before the run fails (default 20 s).</summary>
        [Parameter]
        [TimeSpanArgument]
        public TimeSpan StallLimit { get; set; }

        /// <summary>A spare folder (an AutoReseed spare volume's) a reseed streams a database copy onto through the fault window.</summary>
        [Parameter]
        public string? ReseedPath { get; set; }

        [Parameter]
        public SwitchParameter AsJob { get; set; }

        [Parameter]
        public SwitchParameter Force { get; set; }

        private bool Bound(string name) => MyInvocation.BoundParameters.ContainsKey(name);

        // -MailboxProfile as an argument (bound before the pipeline's first item), which is kept once.
        private PSObject? _argumentProfile;

        protected override void BeginProcessing()
        {
            base.BeginProcessing();
            _argumentProfile = Bound(nameof(MailboxProfile)) ? MailboxProfile : null;
        }

        protected override void ProcessRecord() => Guard(() =>
        {
            // A profile given as an argument is the same object on every pipeline input (the databases of
            // Get-MailboxDatabase): one run. Each profile piped in is a run of its own, one after the other, the same
            // object piped twice too ($p, $p: two runs, as a repeated measurement is asked for).
            if (MailboxProfile == null) { }
            else if (!ReferenceEquals(MailboxProfile, _argumentProfile)) _profiles.Add(MailboxProfile);
            else if (!_profiles.Contains(MailboxProfile)) _profiles.Add(MailboxProfile);
            foreach (string path in PathInput.ToStrings(DatabasePath)) _databasePaths.Add(PathInput.DatabaseFolder(ResolvePath(path)));
            foreach (string path in PathInput.ToStrings(LogPath)) _logPaths.Add(ResolvePath(path));
        });

        protected override void EndProcessing() => Guard(() =>
        {
            bool multiHost = ParameterSetName == ComputerNameSet || ParameterSetName == SessionSet;
            bool startFile = ParameterSetName == StartFileSet;
            var profiles = new List<MailboxProfile>();
            if (ProfilePath != null)
            {
                if (_profiles.Count > 0)
                    throw new StorageTestException(ErrorCodes.ConflictingProfileSettings, "Give the profile once: either -MailboxProfile (or the pipeline) or -ProfilePath, not both.", ProfilePath);
                profiles.Add(ProfileFile.Load(ResolvePath(ProfilePath)));
            }
            if (_profiles.Count == 0 && profiles.Count == 0)
                throw new StorageTestException(ErrorCodes.ProfileRequired, "No mailbox profile was given: pipe one from New-MailboxProfile, or give -MailboxProfile or -ProfilePath.", null);
            if ((multiHost || startFile) && AsJob)
                throw new StorageTestException(ErrorCodes.AsJobNotSupported, "-AsJob runs one local test in the background; multi-host and start-file runs already manage their own jobs and waiting. Start them in a job of your own with Start-Job if needed.", null);
            foreach (object candidate in _profiles) profiles.Add(ProfileReader.Read(candidate));

            RunSettings settings = Settings();
            CheckSuiteSettings();
            if (Bound(nameof(Duration)) && string.Equals(TestType, nameof(Contract.TestType.DatabaseBackup), StringComparison.OrdinalIgnoreCase))
                WriteWarning($"-Duration {Duration} does not apply to a DatabaseBackup test: it reads each database once, start to end, and takes as long as that takes.");
            DateTime? startAt = StartInstant(multiHost);
            if (startFile && StartFileTimeout < TimeSpan.Zero)
                throw new StorageTestException(ErrorCodes.InvalidStartFileTimeout, $"StartFileTimeout '{StartFileTimeout}' is not valid: it must be zero or more.", StartFileTimeout);
            var checkedProfiles = profiles.Select(p => ProfileReader.WithDatabases(p, _databasePaths, _logPaths)).ToList();

            RemotingOptions? remoting = ComputerName != null ? Remoting() : null;
            remoting?.Validate();

            if (multiHost)
            {
                using (var hosts = remoting != null ? HostLinks.Open(this, ComputerName!, remoting) : HostLinks.Adopt(this, Session ?? new PSSession[0]))
                {
                    _multiHost = new MultiHostRun(new CommandOutput(this), settings, hosts.Hosts, new ModuleCopy(MyInvocation.MyCommand.Module));
                    // The paths are the hosts' paths: they are checked there, by each host's plan.
                    foreach (MailboxProfile profile in checkedProfiles) _multiHost.Run(profile, startAt);
                }
                return;
            }
            foreach (MailboxProfile profile in checkedProfiles) RunLocal(profile, settings, startFile, startAt);
        });

        protected override void StopProcessing()
        {
            base.StopProcessing();
            _multiHost?.Stop();
        }

        /// <summary>
        /// -StartAtUtc as UTC. Its rule (ahead, within 7 days) is the engine's, checked by the plan before anything is
        /// written; a multi-host run also needs the time to start every host.
        /// </summary>
        private DateTime? StartInstant(bool multiHost)
        {
            if (!Bound(nameof(StartAtUtc))) return null;
            DateTime startAt = UtcTime.ToMilliseconds(UtcTime.From(StartAtUtc));
            if (multiHost && startAt < DateTime.UtcNow + MultiHostRun.MinimumNotice) throw MultiHostRun.TooSoon(startAt);
            return startAt;
        }

        /// <summary>This computer's run of one profile: the ESRP suite, or a single test (<see cref="LocalRun"/>).</summary>
        private void RunLocal(MailboxProfile profile, RunSettings settings, bool startFile, DateTime? startAt)
        {
            TimeSpan? timeout = Bound(nameof(StartFileTimeout)) ? StartFileTimeout : (TimeSpan?)null;
            if (settings.TestType == SuiteRun.TestTypeName)
            {
                var hosts = startFile ? new SuiteStartFile(this, ResolvePath(StartFile!), startAt, timeout) : null;
                new SuiteRun(this, settings, Bound(nameof(StressDuration)) ? StressDuration : (TimeSpan?)null, hosts).Run(profile, AsJob);
                return;
            }
            new LocalRun(this, settings).Run(profile, startAt, AsJob, startFile ? (ResolvePath(StartFile!), timeout) : ((string, TimeSpan?)?)null);
        }

        /// <summary>-Force runs without asking unless -Confirm is given; -WhatIf still only lists.</summary>
        internal bool ShouldRun(string description, string warning, string caption) => ShouldRun(Force, description, warning, caption);

        /// <summary>-StressDuration belongs to the suite; several hosts run the suite each with -StartFile, not driven remotely.</summary>
        private void CheckSuiteSettings()
        {
            bool suite = string.Equals(TestType, SuiteRun.TestTypeName, StringComparison.Ordinal);
            if (Bound(nameof(StressDuration)) && !suite)
                throw new StorageTestException(ErrorCodes.StressDurationWithoutSuite, $"StressDuration is the Stress test's length in an ESRP suite: use it with -TestType EsrpSuite (TestType is '{TestType}'); a single test takes -Duration.", StressDuration);
            // The suite runs its Stress test hours after it starts: its length is checked now, by the engine's rule for a duration.
            if (Bound(nameof(StressDuration)) && RunRules.StressDuration.Check(StressDuration.TotalSeconds) is Violation tooLong)
                throw StorageTestException.From(tooLong);
            // A start file agrees one instant; a search's hosts must agree every step's, which only an orchestrator (-ComputerName, -Session) can.
            if (string.Equals(TestType, nameof(Contract.TestType.Capacity), StringComparison.Ordinal) && StartFile != null)
                throw new StorageTestException(ErrorCodes.CapacityWithStartFile,
                    "-TestType Capacity steps its hosts together, choosing each step from every host's verdict, and a start file only agrees one start instant: -StartFile is refused. Give the hosts with -ComputerName or -Session (docs/capacity.md).", StartFile);
            // Each test of the suite has a measured window of its own and two have none: a window belongs to one test, run on its own.
            if (suite && (Bound(nameof(FaultAt)) || Bound(nameof(FaultLength)) || Bound(nameof(FaultScript)) || Bound(nameof(ReseedPath))))
                throw new StorageTestException(ErrorCodes.FaultWindowInvalid,
                    $"A fault window (-FaultAt, -FaultLength, -FaultScript, -ReseedPath) belongs to one test with a measured load window: run it with -TestType {Contract.TestTypes.TransactionalNames}, not EsrpSuite.", TestType);
            if (suite && (ComputerName != null || Session != null))
                throw new StorageTestException(ErrorCodes.SuiteNotRemoted,
                    "-TestType EsrpSuite does not drive remote hosts (-ComputerName, -Session): run it on each host with -StartFile on a share, and every test of the suite starts on all hosts together.", TestType);
        }

        private RemotingOptions Remoting() => new RemotingOptions
        {
            UseSsh = UseSSH,
            Credential = Credential,
            Port = Bound(nameof(Port)) ? Port : (int?)null,
            UserName = UserName,
            KeyFilePath = KeyFilePath == null ? null : ResolvePath(KeyFilePath),
            SshOptions = SSHOptions,
        };

        /// <summary>The settings given (<see cref="RunSetting"/>: the parameters they come from); the engine applies its defaults to the rest.</summary>
        private RunSettings Settings() => RunSettings.FromParameters(MyInvocation.BoundParameters, ResolvePath);
    }
}
