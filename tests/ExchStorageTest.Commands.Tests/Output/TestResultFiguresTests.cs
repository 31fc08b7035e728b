using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Tests.Output;

/// <summary>
/// SoftRecovery and DatabaseBackup results showed empty latency fields but not what they measured. The module's
/// TestResult carries each test's own figures from the engine's result event, and leaves them null for other tests.
/// </summary>
public sealed class TestResultFiguresTests
{
    [Fact]
    public void A_soft_recovery_carries_its_logs_replayed_and_how_long_they_took()
    {
        var e = new JsonObject()
            .Set(EventFields.Result.TestType, "SoftRecovery")
            .Set(EventFields.Result.SoftRecovery, new JsonObject()
                .Set(EventFields.Result.SoftRecoveryFigures.LogsReplayed, 10L)
                .Set(EventFields.Result.SoftRecoveryFigures.Seconds, 2.5)
                .Set(EventFields.Result.SoftRecoveryFigures.SecondsPerLog, 0.4321));
        var r = TestResult.FromEvent(e, "Lab");
        Assert.Equal(10, r.LogsReplayed);
        Assert.Equal(2.5, r.RecoverySeconds);
        Assert.Equal(0.4321, r.RecoverySecondsPerLog);
        Assert.Null(r.BackupMBPerSecond);
        Assert.Null(r.BackupSeconds);
    }

    [Fact]
    public void A_backup_carries_its_rates_and_duration_and_a_performance_run_neither()
    {
        var e = new JsonObject()
            .Set(EventFields.Result.TestType, "DatabaseBackup")
            .Set(EventFields.Result.Backup, new JsonObject()
                .Set(EventFields.Result.BackupFigures.MBPerSecondPerDatabase, 60.5)
                .Set(EventFields.Result.BackupFigures.MBPerSecond, 121.0)
                .Set(EventFields.Result.BackupFigures.Seconds, 9.25));
        var r = TestResult.FromEvent(e, "Lab");
        Assert.Equal(121.0, r.BackupMBPerSecond);
        Assert.Equal(9.25, r.BackupSeconds);
        Assert.Null(r.LogsReplayed);

        var perf = TestResult.FromEvent(new JsonObject().Set(EventFields.Result.TestType, "Performance").Set(EventFields.Result.TargetIops, 100.0), "Lab");
        Assert.Null(perf.LogsReplayed);
        Assert.Null(perf.RecoverySeconds);
        Assert.Null(perf.BackupSeconds);
    }
}
