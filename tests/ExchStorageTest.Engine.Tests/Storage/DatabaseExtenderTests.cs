using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;
using Xunit;

namespace ExchStorageTest.Engine.Tests.Storage;

public class DatabaseExtenderTests : IDisposable
{
    private readonly string _dir = Path.Combine(Path.GetTempPath(), "est-extend-" + Guid.NewGuid().ToString("N"));
    private readonly List<string> _warnings = new();

    public DatabaseExtenderTests() => Directory.CreateDirectory(_dir);

    public void Dispose() => Directory.Delete(_dir, recursive: true);

    /// <summary>A file of <paramref name="pages"/> pages, each filled with its page number's low byte + 1 (never zero).</summary>
    private string File(long pages)
    {
        string path = Path.Combine(_dir, "db.edb");
        using var f = new FileStream(path, FileMode.CreateNew);
        var page = new byte[PageFormat.PageSize];
        for (long p = 0; p < pages; p++)
        {
            Array.Fill(page, (byte)(p % 255 + 1));
            f.Write(page);
        }
        return path;
    }

    private static void WaitFor(Func<bool> done)
    {
        var until = DateTime.UtcNow.AddSeconds(30);
        while (!done())
        {
            Assert.True(DateTime.UtcNow < until, "the extension did not happen within 30 s");
            Thread.Sleep(5);
        }
    }

    private static byte[] Page(string path, long page)
    {
        using var f = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        var b = new byte[PageFormat.PageSize];
        f.Position = page * PageFormat.PageSize;
        f.ReadExactly(b);
        return b;
    }

    [Fact]
    public void The_file_is_extended_ahead_of_the_growth_by_written_zero_pages_up_to_the_limit_and_no_further()
    {
        string path = File(4);
        using (var extender = new DatabaseExtender(allowBuffered: true, _warnings.Add))
        {
            var room = extender.Add("Instance.1", path, pageCount: 4, growthLimitPages: 300);
            Assert.Equal(4, room.End); // nothing before the load that grows it
            Assert.Equal(4L * PageFormat.PageSize, new FileInfo(path).Length);
            extender.Start();
            // The first extension is made by Start, before that load, on the caller's thread.
            Assert.Equal(4 + GrowthRoom.ExtensionPages, room.End);
            Assert.Equal((4L + GrowthRoom.ExtensionPages) * PageFormat.PageSize, new FileInfo(path).Length);
            Assert.True(room.Allows(4));
            Assert.Equal(1, room.Extensions);
            Assert.False(room.Allows(4 + GrowthRoom.ExtensionPages)); // the room's end: the next is asked for
            WaitFor(() => room.End == 304);
            Assert.Equal(304L * PageFormat.PageSize, new FileInfo(path).Length);
            Assert.False(room.Allows(304)); // the limit: nothing more is asked for
            Thread.Sleep(50);
            Assert.Equal(304, room.End);
            Assert.Equal(2, room.Extensions);
        }
        Assert.Empty(_warnings);
        Assert.All(Page(path, 3), b => Assert.Equal(4, b)); // the database's own pages are untouched
        Assert.All(Page(path, 4), b => Assert.Equal(0, b));
        Assert.All(Page(path, 303), b => Assert.Equal(0, b));
    }

    [Fact]
    public void A_file_an_earlier_run_extended_further_keeps_its_length()
    {
        string path = File(600);
        using (var extender = new DatabaseExtender(allowBuffered: true, _warnings.Add))
        {
            var room = extender.Add("Instance.1", path, pageCount: 4, growthLimitPages: 300);
            extender.Start();
            Assert.Equal(4 + GrowthRoom.ExtensionPages, room.End);
        }
        Assert.Equal(600L * PageFormat.PageSize, new FileInfo(path).Length);
        Assert.All(Page(path, 259), b => Assert.Equal(0, b)); // the room was written again
        Assert.All(Page(path, 260), b => Assert.Equal(260 % 255 + 1, b)); // past the room: as it was
    }

    [Fact]
    public void A_database_that_may_not_grow_gets_no_room_and_asks_for_none()
    {
        string path = File(4);
        using var extender = new DatabaseExtender(allowBuffered: true, _warnings.Add);
        var room = extender.Add("Instance.1", path, pageCount: 4, growthLimitPages: 0);
        extender.Start();
        Assert.False(room.Allows(4));
        Thread.Sleep(50);
        Assert.Equal(4, room.End);
        Assert.Equal(4L * PageFormat.PageSize, new FileInfo(path).Length);
    }

    [Fact]
    public void A_file_that_cannot_be_extended_stops_the_growth_with_one_warning_naming_it()
    {
        string path = Path.Combine(_dir, "gone.edb");
        using var extender = new DatabaseExtender(allowBuffered: true, _warnings.Add);
        var room = extender.Add("Instance.1", path, pageCount: 4, growthLimitPages: 300);
        extender.Start();
        Assert.NotNull(room.Failure);
        Assert.False(room.Allows(4)); // and nothing is asked for
        Thread.Sleep(50);
        var warning = Assert.Single(_warnings);
        Assert.Contains("Instance.1", warning);
        Assert.Contains("grows no further", warning);
        Assert.Equal(4, room.End);
    }
}
