using System.Collections.Generic;
using System.Diagnostics;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// Runs this computer's engine with one request to its end, through the one engine session (<see cref="EngineSession"/>):
    /// log and progress events go to a sink as verbose, information, warning and progress records; an error event that ends
    /// the engine (exit 1 or 2, <see cref="EngineEnd.Failed"/>) becomes a <see cref="StorageTestException"/> with its code
    /// as ErrorId, one the engine went on after a non-terminating error; every other event is collected and handed to the
    /// caller as it arrives. <see cref="Stop"/> (from any thread) asks the engine to stop cleanly.
    /// </summary>
    internal sealed class EngineRun
    {
        // Progress is throttled: the engine may report many times a second, and a host redraws each record.
        private static readonly TimeSpan ProgressInterval = TimeSpan.FromMilliseconds(250);
        private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(200);

        private readonly object _gate = new object();
        private readonly List<(string Command, JsonObject? Argument)> _unsent = new List<(string, JsonObject?)>();
        private EngineSession? _session;
        private bool _stopped;

        /// <summary>Asks the running engine to stop; a run not yet started will stop as soon as it starts.</summary>
        public void Stop()
        {
            lock (_gate)
            {
                _stopped = true;
                _session?.Stop();
            }
        }

        /// <summary>A control command for the engine (<see cref="ControlCommands"/>); one sent before the engine started is sent when it starts.</summary>
        public void Send(string command, JsonObject? argument = null)
        {
            lock (_gate)
            {
                if (_session != null) _session.Send(command, argument);
                else _unsent.Add((command, argument));
            }
        }

        public bool StopRequested
        {
            get { lock (_gate) return _stopped; }
        }

        /// <summary>Runs the engine to its end; an interactive <paramref name="console"/>'s Ctrl+C stops it (see <see cref="ConsoleInterrupt"/>).</summary>
        public EngineOutcome Run(JsonObject request, string activity, int activityId, IRunSink sink, Action<EngineEvent>? onEvent = null, ConsoleInterrupt? console = null)
        {
            string command = request.GetString(RequestFields.Command) ?? "";
            string? answer = CommandAnswers.For(command);
            var collected = new List<EngineEvent>();
            EngineEvent? error = null;
            var progressClock = Stopwatch.StartNew();
            string lastPhase = "";
            ProgressRecord? progress = null;
            using (var session = EngineSession.Start(request))
            {
                lock (_gate)
                {
                    _session = session;
                    foreach (var (control, argument) in _unsent) session.Send(control, argument);
                    _unsent.Clear();
                    if (_stopped) session.Stop();
                }
                try
                {
                    sink.Verbose($"ExchStorageTest engine {session.EngineVersion} (process {session.ProcessId}): {command}.");
                    while (true)
                    {
                        if (console != null && console.Pressed())
                        {
                            if (!StopRequested) sink.Warning("Stopping the run: the engine ends the measured window, judges and saves what it measured ...");
                            Stop();
                        }
                        EngineEvent? next = session.Next(PollInterval);
                        if (next == null)
                        {
                            if (session.Ended) break;
                            continue;
                        }
                        // A stopping pipeline accepts no records: drain quietly so the engine can finish its result.
                        bool quiet = !sink.CanWrite;
                        switch (next.Type)
                        {
                            case EventTypes.Log:
                                if (!quiet) EngineRecords.Log(sink, next.Fields);
                                break;
                            case EventTypes.Progress:
                                string phase = next.Fields.GetString(EventFields.Progress.Phase) ?? "";
                                if (!quiet && (phase != lastPhase || progressClock.Elapsed >= ProgressInterval))
                                {
                                    progress = EngineRecords.Progress(activityId, activity, next.Fields);
                                    sink.Progress(progress);
                                    lastPhase = phase;
                                    progressClock.Restart();
                                }
                                break;
                            case EventTypes.Sample:
                                break; // the progress event that follows carries the live figures
                            case EventTypes.Heartbeat:
                                break; // its arrival is all it says (the session holds the engine to its heartbeat)
                            case EventTypes.Error:
                                // Only the last error can be the one that ends the engine: the one before it was not.
                                if (error != null && !quiet) sink.Error(ErrorFrom(error, 0, "").ErrorRecord);
                                error = next;
                                collected.Add(next);
                                break;
                            default:
                                collected.Add(next);
                                if (!quiet) onEvent?.Invoke(next);
                                break;
                        }
                    }
                    if (progress != null && sink.CanWrite)
                    {
                        progress.RecordType = ProgressRecordType.Completed;
                        sink.Progress(progress);
                    }
                    int exit = session.ExitCode ?? EngineExit.DidNotExit;
                    switch (session.Judge(answer == null || collected.Exists(e => e.Is(answer))))
                    {
                        case EngineEnd.Lost:
                            // Lost before it finished: the command fails, unless the answer its command promises had already come
                            // (a result, a report ...): then the answer is kept and the loss reported beside it, non-terminating.
                            if (answer == null || !collected.Exists(e => e.Is(answer))) throw session.LostError();
                            if (sink.CanWrite) sink.Error(session.LostError().ErrorRecord);
                            break;
                        case EngineEnd.Failed:
                            throw ErrorFrom(error, exit, session.ErrorTail);
                        case EngineEnd.Unanswered:
                            // Exit 0 without the answer its command promises is no success: nothing would come back, silently.
                            throw new StorageTestException(ErrorCodes.EngineFailed,
                                $"The ExchStorageTest engine (process {session.ProcessId}) exited with code 0 without the '{answer}' event its {command} command promises.{EngineSession.DescribeTail(session.ErrorTail)}",
                                session.ProcessId);
                        default:
                            // Ran or stopped: a stopped run has a result; one stopped before it produced any ends with a Stopped error.
                            if (error != null && sink.CanWrite) sink.Error(ErrorFrom(error, exit, "").ErrorRecord);
                            break;
                    }
                    return new EngineOutcome(collected, exit);
                }
                finally
                {
                    lock (_gate) _session = null;
                }
            }
        }

        private static StorageTestException ErrorFrom(EngineEvent? error, int exit, string stderr) => EngineRecords.Error(error?.Fields, exit, stderr);
    }
}
