using System.Text;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Protocol;

/// <summary>
/// The engine's heartbeat promise (the contract's Heartbeat, docs/protocol.md): a line at least every interval while the
/// command's thread lives, none once it has died, and the promise itself in the hello line.
/// </summary>
public class HeartbeatTests
{
    [Theory]
    [InlineData(0, 5000, 5000)]
    [InlineData(1200, 5000, 3800)]
    [InlineData(5000, 5000, 0)]
    [InlineData(9000, 5000, 0)]
    public void Waits_only_as_long_as_the_writer_has_left_of_its_interval(long quiet, int interval, int wait) =>
        Assert.Equal(wait, HeartbeatThread.NextWaitMilliseconds(quiet, interval));

    [Theory]
    [InlineData(null, Heartbeat.DefaultSeconds)]
    [InlineData("", Heartbeat.DefaultSeconds)]
    [InlineData("1", 1.0)]
    [InlineData("0.5", 0.5)]
    [InlineData("0", Heartbeat.DefaultSeconds)]
    [InlineData("600", Heartbeat.DefaultSeconds)]
    [InlineData("soon", Heartbeat.DefaultSeconds)]
    public void The_interval_is_the_default_unless_the_variable_gives_one_in_range(string? variable, double seconds) =>
        Assert.Equal(seconds, Heartbeat.IntervalSeconds(variable));

    [Fact]
    public void Beats_while_the_command_thread_lives_and_falls_silent_when_it_dies()
    {
        var output = new LineCounter();
        var events = new EventWriter(output);
        using var commandRunning = new ManualResetEventSlim(false);
        using var commandMayEnd = new ManualResetEventSlim(false);
        HeartbeatThread? heartbeat = null;
        var command = new Thread(() =>
        {
            heartbeat = HeartbeatThread.Start(events, Heartbeat.MinimumSeconds);
            commandRunning.Set();
            commandMayEnd.Wait();
            // Ends without disposing the heartbeat: the thread died, as a faulted one would.
        });
        command.Start();
        commandRunning.Wait();

        Assert.True(output.WaitForLines(3, TimeSpan.FromMinutes(1)), "no heartbeat while the command ran");
        Assert.All(output.Lines(), l => Assert.Contains("\"type\":\"heartbeat\"", l, StringComparison.Ordinal));

        commandMayEnd.Set();
        command.Join();
        Assert.True(heartbeat!.WaitEnded(TimeSpan.FromMinutes(1)), "the heartbeat went on after its command's thread died");
        heartbeat.Dispose();
    }

    [Fact]
    public void A_line_of_any_kind_resets_the_quiet_time()
    {
        var events = new EventWriter(Stream.Null);
        Thread.Sleep(50);
        Assert.True(events.QuietMilliseconds >= 40);
        events.Log(EventFields.Log.Verbose, "x");
        Assert.True(events.QuietMilliseconds < 40);
    }

    [Fact]
    public void The_hello_line_carries_the_promise()
    {
        var (exit, events) = Cli.ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"version\"}");
        Assert.Equal(0, exit);
        Assert.Equal(Heartbeat.DefaultSeconds, events[0].GetProperty(EventFields.Hello.HeartbeatSeconds).GetDouble());
    }

    [Fact]
    public void Heartbeats_cover_a_caller_stepped_search_waiting_for_its_next_step()
    {
        // The longest legitimate silence: a search stepped by its caller loads nothing and says nothing until the next
        // step comes (hours, if the orchestrator waits for other hosts). The heartbeat speaks for it.
        using var folder = new TestFolder("heartbeat");
        using var engine = new EngineProcess(Capacity.CapacityCallerStepsTests.Request(folder).Json(), controlChannel: true,
            new Dictionary<string, string> { [Heartbeat.Variable] = "0.5" });
        Assert.Equal(0.5, engine.WaitFor(EventTypes.Hello).GetProperty(EventFields.Hello.HeartbeatSeconds).GetDouble());
        Capacity.CapacityCallerStepsTests.WaitUntilReady(engine);
        for (int i = 0; i < 3; i++) engine.WaitFor(EventTypes.Heartbeat, 60);
        engine.Send(ControlCommands.Stop);
        Assert.Equal(EngineExit.Stopped, engine.WaitForExit());
    }

    [Fact]
    public void OS_thread_watch_sees_a_thread_that_has_ended()
    {
        OsThreadWatch? watch = null;
        var t = new Thread(() => watch = OsThreadWatch.ForCurrentThread());
        t.Start();
        t.Join();
        Assert.False(watch!.IsAlive);
        using var self = OsThreadWatch.ForCurrentThread();
        Assert.True(self.IsAlive);
        watch.Dispose();
    }

    /// <summary>A write-only stream that keeps each line, safe to read while the heartbeat writes.</summary>
    private sealed class LineCounter : Stream
    {
        private readonly StringBuilder _text = new();

        public List<string> Lines()
        {
            lock (_text) return _text.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries).ToList();
        }

        public bool WaitForLines(int count, TimeSpan timeout)
        {
            var deadline = DateTime.UtcNow + timeout;
            while (DateTime.UtcNow < deadline)
            {
                if (Lines().Count >= count) return true;
                Thread.Sleep(50);
            }
            return false;
        }

        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));
        public override void Write(ReadOnlySpan<byte> buffer)
        {
            lock (_text) _text.Append(Encoding.UTF8.GetString(buffer));
        }
        public override void Flush() { }
        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => throw new NotSupportedException();
        public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
