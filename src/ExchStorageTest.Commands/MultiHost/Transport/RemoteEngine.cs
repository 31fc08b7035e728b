using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// A host's engine as the orchestrator drives it over the host's link (<see cref="IHostLink"/>, through the agent's
    /// pipeline), for every kind of work (a plan, a test, a capacity search): the request JSON goes in, the engine's events come out as the host's agent relays them
    /// (<see cref="HostAgent"/>), and control lines (<c>stop</c>, <c>step</c>, <c>end</c>) go in while it runs. It keeps
    /// one line in flight: when an answer comes and nothing else is to be said, it polls again, so events arrive as they
    /// come and the host's silence is noticed. Its events are read by the command's thread (<see cref="Take"/>) and
    /// mapped there with the mappers a run on this computer uses. The rule for a lost engine is the local one (the agent's
    /// <see cref="Engine.EngineSession"/>, judged by <see cref="EngineExit.Judge"/>): an engine
    /// that ends without a result, or a host silent for longer than <see cref="Silence"/>, fails that host (the pipeline
    /// is stopped); the others go on.
    /// </summary>
    internal sealed class RemoteEngine : IDisposable
    {
        /// <summary>How long a host may leave a line unanswered before it counts as lost (an answer takes at most about <see cref="HostAgent.PollWait"/>).</summary>
        public static readonly TimeSpan DefaultSilence = RemoteScript.DefaultTimeout;

        private readonly IAgentPipeline _link;
        private readonly object _gate = new object();
        private readonly List<JsonObject> _events = new List<JsonObject>();
        private readonly ManualResetEvent _changed = new ManualResetEvent(false);
        private int _inFlight;
        private bool _inputClosed;
        private bool _stopSent;
        private bool _disposed;
        private DateTime _lastAnswer = DateTime.UtcNow;

        public RemoteEngine(IAgentPipeline link, TimeSpan? silence = null)
        {
            _link = link;
            Silence = silence ?? DefaultSilence;
        }

        public TimeSpan Silence { get; }

        /// <summary>The engine's version and process on the host, from its first answer.</summary>
        public string? EngineVersion { get; private set; }
        public int? ProcessId { get; private set; }

        /// <summary>The engine's exit code (docs/protocol.md), once every event is in; -1: it did not exit when its output ended.</summary>
        public int? ExitCode { get; private set; }

        /// <summary>Why the host's agent gave its engine up (silent past its heartbeat, killed, crashed), or null.</summary>
        public string? EngineLost { get; private set; }

        /// <summary>The end of what the engine wrote to standard error, when it failed.</summary>
        public string? ErrorTail { get; private set; }

        /// <summary>Why the channel ended without the engine's exit: the host's pipeline failed, or the host fell silent.</summary>
        public string? Lost { get; private set; }

        /// <summary>The exception behind <see cref="Lost"/>, when there is one.</summary>
        public Exception? LostBy { get; private set; }

        /// <summary>The host's pipeline has ended (the agent finished, or the pipeline failed or was stopped).</summary>
        public bool PipelineEnded { get; private set; }

        /// <summary>Every event read so far (the command's thread appends to it in <see cref="Take"/>).</summary>
        public List<JsonObject> Received { get; } = new List<JsonObject>();

        /// <summary>The engine exited and every event is in, or the host is lost.</summary>
        public bool Ended
        {
            get { lock (_gate) return (ExitCode.HasValue || Lost != null) && _events.Count == 0; }
        }

        /// <summary>Signalled when an answer or the end arrives (reset by <see cref="Take"/>).</summary>
        public WaitHandle Changed => _changed;

        /// <summary>Starts the host's agent with the request and the polling.</summary>
        public void Open(string requestJson)
        {
            lock (_gate)
            {
                _lastAnswer = DateTime.UtcNow;
                _link.Start(requestJson, Answered, Closed);
                SendLocked(HostAgent.Poll);
            }
        }

        /// <summary>A control line for the engine (<see cref="ControlCommands"/>), sent at once (it queues behind the poll in flight).</summary>
        public void Send(string line)
        {
            lock (_gate)
            {
                if (ExitCode.HasValue || Lost != null || _inputClosed) return;
                if (line == ControlCommands.Stop)
                {
                    if (_stopSent) return;
                    _stopSent = true;
                }
                SendLocked(line);
            }
        }

        /// <summary>Asks the engine to stop (once): it judges and saves what it measured and its events still come. Any thread.</summary>
        public void Stop() => Send(ControlCommands.Stop);

        /// <summary>The end of the input: the agent finishes (stopping an engine still running) and sends what is left.</summary>
        public void Close()
        {
            lock (_gate)
            {
                if (_inputClosed) return;
                _inputClosed = true;
                _link.Complete();
            }
        }

        /// <summary>
        /// Closes the input and waits (at most <paramref name="timeout"/>) for the host's pipeline to end, so the host's
        /// runspace is free for the next remote call (a runspace runs one pipeline at a time). True when it ended.
        /// </summary>
        public bool CloseAndWait(TimeSpan timeout)
        {
            Close();
            DateTime deadline = DateTime.UtcNow + timeout;
            while (true)
            {
                lock (_gate)
                {
                    if (PipelineEnded || _disposed) return PipelineEnded;
                    _changed.Reset();
                }
                TimeSpan left = deadline - DateTime.UtcNow;
                if (left <= TimeSpan.Zero) return false;
                _changed.WaitOne(left < TimeSpan.FromMilliseconds(250) ? left : TimeSpan.FromMilliseconds(250));
            }
        }

        /// <summary>The events that arrived since the last call, added to <see cref="Received"/>; also notices a host that fell silent.</summary>
        public IReadOnlyList<JsonObject> Take()
        {
            List<JsonObject> taken;
            lock (_gate)
            {
                taken = new List<JsonObject>(_events);
                _events.Clear();
                if (_disposed) return taken;
                _changed.Reset();
                if (Lost == null && !ExitCode.HasValue && _inFlight > 0 && DateTime.UtcNow - _lastAnswer > Silence)
                {
                    Lost = string.Format(System.Globalization.CultureInfo.InvariantCulture, "the host sent nothing for {0:0} s (it is not answering: a lost connection, or a host that hangs).", Silence.TotalSeconds);
                    AbortLocked();
                    _changed.Set();
                }
            }
            Received.AddRange(taken);
            return taken;
        }

        /// <summary>How the host's engine ended (<see cref="EngineExit.Judge"/>), given whether its command's answer came.</summary>
        public EngineEnd Judge(bool answered) => EngineExit.Judge(ExitCode, EngineLost != null, answered);

        /// <summary>The events of one type read so far.</summary>
        public IEnumerable<JsonObject> ReceivedOf(string type) => Received.Where(e => e.GetString(EventFields.Type) == type);

        private void SendLocked(string line)
        {
            _inFlight++;
            _link.Send(line);
        }

        private void Answered(string text)
        {
            HostAnswer? answer = HostAnswer.Parse(text);
            lock (_gate)
            {
                if (_disposed) return;
                _lastAnswer = DateTime.UtcNow;
                if (_inFlight > 0) _inFlight--;
                if (answer == null)
                {
                    Lost = Lost ?? "the host's module answered in a form this module does not read (another version of ExchStorageTest there?).";
                    AbortLocked();
                }
                else
                {
                    if (answer.EngineVersion != null) EngineVersion = answer.EngineVersion;
                    if (answer.ProcessId.HasValue) ProcessId = answer.ProcessId;
                    _events.AddRange(answer.Events);
                    if (answer.ExitCode.HasValue && !ExitCode.HasValue)
                    {
                        ExitCode = answer.ExitCode;
                        ErrorTail = answer.ErrorTail;
                        EngineLost = answer.Lost;
                    }
                    // One line in flight: poll again while the engine runs and nothing else is being said.
                    if (!ExitCode.HasValue && Lost == null && !_inputClosed && _inFlight == 0) SendLocked(HostAgent.Poll);
                }
                _changed.Set();
            }
        }

        /// <summary>
        /// Stops the host's pipeline, and with it the channel's input: every place a channel ends (a plan, a run's
        /// collection, a search's end, the release after a stop or a failure) closes it afterwards, and over remoting a
        /// line or the end of input written to a pipeline that is stopping fails inside PowerShell (<see cref="RunspaceAgentPipeline"/>).
        /// </summary>
        private void AbortLocked()
        {
            _inputClosed = true;
            _link.Abort();
        }

        private void Closed(Exception? failure)
        {
            lock (_gate)
            {
                if (_disposed) return;
                PipelineEnded = true;
                // No one reads the input of a pipeline that has ended.
                _inputClosed = true;
                if (!ExitCode.HasValue && Lost == null)
                {
                    LostBy = failure;
                    Lost = failure != null ? Unwrapped(failure).Message : "the host's pipeline ended before its engine did.";
                }
                _changed.Set();
            }
        }

        /// <summary>The host's own error, not PowerShell's wrapper of a remote terminating error.</summary>
        private static Exception Unwrapped(Exception ex)
        {
            for (Exception? e = ex; e != null; e = e.InnerException)
                if (e is System.Management.Automation.IContainsErrorRecord && e.InnerException == null) return e;
            return ex is System.Management.Automation.RuntimeException && ex.InnerException != null ? ex.InnerException : ex;
        }

        public void Dispose()
        {
            lock (_gate)
            {
                if (_disposed) return;
                _disposed = true;
                if (!_inputClosed && !ExitCode.HasValue && Lost == null) AbortLocked();
                // Under the lock: an answer arriving now finds the channel disposed and is dropped.
                _changed.Dispose();
            }
            _link.Dispose();
        }
    }
}
