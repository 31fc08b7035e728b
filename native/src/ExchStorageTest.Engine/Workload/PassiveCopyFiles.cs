using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// One passive copy's files in the driver's file table: its database (replay reads and writes its pages) and its circular
/// log (the copied log, one generation per write). <paramref name="Lagged"/>: its replay is held (log only).
/// </summary>
public sealed record PassiveCopyFiles(int Copy, bool Lagged, int DatabaseFileIndex, int[] LogFileIndexes, long PageCount, ulong InstanceId, DatabaseContent Content);
