namespace ExchStorageTest.Engine.Results;

/// <summary>
/// Results <c>exchange</c>: which Exchange the run's load modelled (<see cref="ModelledExchange"/>, the one
/// definition), so a reader of the results, the reports or the ESRP tables knows what was tested. A results file
/// written before the field existed reads as Jetstress's model, the only one those runs had.
/// </summary>
public sealed class ExchangeModelled
{
    public string Version { get; set; } = ModelledExchange.Jetstress.Version;
    public string Layout { get; set; } = ModelledExchange.Jetstress.Layout;

    public static ExchangeModelled Of(ModelledExchange model) => new() { Version = model.Version, Layout = model.Layout };

    /// <summary>"Exchange 2013/2016, Jetstress-compatible: active databases only".</summary>
    public string Describe() => ModelledExchange.Describe(Version, Layout);

    /// <summary>The contract's model this names; null for a version/layout pair this engine does not know.</summary>
    public ModelledExchange? Model() => ModelledExchange.Find(Version, Layout);
}
