using System.Collections.Generic;
using System.Diagnostics;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Helper
{
    /// <summary>
    /// Runs the native helper with one request to its end: log and progress events go to a sink as verbose,
    /// information, warning and progress records; an error event that ends the helper (exit code 1 or 2) becomes
    /// a <see cref="StorageTestException"/> with its code as ErrorId, one the helper went on after (it exited 0 or
    /// 3) a non-terminating error; every other event is collected and handed to the caller as it arrives. <see cref="Stop"/> (from any thread) asks the helper to stop cleanly.
    /// </summary>
    internal sealed class HelperRun
    {
        // Progress is throttled: the helper may report many times a second, and a host redraws each record.
        private static readonly TimeSpan ProgressInterval = TimeSpan.FromMilliseconds(250);
        private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(200);

        private readonly object _gate = new object();
        private readonly List<(string Command, JsonObject? Argument)> _unsent = new List<(string, JsonObject?)>();
        private HelperProcess? _helper;
        private bool _stopped;

        /// <summary>Asks the running helper to stop; a run not yet started will stop as soon as it starts.</summary>
        public void Stop()
        {
            lock (_gate)
            {
                _stopped = true;
                _helper?.RequestStop();
            }
        }

        /// <summary>A control command for the helper (<see cref="ControlCommands"/>); one sent before the helper started is sent when it starts.</summary>
        public void Send(string command, JsonObject? argument = null)
        {
            lock (_gate)
            {
                if (_helper != null) _helper.Send(command, argument);
                else _unsent.Add((command, argument));
            }
        }

        public bool StopRequested
        {
            get { lock (_gate) return _stopped; }
        }

        /// <summary>Runs the helper to its end; an interactive <paramref name="console"/>'s Ctrl+C stops it (see <see cref="ConsoleInterrupt"/>).</summary>
        public HelperOutcome Run(JsonObject request, string activity, int activityId, IRunSink sink, Action<HelperEvent>? onEvent = null, ConsoleInterrupt? console = null)
        {
            string engine = HelperLocator.Find();
            string command = request.GetString(RequestFields.Command) ?? "";
            var collected = new List<HelperEvent>();
            HelperEvent? error = null;
            var progressClock = Stopwatch.StartNew();
            string lastPhase = "";
            ProgressRecord? progress = null;
            using (var helper = HelperProcess.Start(engine, request))
            {
                lock (_gate)
                {
                    _helper = helper;
                    foreach (var (control, argument) in _unsent) helper.Send(control, argument);
                    _unsent.Clear();
                    if (_stopped) helper.RequestStop();
                }
                try
                {
                    sink.Verbose($"ExchStorageTest engine {helper.EngineVersion} (process {helper.ProcessId}): {command}.");
                    while (true)
                    {
                        if (console != null && console.Pressed())
                        {
                            if (!StopRequested) sink.Warning("Stopping the run: the engine ends the measured window, judges and saves what it measured ...");
                            Stop();
                        }
                        HelperEvent? next = helper.Next(PollInterval, out bool ended);
                        if (next == null)
                        {
                            if (ended) break;
                            // Silent past its own heartbeat promise: frozen or hung. Waiting longer would wait forever.
                            if (helper.SilentTooLong) return Lost(helper, NotResponding(helper), command, collected, sink);
                            continue;
                        }
                        // A stopping pipeline accepts no records: drain quietly so the helper can finish its result.
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
                                break; // its arrival is all it says (HelperProcess notes every line's)
                            case EventTypes.Error:
                                // Only the last error can be the one that ends the helper: the one before it was not.
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
                    int? exited = helper.WaitForExit(HelperProcess.StopGrace);
                    if (progress != null && sink.CanWrite)
                    {
                        progress.RecordType = ProgressRecordType.Completed;
                        sink.Progress(progress);
                    }
                    if (exited == null)
                    {
                        // Its output ended but the process lives on: nothing more can come from it.
                        helper.Kill();
                        throw new StorageTestException(ErrorCodes.EngineFailed,
                            $"The ExchStorageTest engine (process {helper.ProcessId}) closed its output but did not exit within {HelperProcess.StopGrace.TotalSeconds:0} s; it was killed.{Tail(helper)}",
                            helper.ProcessId);
                    }
                    int exit = exited.Value;
                    // Exit codes 0-3 are the protocol's; any other is a process that was killed or crashed.
                    if (exit < 0 || exit > 3) return Lost(helper, Exited(helper), command, collected, sink);
                    // A stopped run has a result (exit 3); one stopped before it produced any ends with a Stopped error.
                    if (exit == 1 || exit == 2)
                        throw ErrorFrom(error, exit, helper.ErrorTail);
                    if (error != null && sink.CanWrite) sink.Error(ErrorFrom(error, exit, "").ErrorRecord);
                    // Exit 0 without the answer its command promises is no success: nothing would come back, silently.
                    if (exit == 0 && CommandAnswers.For(command) is string answer && !collected.Exists(e => e.Is(answer)))
                        throw new StorageTestException(ErrorCodes.EngineFailed,
                            $"The ExchStorageTest engine (process {helper.ProcessId}) exited with code 0 without the '{answer}' event its {command} command promises.{Tail(helper)}",
                            helper.ProcessId);
                    return new HelperOutcome(collected, exit);
                }
                finally
                {
                    lock (_gate) _helper = null;
                }
            }
        }

        /// <summary>
        /// A helper lost before it finished (killed, crashed, or silent past its heartbeat and killed here): the command
        /// fails with <paramref name="failure"/>, unless the answer its command promises had already come (a result, a report ...),
        /// in which case the answer is kept and the failure is reported beside it, non-terminating: nothing measured is lost.
        /// </summary>
        private static HelperOutcome Lost(HelperProcess helper, StorageTestException failure, string command, List<HelperEvent> collected, IRunSink sink)
        {
            helper.Kill();
            string? answer = CommandAnswers.For(command);
            if (answer == null || !collected.Exists(e => e.Is(answer))) throw failure;
            if (sink.CanWrite) sink.Error(failure.ErrorRecord);
            return new HelperOutcome(collected, helper.WaitForExit(TimeSpan.Zero) ?? -1);
        }

        private static StorageTestException NotResponding(HelperProcess helper) =>
            new StorageTestException(ErrorCodes.EngineNotResponding,
                $"The ExchStorageTest engine (process {helper.ProcessId}) wrote nothing for {helper.Silence.TotalSeconds:0} s, though it promised an event at least every {helper.HeartbeatSeconds:0.###} s: it was frozen or hung, and was killed.{Tail(helper)}",
                helper.ProcessId);

        private static StorageTestException Exited(HelperProcess helper) =>
            new StorageTestException(ErrorCodes.EngineExited,
                $"The ExchStorageTest engine (process {helper.ProcessId}) {helper.DescribeExit()} before it finished its command.{Tail(helper)}",
                helper.ProcessId);

        private static string Tail(HelperProcess helper)
        {
            string tail = helper.ErrorTail;
            return tail.Length == 0 ? " It wrote nothing to standard error." : " Its last lines on standard error:" + Environment.NewLine + tail;
        }

        private static StorageTestException ErrorFrom(HelperEvent? error, int exit, string stderr) => EngineRecords.Error(error?.Fields, exit, stderr);
    }
}
