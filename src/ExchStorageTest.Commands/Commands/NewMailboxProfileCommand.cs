using System.Collections;
using System.Collections.Generic;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Input;
using ExchStorageTest.Profiles;

namespace ExchStorageTest.Commands
{
    /// <summary>New-MailboxProfile: the simulated deployment whose storage load a test generates.</summary>
    [Cmdlet(VerbsCommon.New, "MailboxProfile", DefaultParameterSetName = ExplicitSet, SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Low)]
    [OutputType(typeof(MailboxProfile))]
    public sealed class NewMailboxProfileCommand : StorageTestCmdlet
    {
        private const string ExplicitSet = "Explicit";
        private const string JetstressSet = "JetstressConfig";

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
        public int MailboxCount { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet)]
        [Parameter(ParameterSetName = JetstressSet)]
        public double IopsPerMailbox { get; set; }

        [Parameter]
        public double HeadroomPercent { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet)]
        [Parameter(ParameterSetName = JetstressSet)]
        public long MailboxSizeMB { get; set; }

        [Parameter]
        public int DatabaseCount { get; set; }

        [Parameter]
        public int CopiesPerDatabase { get; set; }

        [Parameter(Mandatory = true, ParameterSetName = ExplicitSet, ValueFromPipelineByPropertyName = true)]
        [Parameter(ParameterSetName = JetstressSet, ValueFromPipelineByPropertyName = true)]
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
            var settings = ParameterSetName == JetstressSet
                ? JetstressConfigFile.Read(ResolvePath(JetstressConfig))
                : new Hashtable(System.StringComparer.OrdinalIgnoreCase);
            foreach (string name in SettingNames)
                if (MyInvocation.BoundParameters.TryGetValue(name, out object? value)) settings[name] = value;
            if (_databasePaths.Count > 0)
            {
                settings[ProfileFields.DatabasePaths] = _databasePaths.ToArray();
                if (!MyInvocation.BoundParameters.ContainsKey(nameof(DatabaseCount)) && _databasePaths.Count > 1) settings[ProfileFields.DatabaseCount] = _databasePaths.Count;
            }
            if (_logPaths.Count > 0) settings[ProfileFields.LogPaths] = _logPaths.ToArray();

            MailboxProfile profile = ProfileReader.Read(settings);
            if (MyInvocation.BoundParameters.ContainsKey(nameof(SaveTo)))
            {
                string target = ResolvePath(SaveTo);
                ProfileFile.CheckTarget(target, Force);
                if (ShouldProcess(target, $"Save mailbox profile '{profile.Name}'")) ProfileFile.Save(profile, target);
            }
            WriteObject(profile);
        });
    }
}
