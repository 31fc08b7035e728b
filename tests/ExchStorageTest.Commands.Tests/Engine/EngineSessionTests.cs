using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.Tests.Engine;

/// <summary>
/// The one engine session every engine is driven through (a run on this computer, each host's agent): how it notices an
/// engine's end, and the contract's one judgement of it (EngineExit.Judge), over a scripted stream.
/// </summary>
public sealed class EngineSessionTests
{
    [Theory]
    [InlineData(EngineExit.Ran, true, EngineEnd.Ran)]
    [InlineData(EngineExit.Ran, false, EngineEnd.Unanswered)]
    [InlineData(EngineExit.Error, true, EngineEnd.Failed)]
    [InlineData(EngineExit.Refused, false, EngineEnd.Failed)]
    [InlineData(EngineExit.Stopped, false, EngineEnd.Stopped)]
    [InlineData(137, true, EngineEnd.Lost)]
    [InlineData(EngineExit.DidNotExit, true, EngineEnd.Lost)]
    public void An_end_is_judged_by_its_exit_code_and_whether_the_answer_came(int exit, bool answered, EngineEnd expected) =>
        Assert.Equal(expected, EngineExit.Judge(exit, lost: false, answered));

    [Fact]
    public void An_engine_given_up_is_lost_whatever_its_exit_code() =>
        Assert.Equal(EngineEnd.Lost, EngineExit.Judge(EngineExit.Ran, lost: true, answered: true));

    [Fact]
    public void Events_come_until_the_output_ends_then_the_exit_code_is_the_end()
    {
        var stream = new ScriptedStream(exit: EngineExit.Stopped, new JsonObject().Set(EventFields.Type, EventTypes.Result));
        using var session = new EngineSession(stream);
        Assert.True(session.Next(TimeSpan.Zero)!.Is(EventTypes.Result));
        Assert.Null(session.Next(TimeSpan.Zero));
        Assert.True(session.Ended);
        Assert.Equal(EngineExit.Stopped, session.ExitCode);
        Assert.Null(session.Lost);
        Assert.Equal(EngineEnd.Stopped, session.Judge(answered: true));
    }

    [Fact]
    public void An_engine_silent_past_its_heartbeat_is_killed_and_lost_as_not_responding()
    {
        var stream = new ScriptedStream(exit: null) { Silent = "wrote nothing for 30 s" };
        using var session = new EngineSession(stream);
        Assert.Null(session.Next(TimeSpan.Zero));
        Assert.True(stream.Killed);
        Assert.True(session.Ended);
        Assert.Equal(EngineEnd.Lost, session.Judge(answered: true));
        Assert.Equal(ErrorCodes.EngineNotResponding, session.LostCode);
        Assert.Contains("(process 77) wrote nothing for 30 s", session.LostError().Message);
    }

    [Fact]
    public void An_exit_outside_the_protocol_s_codes_is_a_lost_engine_that_exited()
    {
        using var session = new EngineSession(new ScriptedStream(exit: 137));
        Assert.Null(session.Next(TimeSpan.Zero));
        Assert.Equal(137, session.ExitCode);
        Assert.Equal(ErrorCodes.EngineExited, session.LostCode);
        Assert.Contains("before it finished its command", session.Lost);
    }

    [Fact]
    public void A_stop_is_sent_once_and_nothing_after_the_end()
    {
        var stream = new ScriptedStream(exit: null);
        using var session = new EngineSession(stream);
        session.Stop();
        session.Send(ControlCommands.Stop);
        Assert.Equal(new[] { ControlCommands.Stop }, stream.Sent);
    }

    private sealed class ScriptedStream : IEngineStream
    {
        private readonly Queue<EngineEvent> _events;
        private readonly int? _exit;

        public ScriptedStream(int? exit, params JsonObject[] events)
        {
            _exit = exit;
            _events = new Queue<EngineEvent>(events.Select(e => new EngineEvent(e)));
        }

        public string? Silent { get; init; }
        public bool Killed { get; private set; }
        public List<string> Sent { get; } = new();
        public string EngineVersion => "test";
        public int ProcessId => 77;
        public string ErrorTail => "";
        public string? Lost => Silent;

        public EngineEvent? Next(TimeSpan timeout, out bool ended)
        {
            ended = _events.Count == 0 && Silent == null;
            return _events.Count > 0 ? _events.Dequeue() : null;
        }

        public void Send(string command, JsonObject? argument) => Sent.Add(command);
        public int? WaitForExit(TimeSpan timeout) => Killed ? 137 : _exit;
        public string DescribeExit() => $"ended with exit code {_exit}";
        public void Kill() => Killed = true;
        public void Dispose() { }
    }
}
