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

        // Settings given explicitly win over imported values; these are the names that may be given.
        private static readonly string[] SettingNames =
        {
            nameof(Name), nameof(Description), nameof(MailboxCount), nameof(IopsPerMailbox), nameof(HeadroomPercent), nameof(MailboxSizeMB),
            nameof(DatabaseCount), nameof(CopiesPerDatabase), nameof(ThreadCount), nameof(BackgroundMaintenance),
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
        public int MailboxCount { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet)]
        [Parameter(ParameterSetName = JetstressSet)]
        [Parameter(ParameterSetName = CalculatorSet)]
        public double IopsPerMailbox { get; set; }

        [Parameter]
        public double HeadroomPercent { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet)]
        [Parameter(ParameterSetName = JetstressSet)]
        [Parameter(ParameterSetName = CalculatorSet)]
        public long MailboxSizeMB { get; set; }

        [Parameter]
        public int DatabaseCount { get; set; }

        [Parameter]
        public int CopiesPerDatabase { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet, ValueFromPipelineByPropertyName = true)]
        [Parameter(ParameterSetName = JetstressSet, ValueFromPipelineByPropertyName = true)]
        [Parameter(ParameterSetName = CalculatorSet, ValueFromPipelineByPropertyName = true)]
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

        /// <summary>The Exchange Server Role Requirements Calculator's workbook (.xlsm or .xlsx): read by the helper, cached values only.</summary>
        [Parameter(Mandatory = true, ParameterSetName = CalculatorSet)]
        [ValidateNotNullOrEmpty]
        public string CalculatorPath { get; set; } = "";

        /// <summary>The calculator's Servers.csv export; default: Servers.csv beside the workbook, when there is one.</summary>
        [Parameter(ParameterSetName = CalculatorSet)]
        [ValidateNotNullOrEmpty]
        public string ServersCsv { get; set; } = "";

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
