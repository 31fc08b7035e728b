using System;

namespace ExchStorageTest
{
    /// <summary>
    /// A run folder with a start file on a share (PSTypeName ExchStorageTest.StorageTestRun), from
    /// New-StorageTestRun: each host runs Invoke-StorageTest -StartFile <see cref="StartFile"/>, and
    /// Get-TestReport -Path <see cref="ResultsPath"/> merges their results afterwards.
    /// </summary>
    public sealed class StorageTestRun
    {
        public string? RunId { get; set; }
        /// <summary>The run folder.</summary>
        public string? Path { get; set; }
        /// <summary>&lt;Path&gt;/start.json.</summary>
        public string? StartFile { get; set; }
        /// <summary>&lt;Path&gt;/results, where each host copies its results JSON.</summary>
        public string? ResultsPath { get; set; }
        public DateTime StartAtUtc { get; set; }
        /// <summary>How many hosts are expected, or null when not given.</summary>
        public int? HostCount { get; set; }
        /// <summary>The one host that starts a fault script (docs/failure-mode.md); the others only judge the window.</summary>
        public string? FaultScriptComputerName { get; set; }

        public override string ToString() => RunId ?? "";
    }
}
