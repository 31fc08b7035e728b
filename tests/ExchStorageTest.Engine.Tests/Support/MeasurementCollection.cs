namespace ExchStorageTest.Engine.Tests;

/// <summary>
/// Tests whose assertions are timing-dependent ratios of a real run (group commit, pacing): they run on
/// their own, after the parallel classes, because on a 2-CPU CI machine a neighbouring class steals the
/// CPU the sessions need and skews what is measured (a CI run saw 14.7 DB transfers per log write, 12.4-14.1
/// when run alone).
/// </summary>
[CollectionDefinition(Name, DisableParallelization = true)]
public sealed class MeasurementCollection
{
    public const string Name = "Measurements run alone";
}
