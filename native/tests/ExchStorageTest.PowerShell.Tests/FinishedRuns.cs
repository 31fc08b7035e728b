using System.Management.Automation;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// Two short real runs of one small profile in one scratch folder, made once for the tests that read what a run
/// leaves behind (Get-TestReport, Test-DatabaseChecksum): the first creates the databases, the second attaches
/// them with another load, so the Results folder holds two runs of one host. Tests copy what they change.
/// </summary>
public sealed class FinishedRuns : IDisposable
{
    public const string SmallProfile = "New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -DatabaseCount 2 -Path $args[0]";

    public FinishedRuns()
    {
        First = RunOnce(" | Invoke-StorageTest -Duration 00:00:15 -SampleIntervalSeconds 5 -Force");
        Second = RunOnce(" | Invoke-StorageTest -DatabaseSource Attach -ThreadCount 1 -Duration 00:00:15 -SampleIntervalSeconds 5 -Force");
    }

    public PowerShellSession Session { get; } = new();

    /// <summary>The databases (DB1, DB2 with their Logs) and the Results folder of both runs.</summary>
    public ScratchFolder Folder { get; } = new("runs");

    /// <summary>The ExchStorageTest.TestResult objects Invoke-StorageTest returned.</summary>
    public PSObject First { get; }
    public PSObject Second { get; }

    public string ResultsFolder => Folder.Combine("Results");

    public static string ResultsPathOf(PSObject result) => (string)result.Properties["ResultsPath"].Value;

    private PSObject RunOnce(string invoke)
    {
        var run = Session.Run(SmallProfile + invoke, Folder.Path);
        if (run.Exception != null || run.Output.Count != 1)
            throw new InvalidOperationException($"The run for the report and checksum tests failed: {run.Error?.ToString() ?? run.Exception?.Message ?? $"{run.Output.Count} outputs"}");
        return run.Output[0];
    }

    public void Dispose()
    {
        Session.Dispose();
        Folder.Dispose();
    }
}

[CollectionDefinition(Name)]
public sealed class FinishedRunsCollection : ICollectionFixture<FinishedRuns>
{
    public const string Name = "finished runs";
}
