using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Storage;

/// <summary>One database of the set after preparation: its identity and where its files are.</summary>
public sealed class PreparedInstance
{
    public required PlannedInstance Plan { get; init; }
    public required DatabaseHeader Header { get; init; }
    /// <summary>Log generation files, in slot order (circular: generation g lives in slot (g-1) mod count).</summary>
    public required IReadOnlyList<string> LogFiles { get; init; }
    /// <summary>Highest log generation found in the files (0 on a fresh set); the run continues after it.</summary>
    public long LastLogGeneration { get; init; }
    /// <summary>True when the database was created (or re-created) by this run, false when re-used/attached.</summary>
    public bool Created { get; init; }
    /// <summary>The passive copies beside this database (their own database and log files), in copy order; empty in the Jetstress model.</summary>
    public IReadOnlyList<PreparedInstance> PassiveCopies { get; init; } = Array.Empty<PreparedInstance>();
    public ulong InstanceId => Header.InstanceId;
    /// <summary>What the database's pages hold (its header's data profile): what a run stamps the pages it writes with.</summary>
    public DatabaseContent Content => _content ??= new DatabaseContent(Header.InstanceId, Header.DataProfile);
    private DatabaseContent? _content;
    public long PageCount => Header.PageCount;
}
