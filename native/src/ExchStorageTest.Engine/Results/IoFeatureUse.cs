namespace ExchStorageTest.Engine.Results;

/// <summary>
/// One backend optimisation over a load phase's workers (registeredBuffers, registeredFiles,
/// skipCompletionPortOnSuccess, overlappedRange): <see cref="WorkersUsing"/> of <see cref="Workers"/>
/// used it; <see cref="Reason"/> says why the others did not (the first refusal), null when all did.
/// </summary>
public sealed class IoFeatureUse
{
    public string Name { get; set; } = "";
    public int Workers { get; set; }
    public int WorkersUsing { get; set; }
    public string? Reason { get; set; }

    /// <summary>One line for the test log, e.g. "registeredBuffers: used by 2 of 2 workers".</summary>
    public string Describe() =>
        $"{Name}: used by {WorkersUsing} of {Wording.Count(Workers, "worker")}" + (Reason is null ? "" : $" ({Reason})");

    /// <summary>Merges the features the workers' backends reported, feature by feature in first-seen order.</summary>
    public static List<IoFeatureUse> Of(IEnumerable<IReadOnlyList<Io.IoFeature>> workers)
    {
        var uses = new List<IoFeatureUse>();
        foreach (var features in workers)
        {
            foreach (var f in features)
            {
                var use = uses.Find(u => u.Name == f.Name);
                if (use is null) uses.Add(use = new IoFeatureUse { Name = f.Name });
                use.Workers++;
                if (f.Used) use.WorkersUsing++;
                else use.Reason ??= f.Reason;
            }
        }
        return uses;
    }
}
