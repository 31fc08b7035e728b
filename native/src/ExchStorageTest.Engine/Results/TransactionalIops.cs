namespace ExchStorageTest.Engine.Results;

/// <summary>
/// "Achieved transactional I/O per second" (SPEC section 1): the sum over instances of the
/// transactional database reads/s and writes/s. The one derivation the run stores in
/// <see cref="DatabaseSizing.AchievedTransactionalIops"/> and every report prints, so no format can
/// disagree with another, and a results file that lacks the stored figure still reports it.
/// Backup reads, maintenance reads and log I/O are not transactional database I/O and never count.
/// </summary>
public static class TransactionalIops
{
    public static double Achieved(IEnumerable<InstanceResult> instances)
    {
        double sum = 0;
        foreach (var i in instances)
            sum += (i.Stream(StreamNames.DatabaseRead)?.OperationsPerSecond ?? 0) + (i.Stream(StreamNames.DatabaseWrite)?.OperationsPerSecond ?? 0);
        return sum;
    }

    public static double Achieved(TestResults results) => Achieved(results.Instances);

    /// <summary>The transactional database reads and writes counted (the operations behind <see cref="Achieved(IEnumerable{InstanceResult})"/>).</summary>
    public static long Operations(IEnumerable<InstanceResult> instances)
    {
        long sum = 0;
        foreach (var i in instances)
            sum += (i.Stream(StreamNames.DatabaseRead)?.Operations ?? 0) + (i.Stream(StreamNames.DatabaseWrite)?.Operations ?? 0);
        return sum;
    }
}
