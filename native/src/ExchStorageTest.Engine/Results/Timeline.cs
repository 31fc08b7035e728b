namespace ExchStorageTest.Engine.Results;

public sealed class Timeline
{
    public DateTime TestStartUtc { get; set; }
    public DateTime TestEndUtc { get; set; }
    public DateTime? CollectionStartUtc { get; set; }
    public DateTime? CollectionEndUtc { get; set; }
    public List<PhaseMark> Phases { get; set; } = new();
}
