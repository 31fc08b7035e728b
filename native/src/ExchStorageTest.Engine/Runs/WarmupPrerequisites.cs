using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// "Attaining prerequisites", defined once for every warm-up (Performance, Stress, Throughput, a capacity search's
/// first step): the measured window opens when each instance's cache model is ~90% full — Jetstress's own
/// prerequisite, its Database Cache Size at the lower bound — and the engine's code is warm (<see cref="CompilerQuiet"/>),
/// or when the warm-up's time bound has passed, which the test log then says.
/// </summary>
internal sealed class WarmupPrerequisites
{
    /// <summary>The share of each cache model's buffers that must hold pages.</summary>
    public const double CacheShare = 0.9;

    private readonly RunContext _ctx;
    private readonly CompilerQuiet _compiler;
    private bool _quiet, _filled;

    public WarmupPrerequisites(RunContext ctx, CompilerQuiet? compiler = null)
    {
        _ctx = ctx;
        _compiler = compiler ?? new CompilerQuiet();
    }

    /// <summary>
    /// True once each cache model has held its share of pages: reached, not held — once the scavenger runs, its pool
    /// of free buffers (up to twice an eighth of the cache, <see cref="Workload.FlushSizing"/>) may take a full cache
    /// below the share again, as ESE's Database Cache Size falls back from its lower bound.
    /// </summary>
    public bool CacheFilled => _filled || (_filled = _ctx.Instances.TrueForAll(w => w.Cache.Resident >= w.Cache.Capacity * CacheShare));

    /// <summary>Polled through the warm-up: true once both prerequisites hold. The compiler is looked at on every poll, so its window is always the latest.</summary>
    public bool Met()
    {
        _quiet = _compiler.IsQuiet();
        return CacheFilled && _quiet;
    }

    /// <summary>The test log's lines at the warm-up's end: the cache (Jetstress's line) and the engine's code, each saying when the bound came first.</summary>
    public IEnumerable<string> Describe()
    {
        long target = 0, cache = 0;
        foreach (var w in _ctx.Instances)
        {
            target += (long)(w.Cache.Capacity * CacheShare) * PageFormat.PageSize;
            cache += (long)w.Cache.Resident * PageFormat.PageSize;
        }
        const string bound = " - warm-up time bound reached";
        yield return TestRunner.F($"\\MSExchange Database(ExchStorageTest)\\Database Cache Size, Last: {cache:F1} (lower bound: {target:F1}, upper bound: none)") + (CacheFilled ? "" : bound);
        string compiler = _compiler.LastCpuShare is double share
            ? TestRunner.F($"the .NET compiler used {share * 100:0.#}% of a CPU over the last {CompilerQuiet.WindowSeconds:0.#} s (the window opens at {CompilerQuiet.MaximumCpuShare * 100:0}% or less)")
            : TestRunner.F($"not known, the warm-up ended within the compiler's first {CompilerQuiet.WindowSeconds:0.#} s (the window opens once it used {CompilerQuiet.MaximumCpuShare * 100:0}% of a CPU or less over that long)");
        yield return "Engine code compiled: " + compiler + (_quiet ? "." : bound);
    }
}
