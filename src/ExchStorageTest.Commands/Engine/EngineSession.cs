using System;
using System.Globalization;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// One engine driven from its start to its end, the same way wherever it runs: a run on this computer
    /// (<see cref="EngineRun"/>) and the agent on each host of a multi-host run (<see cref="MultiHost.HostAgent"/>) both
    /// read its events through this, send its control lines, stop it, and learn how it ended. The end is noticed here once:
    /// its output ended and it exited (or did not, and was killed), or it fell silent past its heartbeat promise
    /// (<see cref="Heartbeat"/>) and was killed. It is judged by the contract's one rule (<see cref="EngineExit.Judge"/>).
    /// </summary>
    internal sealed class EngineSession : IDisposable
    {
        /// <summary>How long an engine asked to stop may take to judge and save its partial result.</summary>
        public static TimeSpan StopGrace => EngineProcess.StopGrace;

        private readonly IEngineStream _stream;
        private readonly object _gate = new object();
        private bool _stopSent;

        public EngineSession(IEngineStream stream) => _stream = stream;

        /// <summary>Starts this computer's engine with <paramref name="request"/> on its control channel (its hello checked).</summary>
        public static EngineSession Start(JsonObject request) => new EngineSession(new ProcessEngineStream(request));

        public string EngineVersion => _stream.EngineVersion;

        public int ProcessId => _stream.ProcessId;

        /// <summary>The last lines the engine wrote to standard error.</summary>
        public string ErrorTail => _stream.ErrorTail;

        /// <summary>
        /// The engine's exit code once it has ended (docs/protocol.md), <see cref="EngineExit.DidNotExit"/> when its output
        /// ended but it did not exit in time; null while it runs.
        /// </summary>
        public int? ExitCode { get; private set; }

        /// <summary>True once the engine has ended (<see cref="ExitCode"/> is set) and no event is left.</summary>
        public bool Ended => ExitCode.HasValue;

        /// <summary>
        /// Why the engine did not finish its command, in words that follow "the engine (process N)": killed or crashed (an
        /// exit outside the protocol's codes), silent past its heartbeat, or not exiting after its output ended; else null.
        /// </summary>
        public string? Lost { get; private set; }

        /// <summary>The error that <see cref="Lost"/> is (EngineNotResponding, EngineExited or EngineFailed); null when not lost.</summary>
        public ErrorCode? LostCode { get; private set; }

        public bool StopRequested
        {
            get { lock (_gate) return _stopSent; }
        }

        /// <summary>A control command (<see cref="ControlCommands"/>); nothing once the engine has ended. Safe from any thread.</summary>
        public void Send(string command, JsonObject? argument = null)
        {
            if (command == ControlCommands.Stop)
            {
                Stop();
                return;
            }
            if (!Ended) _stream.Send(command, argument);
        }

        /// <summary>Asks the engine to stop (once): it ends its measured window, judges and saves what it has. Safe from any thread.</summary>
        public void Stop()
        {
            lock (_gate)
            {
                if (_stopSent) return;
                _stopSent = true;
            }
            if (!Ended) _stream.Send(ControlCommands.Stop, null);
        }

        /// <summary>
        /// The next event, or null when <paramref name="wait"/> passed first or the engine has ended (then <see cref="Ended"/>
        /// holds, with how it ended). Call from one thread.
        /// </summary>
        public EngineEvent? Next(TimeSpan wait)
        {
            if (Ended) return null;
            EngineEvent? next = _stream.Next(wait, out bool ended);
            if (next != null) return next;
            if (ended) Exited();
            else if (_stream.Lost is string silent) GiveUp(silent, ErrorCodes.EngineNotResponding);
            return null;
        }

        /// <summary>How the engine ended (<see cref="EngineExit.Judge"/>), given whether the answer its command promises came.</summary>
        public EngineEnd Judge(bool answered) => EngineExit.Judge(ExitCode, Lost != null, answered);

        /// <summary>The loss as the module's error, naming the engine's process and its last lines on standard error.</summary>
        public StorageTestException LostError() =>
            new StorageTestException(LostCode ?? ErrorCodes.EngineExited, $"The ExchStorageTest engine (process {ProcessId}) {Lost}.{DescribeTail(ErrorTail)}", ProcessId);

        /// <summary>The end of an engine's standard error for a message about it, or the fact that it wrote none.</summary>
        public static string DescribeTail(string? tail) =>
            string.IsNullOrWhiteSpace(tail) ? " It wrote nothing to standard error." : " Its last lines on standard error:" + Environment.NewLine + tail;

        /// <summary>Its output ended: it exits (with a protocol code, or another: killed or crashed) or is killed.</summary>
        private void Exited()
        {
            int? exit = _stream.WaitForExit(StopGrace);
            if (exit == null)
            {
                // Its output ended but the process lives on: nothing more can come from it.
                GiveUp(string.Format(CultureInfo.InvariantCulture, "closed its output but did not exit within {0:0} s, and was killed", StopGrace.TotalSeconds), ErrorCodes.EngineFailed);
                return;
            }
            if (!EngineExit.IsProtocol(exit.Value))
            {
                Lost = _stream.DescribeExit() + " before it finished its command";
                LostCode = ErrorCodes.EngineExited;
            }
            ExitCode = exit;
        }

        /// <summary>Gives a lost engine up: it is killed (a hung one cannot be asked to stop) and its exit noted.</summary>
        private void GiveUp(string why, ErrorCode code)
        {
            _stream.Kill();
            Lost = why;
            LostCode = code;
            ExitCode = _stream.WaitForExit(TimeSpan.FromSeconds(5)) ?? EngineExit.DidNotExit;
        }

        public void Dispose() => _stream.Dispose();
    }
}
