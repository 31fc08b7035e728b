using ExchStorageTest.Runs;

namespace ExchStorageTest.Tests.Runs;

/// <summary>The start file of a run on a share (start.json): one creator wins, every host reads its instant.</summary>
public sealed class StartFileTests : IDisposable
{
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "exst-start-" + Guid.NewGuid().ToString("N")[..8]);

    public StartFileTests() => Directory.CreateDirectory(_folder);

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    [Fact]
    public void The_first_host_creates_it_the_others_read_its_instant_and_only_Force_replaces_it()
    {
        string path = Path.Combine(_folder, RunStartFile.FileName);
        var first = new DateTime(2026, 11, 25, 0, 10, 0, 123, DateTimeKind.Utc);
        Assert.True(RunStartFile.TryCreate(path, RunIds.New(first), first, hostCount: 2));
        Assert.False(RunStartFile.TryCreate(path, RunIds.New(first.AddMinutes(1)), first.AddMinutes(1), hostCount: null));

        RunStartFile read = RunStartFile.TryRead(path, out string problem)!;
        Assert.Equal("", problem);
        Assert.Equal(first, read.StartAtUtc);
        Assert.Equal(2, read.HostCount);
        Assert.StartsWith("20261125-001000-", read.RunId);

        Assert.True(RunStartFile.TryCreate(path, "r2", first.AddHours(1), null, replace: true));
        Assert.Equal(first.AddHours(1), RunStartFile.TryRead(path, out _)!.StartAtUtc);
    }

    [Fact]
    public void A_half_written_or_foreign_file_is_no_start_file_yet_and_says_why()
    {
        string path = Path.Combine(_folder, RunStartFile.FileName);
        File.WriteAllText(path, "{\"schema\": \"exchstoragetest/run\", \"startAt");
        Assert.Null(RunStartFile.TryRead(path, out string half));
        Assert.NotEqual("", half);
        File.WriteAllText(path, "{\"schema\": \"other\", \"startAtUtc\": \"2026-11-25T00:10:00Z\"}");
        Assert.Null(RunStartFile.TryRead(path, out string foreign));
        Assert.Contains("exchstoragetest/run", foreign);
    }
}
