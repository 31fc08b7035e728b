namespace ExchStorageTest.Engine.Results;

public sealed class TestLogLine
{
    public DateTime TimeUtc { get; set; }
    public string Message { get; set; } = "";
}
