namespace ExchStorageTest.Engine.Results;

public sealed class VerdictResult
{
    /// <summary>Pass or Fail.</summary>
    public string Result { get; set; } = Verdicts.Fail;
    public List<VerdictReason> Reasons { get; set; } = new();
}
