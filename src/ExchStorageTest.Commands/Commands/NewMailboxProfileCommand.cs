using System.Collections;
using System.Collections.Generic;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;
using ExchStorageTest.Profiles;

namespace ExchStorageTest.Commands
{
    /// <summary>New-MailboxProfile: the simulated deployment whose storage load a test generates.</summary>
    [Cmdlet(VerbsCommon.New, "MailboxProfile", HelpUri = HelpLinks.NewMailboxProfile, DefaultParameterSetName = ExplicitSet, SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Low)]
    [OutputType(typeof(MailboxProfile))]
    public sealed class NewMailboxProfileCommand : StorageTestCmdlet
    {
        private const string ExplicitSet = "Explicit";
        private const string JetstressSet = "JetstressConfig";
        private const string CalculatorSet = "Calculator";
        private const string CaptureSet = "Capture";

        // Settings given explicitly win over imported values; these are the names that may be given.
        private static readonly string[] SettingNames =
        {
            nameof(Name), nameof(Description), nameof(MailboxCount), nameof(IopsPerMailbox), nameof(HeadroomPercent), nameof(MailboxSizeMB),
            nameof(DatabaseCount), nameof(CopiesPerDatabase), nameof(CopiesPerVolume), nameof(ActiveCopiesPerVolume), nameof(LaggedCopiesPerVolume), nameof(ThreadCount), nameof(BackgroundMaintenance),
            nameof(MinimumDatabaseCacheMB), nameof(MaximumDatabaseCacheMB),
        };

        private readonly List<string> _databasePaths = new List<string>();
        private readonly List<string> _logPaths = new List<string>();

        [Parameter]
        public string Name { get; set; } = "";

