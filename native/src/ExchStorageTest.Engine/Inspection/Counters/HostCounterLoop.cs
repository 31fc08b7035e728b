using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>Runs a sampler on its own interval (default 15 s, as Jetstress) until stopped.</summary>
public sealed class HostCounterLoop : IAsyncDisposable
{
    private readonly IHostCounterSampler _sampler;
    private readonly CancellationTokenSource _cts = new();
    private readonly Task _task;

    public HostCounterLoop(IHostCounterSampler sampler, TimeSpan interval)
    {
        if (interval <= TimeSpan.Zero) throw new ArgumentOutOfRangeException(nameof(interval));
        _sampler = sampler;
        _sampler.Start();
        _task = RunAsync(interval, _cts.Token);
    }

    private async Task RunAsync(TimeSpan interval, CancellationToken ct)
    {
        using var timer = new PeriodicTimer(interval);
        try
        {
            while (await timer.WaitForNextTickAsync(ct).ConfigureAwait(false)) _sampler.Sample();
        }
        catch (OperationCanceledException)
        {
        }
    }

    /// <summary>Stops sampling and returns the accumulated counters.</summary>
    public async Task<List<HostCounter>> StopAsync()
    {
        _cts.Cancel();
        await _task.ConfigureAwait(false);
        return _sampler.Results();
    }

    public async ValueTask DisposeAsync()
    {
        _cts.Cancel();
        await _task.ConfigureAwait(false);
        _cts.Dispose();
        _sampler.Dispose();
    }
}
