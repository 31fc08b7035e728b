using System;
using System.Linq;
using ExchStorageTest.Contract;

namespace ExchStorageTest
{
    /// <summary>
    /// An ESRP suite on one host (PSTypeName ExchStorageTest.SuiteResult): its four tests as far as they ran, and
    /// the ESRP document made of them once all completed. <see cref="ResultsPath"/> is the suite folder, so
    /// the object pipes into Get-TestReport.
    /// </summary>
    public sealed class SuiteResult
    {
        public string? ProfileName { get; set; }
        public string? SuiteId { get; set; }
        public string? ComputerName { get; set; }
        /// <summary>The suite folder: suite.json, and a folder per test.</summary>
        public string? Path { get; set; }
        /// <summary>The suite folder again: Get-TestReport binds it by this name and reads every results file under it.</summary>
        public string? ResultsPath { get; set; }
        public SuiteTest[] Tests { get; set; } = Array.Empty<SuiteTest>();
        /// <summary>Every test completed (ran its whole window, backup or replay).</summary>
        public bool Complete => Tests.Length > 0 && Tests.All(t => t.State == SuiteTest.Complete);
        /// <summary>Pass when every test completed and passed, Fail when every test completed and one failed, else Incomplete.</summary>
        public string Result => !Complete ? "Incomplete" : Tests.All(t => t.Result == Verdicts.Pass) ? Verdicts.Pass : Verdicts.Fail;
        /// <summary>The next test a re-run starts with; null when the suite is complete.</summary>
        public string? NextTest => Tests.FirstOrDefault(t => t.State != SuiteTest.Complete)?.TestType;
        /// <summary>The ESRP document (HTML) written when the suite completed; null before.</summary>
        public string? DocumentPath { get; set; }
        /// <summary>Every file the report of the completed suite wrote (the document as text and HTML, the aggregate text).</summary>
        public TextList<string> ReportPath { get; set; } = TextList<string>.Empty;

        public override string ToString() => $"{ProfileName} ESRP suite {Result}";
    }
}
