using System;
using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// New-StorageTestRun: a run folder with a start file on a share, for hosts that cannot be remoted into and run
    /// Invoke-StorageTest -StartFile themselves.
    /// </summary>
    [Cmdlet(VerbsCommon.New, "StorageTestRun", HelpUri = HelpLinks.NewStorageTestRun, SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Low)]
    [OutputType(typeof(StorageTestRun))]
    public sealed class NewStorageTestRunCommand : StorageTestCmdlet
    {
        [Parameter(Mandatory = true, Position = 0)]
        [ValidateNotNullOrEmpty]
        public string Path { get; set; } = "";

        [Parameter(Mandatory = true)]
        public DateTime StartAtUtc { get; set; }

        [Parameter]
        [ValidateRange(1, 10000)]
        public int HostCount { get; set; }

        /// <summary>
        /// The one host of the run that starts a fault script (Invoke-StorageTest -FaultScript), by its computer name; the
        /// others only judge the window. Default: this computer. The start file names no other hosts.
        /// </summary>
        [Parameter]
        [ValidateNotNullOrEmpty]
        public string? FaultScriptComputerName { get; set; }

        [Parameter]
        public SwitchParameter Force { get; set; }

        protected override void EndProcessing() => Guard(() =>
        {
            string folder = ResolvePath(Path);
            DateTime startAt = UtcTime.ToMilliseconds(UtcTime.From(StartAtUtc));
            // No engine runs here: the engine's rule for a start instant is checked now, so no host finds it later.
            if (RunRules.CheckStart(startAt, DateTime.UtcNow) is Violation bad) throw StorageTestException.From(bad);
            if (File.Exists(folder))
                throw new StorageTestException(ErrorCodes.PathIsFile, $"The run folder '{folder}' is a file.", folder);
            string startFile = System.IO.Path.Combine(folder, RunStartFile.FileName);
            string results = System.IO.Path.Combine(folder, SharedResults.FolderName);
            if (File.Exists(startFile))
            {
                if (!Force)
                    throw new StorageTestException(ErrorCodes.StartFileExists, $"The start file '{startFile}' already exists. Use -Force to replace it, or a new run folder.", startFile);
                // -Force replaces a start file, never some other file that happens to have its name.
                if (RunStartFile.TryRead(startFile, out string problem) == null)
                    throw new StorageTestException(ErrorCodes.StartFileMalformed, $"'{startFile}' is not a start file ({problem}), so -Force does not replace it. Remove it yourself, or use a new run folder.", startFile);
            }
            int? hosts = MyInvocation.BoundParameters.ContainsKey(nameof(HostCount)) ? HostCount : (int?)null;
            string runId = RunIds.New(startAt);
            string scriptHost = string.IsNullOrWhiteSpace(FaultScriptComputerName) ? Environment.MachineName : FaultScriptComputerName!.Trim();

            if (!ShouldRun(Force, $"Create the storage test run {runId} in '{folder}': the start file '{startFile}' (every host starts at {UtcTime.Iso(startAt)}, and measures from it + its tuning and warm-up time; a fault script, if the hosts are given one, runs on '{scriptHost}' only) and the results folder '{results}' (where each host copies its results file when its run ends).",
                    $"Create the start file '{startFile}' for a run starting at {UtcTime.Iso(startAt)}?", "New-StorageTestRun"))
                return;
            try
            {
                Directory.CreateDirectory(results);
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
            {
                throw new StorageTestException(ErrorCodes.PathNotWritable, $"The run folder '{folder}' cannot be created: {ex.Message}", folder, ex);
            }
            if (!RunStartFile.TryCreate(startFile, runId, startAt, hosts, replace: Force, faultScriptHost: scriptHost))
                throw new StorageTestException(ErrorCodes.StartFileExists, $"The start file '{startFile}' was created by another host meanwhile.", startFile);
            WriteObject(new StorageTestRun { RunId = runId, Path = folder, StartFile = startFile, ResultsPath = results, StartAtUtc = startAt, HostCount = hosts, FaultScriptComputerName = scriptHost });
        });
    }
}
