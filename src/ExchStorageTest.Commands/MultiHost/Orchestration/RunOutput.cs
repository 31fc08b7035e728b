using System;
using System.Management.Automation;
using ExchStorageTest.Commands;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;
using ExchStorageTest.Reports;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The command a multi-host run reports to, as the orchestrator sees it: its streams (on the command's thread only),
    /// its questions (ShouldProcess), whether it is being stopped, and the engine of this computer, which merges the
    /// collected results. Invoke-StorageTest is it (<see cref="CommandOutput"/>); the module's unit tests give one that
    /// records what a run says, so the orchestrator is tested without PowerShell's pipeline.
    /// </summary>
    internal interface IRunOutput : IRunSink
    {
        void Output(object item);

        /// <summary>ShouldProcess with Invoke-StorageTest's -Force rule.</summary>
        bool ShouldRun(string description, string warning, string caption);

        /// <summary>-WhatIf is in effect: nothing is written or returned.</summary>
        bool WhatIf { get; }

        /// <summary>The command is being stopped (Ctrl+C): it may write nothing more but a warning on the host (<see cref="WarnWhileStopping"/>).</summary>
        bool Stopping { get; }

        void WarnWhileStopping(string message);

        /// <summary>A path made absolute against the PowerShell location.</summary>
        string ResolvePath(string path);

        /// <summary>The engine's report over the collected results files: their merge (rates summed, histograms merged).</summary>
        TestReport? Merge(string[] resultsFiles);
    }

    /// <summary>Invoke-StorageTest as the orchestrator's output.</summary>
    internal sealed class CommandOutput : IRunOutput
    {
        private readonly InvokeStorageTestCommand _cmdlet;
        private readonly IRunSink _sink;

        public CommandOutput(InvokeStorageTestCommand cmdlet)
        {
            _cmdlet = cmdlet;
            _sink = cmdlet;
        }

        public bool CanWrite => _sink.CanWrite;
        public void Verbose(string message) => _sink.Verbose(message);
        public void Information(string message) => _sink.Information(message);
        public void Warning(string message) => _sink.Warning(message);
        public void Progress(ProgressRecord record) => _sink.Progress(record);
        public void Error(ErrorRecord record) => _sink.Error(record);
        public void Output(object item) => _cmdlet.WriteObject(item);
        public bool ShouldRun(string description, string warning, string caption) => _cmdlet.ShouldRun(description, warning, caption);
        public bool WhatIf => _cmdlet.WhatIfInEffect;
        public bool Stopping => _cmdlet.Stopping;
        public void WarnWhileStopping(string message) => _cmdlet.WarnWhileStopping(message);
        public string ResolvePath(string path) => Input.PathInput.Resolve(_cmdlet, path);

        public TestReport? Merge(string[] resultsFiles)
        {
            JsonObject? report = _cmdlet.RunEngine(ReportRequest.For(resultsFiles, new string[0], null), "Merging the hosts' results").First(EventTypes.Report)?.Fields;
            return report == null ? null : TestReport.FromEvent(report);
        }
    }
}
