namespace ExchStorageTest.Engine.Results;

public sealed class VerdictReason
{
    public string Code { get; set; } = "";
    public string? Instance { get; set; }
    public string Message { get; set; } = "";
    public double? Measured { get; set; }
    public double? Limit { get; set; }
}
