namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// The engine's own warm-up, one prerequisite of the measured window (<see cref="WarmupPrerequisites"/>). .NET first
/// runs code quickly compiled and, once it has run a while, compiles the hot part again, optimised (tiered
/// compilation), on a background thread — in a closed-loop run 1,000-1,500 methods and 0.3-0.7 s of CPU in its first
/// seconds — and pauses the process briefly to swap the new code in. On a host with few CPUs that takes a CPU from the
/// load and from the storage stack's own threads. Measured (docs/benchmarks.md "The last stalls"; the 2-vCPU
/// VM, one closed-loop database on a RAM-backed loop volume, whose cache filled 0.26 s into the load): with the window
/// opened as the cache filled, 17 of 30 runs stalled page faults in its first seconds (database writes up to 8-41 ms,
/// against 0.4 ms after) and 13 failed on them; with the window opened once the compiler had gone quiet, 5 and 3 of 30
/// (alternated with them), 0 of 12 in the last batch. So the window
/// opens when the compiler used at most <see cref="MaximumCpuShare"/> of one CPU over the last
/// <see cref="WindowSeconds"/> — the process's compiler, all threads (JitInfo).
/// </summary>
internal sealed class CompilerQuiet
{
    /// <summary>How far back the compiler's work is looked at.</summary>
    public const double WindowSeconds = 0.5;

    /// <summary>
    /// Quiet: at most this share of one CPU compiling over the window. Once the hot code is optimised the engine's
    /// compiler goes on at 2-10% of a CPU for a few seconds (the sampler's and the results' code, once each: measured
    /// 25-110 ms a second) — no longer the burst, which took up to a whole CPU.
    /// </summary>
    public const double MaximumCpuShare = 0.05;

    private readonly Func<TimeSpan> _compileTime;
    private readonly Func<double> _nowSeconds;
    private readonly List<(double At, double CompileMs)> _seen = new();

    /// <summary>This process's compiler and clock.</summary>
    public CompilerQuiet() : this(() => System.Runtime.JitInfo.GetCompilationTime(currentThread: false), () => (double)Load.Clock.Now / Load.Clock.Frequency) { }

    /// <summary>A compiler and clock of the caller's (tests).</summary>
    public CompilerQuiet(Func<TimeSpan> compileTime, Func<double> nowSeconds)
    {
        _compileTime = compileTime;
        _nowSeconds = nowSeconds;
    }

    /// <summary>The compiler's share of one CPU over the last window, as of the last <see cref="IsQuiet"/>; null before a window has passed.</summary>
    public double? LastCpuShare { get; private set; }

    /// <summary>Looks at the compiler now: true when it has been quiet over the last <see cref="WindowSeconds"/>.</summary>
    public bool IsQuiet()
    {
        double now = _nowSeconds(), ms = _compileTime().TotalMilliseconds;
        _seen.Add((now, ms));
        // The latest look at least a window old is where the window starts; older ones are not needed again.
        int from = _seen.FindLastIndex(s => now - s.At >= WindowSeconds);
        if (from < 0) return false;
        _seen.RemoveRange(0, from);
        var (at, compiled) = _seen[0];
        LastCpuShare = (ms - compiled) / ((now - at) * 1000);
        return LastCpuShare <= MaximumCpuShare;
    }
}
