namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The five Jetstress test types (SPEC section 2). The module's -TestType sets name them with nameof, so
    /// a cmdlet cannot offer a type the engine does not run.
    /// </summary>
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

    /// <summary>The tests of an ESRP submission, in the order they run on one database set.</summary>
    public static class EsrpTests
    {
        /// <summary>Performance, Stress (with its checksum pass), DatabaseBackup, SoftRecovery.</summary>
        public static readonly TestType[] Order = { TestType.Performance, TestType.Stress, TestType.DatabaseBackup, TestType.SoftRecovery };
    }
}