        [Parameter]
        public string Description { get; set; } = "";

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet)]
        [Parameter(ParameterSetName = JetstressSet)]
        [Parameter(ParameterSetName = CalculatorSet)]
        [Parameter(ParameterSetName = CaptureSet)]
        public int MailboxCount { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet)]
        [Parameter(ParameterSetName = JetstressSet)]
        [Parameter(ParameterSetName = CalculatorSet)]
        [Parameter(ParameterSetName = CaptureSet)]
        public double IopsPerMailbox { get; set; }

        [Parameter]
        public double HeadroomPercent { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet)]
        [Parameter(ParameterSetName = JetstressSet)]
        [Parameter(ParameterSetName = CalculatorSet)]
        [Parameter(ParameterSetName = CaptureSet)]
        public long MailboxSizeMB { get; set; }

        [Parameter]
        public int DatabaseCount { get; set; }

        [Parameter]
        public int CopiesPerDatabase { get; set; }

        /// <summary>Database copies on each volume, active and passive (the Preferred Architecture's 4); default 1, the Jetstress model.</summary>
        [Parameter]
        public int CopiesPerVolume { get; set; }

        /// <summary>Of those, the active ones (the profile's databases); default 1.</summary>
        [Parameter]
        public int ActiveCopiesPerVolume { get; set; }

        /// <summary>Of the passive copies on a volume, the lagged ones (log writes only); default 0.</summary>
        [Parameter]
        public int LaggedCopiesPerVolume { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet, ValueFromPipelineByPropertyName = true)]
        [Parameter(ParameterSetName = JetstressSet, ValueFromPipelineByPropertyName = true)]
        [Parameter(ParameterSetName = CalculatorSet, ValueFromPipelineByPropertyName = true)]
        [Parameter(ParameterSetName = CaptureSet, ValueFromPipelineByPropertyName = true)]
        [Alias("DatabasePath", "EdbFilePath")]
        public object[]? Path { get; set; }

        [Parameter(ValueFromPipelineByPropertyName = true)]
        [Alias("LogFolderPath")]
        public object[]? LogPath { get; set; }

        [Parameter]
        public int ThreadCount { get; set; }

        [Parameter]
        public bool BackgroundMaintenance { get; set; }

        [Parameter]
        public long MinimumDatabaseCacheMB { get; set; }

        [Parameter]
        public long MaximumDatabaseCacheMB { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = JetstressSet)]
        public string JetstressConfig { get; set; } = "";

        /// <summary>The Exchange Server Role Requirements Calculator's workbook (.xlsm or .xlsx): read by the engine, cached values only.</summary>
        [Parameter(Mandatory = true, ParameterSetName = CalculatorSet)]
        [Parameter(ParameterSetName = CaptureSet)]
        [ValidateNotNullOrEmpty]
        public string CalculatorPath { get; set; } = "";

        /// <summary>The calculator's Servers.csv export; default: Servers.csv beside the workbook, when there is one.</summary>
        [Parameter(ParameterSetName = CalculatorSet)]
        [Parameter(ParameterSetName = CaptureSet)]
        [ValidateNotNullOrEmpty]
        public string ServersCsv { get; set; } = "";

        /// <summary>PerfMon captures of the Exchange servers being replaced: relog's CSV or TSV, or on Windows a .blg (docs/capture.md). Read by the engine.</summary>
        [Parameter(Mandatory = true, ParameterSetName = CaptureSet)]
        [ValidateNotNullOrEmpty]
        public string[] CapturePath { get; set; } = new string[0];

        /// <summary>The capture's busiest hour is multiplied by this for the target; default 1.2 (the calculator's 20% I/O overhead).</summary>
        [Parameter(ParameterSetName = CaptureSet)]
        public double GrowthFactor { get; set; } = CaptureRules.DefaultGrowthFactor;

        /// <summary>The window to size by instead of the busiest hour: its start on the capture's clock, "yyyy-MM-dd HH:mm".</summary>
        [Parameter(ParameterSetName = CaptureSet)]
        [ValidateNotNullOrEmpty]
        public string CaptureWindowStart { get; set; } = "";

        /// <summary>The named window's length in minutes (60 unless given; a shorter one only with -CaptureWindowStart).</summary>
        [Parameter(ParameterSetName = CaptureSet)]
        public int CaptureWindowMinutes { get; set; } = CaptureRules.DefaultWindowMinutes;

        [Parameter]
        [Alias("ProfilePath")]
        public string SaveTo { get; set; } = "";

        [Parameter]
        public SwitchParameter Force { get; set; }

        protected override void ProcessRecord() => Guard(() =>
        {
            foreach (string path in PathInput.ToStrings(Path)) _databasePaths.Add(PathInput.DatabaseFolder(ResolvePath(path)));
            foreach (string path in PathInput.ToStrings(LogPath)) _logPaths.Add(ResolvePath(path));
        });

        protected override void EndProcessing() => Guard(() =>
        {
            if (ParameterSetName == CaptureSet)
            {
                FromCapture();
                return;
            }
            if (ParameterSetName == CalculatorSet)
            {
                var imported = CalculatorImport.Read(this, ResolvePath(CalculatorPath), MyInvocation.BoundParameters.ContainsKey(nameof(ServersCsv)) ? ResolvePath(ServersCsv) : null);
                var profiles = new List<MailboxProfile>();
                foreach (Hashtable settings in imported.Profiles) profiles.Add(Build(settings));
                if (WhatIfInEffect) ShouldProcess(imported.Describe(profiles), "", "New-MailboxProfile");
                if (MyInvocation.BoundParameters.ContainsKey(nameof(SaveTo)) && profiles.Count != 1)
                    throw new StorageTestException(ErrorCodes.ProfileExists,
                        $"-SaveTo saves one profile, and the workbook gives {profiles.Count}: run New-MailboxProfile without -SaveTo and save the one you need with New-MailboxProfile -SaveTo from its settings.", SaveTo);
                foreach (MailboxProfile profile in profiles) Save(profile);
                foreach (MailboxProfile profile in profiles) WriteObject(profile);
                return;
            }
            var given = ParameterSetName == JetstressSet
                ? JetstressConfigFile.Read(ResolvePath(JetstressConfig))
                : new Hashtable(System.StringComparer.OrdinalIgnoreCase);
            MailboxProfile built = Build(given);
            Save(built);
            WriteObject(built);
        });

        /// <summary>
        /// New-MailboxProfile -CapturePath: the engine derives the profile from the captures (and the calculator's design
        /// when given); the settings given here win over it, as for every import. The mailbox size is one figure a capture
        /// cannot know: without the calculator's design it must be given.
        /// </summary>
        private void FromCapture()
        {
            bool Given(string name) => MyInvocation.BoundParameters.ContainsKey(name);
            if (!Given(nameof(MailboxSizeMB)) && !Given(nameof(CalculatorPath)))
                throw new StorageTestException(ErrorCodes.CaptureFigureMissing,
                    "A PerfMon capture shows the servers' I/O, not their mailboxes' size: give -MailboxSizeMB (or the calculator's design with -CalculatorPath).", null);
            var captures = new List<string>();
            foreach (string path in CapturePath) captures.Add(ResolvePath(path));
            var imported = CaptureImport.Read(this, captures.ToArray(), Given(nameof(GrowthFactor)) ? GrowthFactor : (double?)null,
                Given(nameof(CaptureWindowStart)) ? CaptureWindowStart : null, Given(nameof(CaptureWindowMinutes)) ? CaptureWindowMinutes : (int?)null,
                Given(nameof(MailboxCount)) ? MailboxCount : (int?)null, Given(nameof(CalculatorPath)) ? ResolvePath(CalculatorPath) : null,
                Given(nameof(ServersCsv)) ? ResolvePath(ServersCsv) : null);
            MailboxProfile profile = Build(imported.Settings);
            if (WhatIfInEffect)
                ShouldProcess(string.Join(System.Environment.NewLine, imported.Derivation) + System.Environment.NewLine
                    + string.Format(System.Globalization.CultureInfo.InvariantCulture, "Profile '{0}': {1} mailboxes x {2:0.####} IOPS = {3:0.###} target IOPS per server, {4} databases of {5:0.##} GB.",
                        profile.Name, profile.MailboxCount, profile.IopsPerMailbox, profile.TargetIops, profile.DatabaseCount, profile.DatabaseSizeMB / 1024),
                    "", "New-MailboxProfile");
            Save(profile);
            WriteObject(profile);
        }

        /// <summary>The profile of <paramref name="settings"/> (imported or empty) with the settings and paths given explicitly, which win.</summary>
        private MailboxProfile Build(Hashtable settings)
        {
            foreach (string name in SettingNames)
                if (MyInvocation.BoundParameters.TryGetValue(name, out object? value)) settings[name] = value;
            if (_databasePaths.Count > 0)
            {
                settings[ProfileFields.DatabasePaths] = _databasePaths.ToArray();
                // Paths given here are the ones to test, on every host: an imported per-server layout no longer applies.
                settings[ProfileFields.Servers] = new ServerLayout[0];
                if (!MyInvocation.BoundParameters.ContainsKey(nameof(DatabaseCount)) && _databasePaths.Count > 1) settings[ProfileFields.DatabaseCount] = _databasePaths.Count;
            }
            if (_logPaths.Count > 0) settings[ProfileFields.LogPaths] = _logPaths.ToArray();
            return ProfileReader.Read(settings);
        }

        private void Save(MailboxProfile profile)
        {
            if (!MyInvocation.BoundParameters.ContainsKey(nameof(SaveTo))) return;
            string target = ResolvePath(SaveTo);
            ProfileFile.CheckTarget(target, Force);
            if (ShouldProcess(target, $"Save mailbox profile '{profile.Name}'")) ProfileFile.Save(profile, target);
        }
    }
}
