namespace ExchStorageTest.Engine.Reports;

/// <summary>A report file written (or found beside its results file) and its kind (<see cref="ReportKinds"/>): events name both, so no reader matches file names.</summary>
public sealed record ReportFile(string Kind, string Path);
