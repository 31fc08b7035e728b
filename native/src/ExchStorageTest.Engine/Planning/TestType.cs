namespace ExchStorageTest.Engine.Planning;

/// <summary>The five Jetstress test types (SPEC section 2).</summary>
public enum TestType
{
    Performance,
    Stress,
    DatabaseBackup,
    SoftRecovery,
    Throughput,
}

/// <summary>Where the database set comes from before the run.</summary>
public enum DatabaseSource
{
    /// <summary>Create new databases (re-using a compatible set of ours when present).</summary>
    Create,
    /// <summary>Validate and use an existing set: header, geometry, instance ids.</summary>
    Attach,
    /// <summary>Copy a backup set into place, then attach.</summary>
    Restore,
}
