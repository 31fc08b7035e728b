namespace ExchStorageTest.Engine.Results;

public sealed class LatencySummary
{
    public double Mean { get; set; }
    public double Min { get; set; }
    public double P50 { get; set; }
    public double P90 { get; set; }
    public double P99 { get; set; }
    public double P999 { get; set; }
    public double Max { get; set; }
}
