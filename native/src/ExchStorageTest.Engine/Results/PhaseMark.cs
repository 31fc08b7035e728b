namespace ExchStorageTest.Engine.Results;

public sealed class PhaseMark
{
    public string Name { get; set; } = "";
    public DateTime StartUtc { get; set; }
    public DateTime? EndUtc { get; set; }
}
