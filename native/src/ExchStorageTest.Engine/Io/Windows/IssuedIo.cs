namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>What became of an I/O just issued with ReadFile/WriteFile on a completion-port handle.</summary>
internal enum IssueOutcome
{
    /// <summary>A packet will come to the port: ERROR_IO_PENDING, or finished inline on a handle that still posts on success.</summary>
    Pending,
    /// <summary>Finished inline on a handle with FILE_SKIP_COMPLETION_PORT_ON_SUCCESS: no packet will ever come, complete it now.</summary>
    DoneInline,
    /// <summary>Refused at issue (misaligned, end of file, bad handle): no packet will ever come.</summary>
    Failed,
}

/// <summary>The rule the IOCP backend completes each I/O by, exactly once (pure, so it is tested on every OS).</summary>
internal static class IssuedIo
{
    private const int ErrorIoPending = 997;

    /// <summary>
    /// Sorts an issued I/O by ReadFile/WriteFile's return (<paramref name="ok"/>) and last error. Getting
    /// this wrong either loses an I/O (waiting for a packet that never comes) or completes one twice.
    /// </summary>
    public static IssueOutcome Classify(bool ok, bool skipsPortOnSuccess, int error) =>
        ok ? (skipsPortOnSuccess ? IssueOutcome.DoneInline : IssueOutcome.Pending)
        : error == ErrorIoPending ? IssueOutcome.Pending
        : IssueOutcome.Failed;
}
