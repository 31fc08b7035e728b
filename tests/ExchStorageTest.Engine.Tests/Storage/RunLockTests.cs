using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Storage;

/// <summary>
/// The run lock's file lives as long as the run: gone when the lock is let go (every way a run ends goes through
/// Dispose: its `using`), never taken from a holder, and a file a killed run left blocks nobody and is then removed.
/// (Real processes and signals: Faults/SignalTests.)
/// </summary>
public sealed class RunLockTests : IDisposable
{
    private readonly TestFolder _dir = new("runlock");

    private string LockFile(string folder) => Path.Combine(folder, RunLock.FileName);

    [Fact]
    public void The_lock_file_names_its_holder_while_held_and_is_gone_when_the_run_lets_go()
    {
        string db = _dir.Sub("Db"), logs = _dir.Sub("Logs");
        using (RunLock.Acquire(new[] { db, logs }, "Holder", "run"))
        {
            Assert.True(File.Exists(LockFile(db)));
            Assert.Equal("Holder", RunLock.HolderOf(logs)!.TestId);
        }
        Assert.False(File.Exists(LockFile(db)));
        Assert.False(File.Exists(LockFile(logs)));
        Assert.Empty(Directory.GetFileSystemEntries(db));
    }

    [Fact]
    public void A_second_run_is_refused_and_the_holders_file_stays_until_the_holder_ends()
    {
        string db = _dir.Sub("Db"), free = _dir.Sub("Free");
        using (RunLock.Acquire(new[] { db }, "Holder", "run"))
        {
            var refused = Assert.Throws<EngineException>(() => RunLock.Acquire(new[] { free, db }, "Second", "run"));
            Assert.Equal("FolderInUse", refused.Code);
            Assert.Contains("'Holder'", refused.Message, StringComparison.Ordinal);
            Assert.True(File.Exists(LockFile(db)), "a refused run never removes the holder's lock");
            Assert.Equal("Holder", RunLock.HolderOf(db)!.TestId);
            Assert.False(File.Exists(LockFile(free)), "the refused run let go of the folder it had taken, and its file went");
        }
        using (RunLock.Acquire(new[] { db }, "Third", "run"))
            Assert.Equal("Third", RunLock.HolderOf(db)!.TestId);
        Assert.False(File.Exists(LockFile(db)));
    }

    [Fact]
    public void A_file_a_killed_run_left_blocks_nobody_and_is_removed_by_the_run_that_takes_it_over()
    {
        string db = _dir.Sub("Db");
        // What a SIGKILLed Linux run leaves: the file naming it, with no lock (the OS dropped it with the process).
        File.WriteAllText(LockFile(db), "{\"Machine\":\"gone\",\"ProcessId\":1,\"TestId\":\"Killed\",\"Command\":\"run\",\"SinceUtc\":\"2026-01-01T00:00:00Z\"}");
        Assert.Null(RunLock.HolderOf(db));
        Assert.True(File.Exists(LockFile(db)), "asking who holds it changes nothing");
        using (RunLock.Acquire(new[] { db }, "Next", "run"))
            Assert.Equal("Next", RunLock.HolderOf(db)!.TestId);
        Assert.False(File.Exists(LockFile(db)));
    }

    public void Dispose() => _dir.Dispose();
}
