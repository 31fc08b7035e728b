using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Management.Automation;
using System.Text;
using System.Threading;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// One run of the native engine over the documented protocol: the request goes on the first line of its
    /// standard input (<c>--control-stdin</c>), which stays open as the stop channel; its events are read on a
    /// background thread so the pipeline thread can wait for them with a timeout and stay responsive to a stop.
    /// Disposing stops an engine that is still running (cleanly first, then by force), so no engine outlives
    /// the command that started it. The reader notes when each line arrives, so the caller can hold the engine to the
    /// heartbeat its hello promised (<see cref="Heartbeat"/>) and <see cref="Kill"/> one that fell silent.
    /// </summary>
    internal sealed class EngineProcess : IDisposable
    {
        /// <summary>How long an engine asked to stop may take to judge and save its partial result.</summary>
        public static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(30);

        private readonly Process _process;
        private readonly BlockingCollection<EngineEvent> _events = new BlockingCollection<EngineEvent>();
        // The last lines of standard error, for the message about an engine that failed.
        private const int ErrorTailLines = 12;
        private const int ErrorTailLineLength = 400;
        private readonly Queue<string> _stderrTail = new Queue<string>();
        private long _lastHeard = Stopwatch.GetTimestamp();
        private readonly object _stdinLock = new object();
        private bool _stopRequested;

        private EngineProcess(Process process) => _process = process;

        public int ProcessId => _process.Id;

        public string EngineVersion { get; private set; } = "";

        /// <summary>How long the engine may stay silent (its hello's heartbeat promise); null when it promised none.</summary>
        public TimeSpan? SilenceLimit { get; private set; }

        /// <summary>The heartbeat interval the engine promised in its hello, in seconds (0: none).</summary>
        public double HeartbeatSeconds { get; private set; }

        /// <summary>Time since the engine's last line on standard output (any event, a heartbeat included).</summary>
        public TimeSpan Silence =>
            TimeSpan.FromSeconds((Stopwatch.GetTimestamp() - Interlocked.Read(ref _lastHeard)) / (double)Stopwatch.Frequency);

        /// <summary>True once the engine has been silent for longer than its heartbeat promise allows.</summary>
        public bool SilentTooLong => SilenceLimit.HasValue && Silence > SilenceLimit.Value;

        /// <summary>Starts the engine with the request and checks its hello line.</summary>
        public static EngineProcess Start(string enginePath, JsonObject request)
        {
            var info = new ProcessStartInfo(enginePath, "--control-stdin")
            {
                UseShellExecute = false,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                CreateNoWindow = true,
                StandardOutputEncoding = new UTF8Encoding(false),
                StandardErrorEncoding = new UTF8Encoding(false),
            };
            Process process;
            try
            {
                process = StartRetryingTransient(() => Process.Start(info) ?? throw new InvalidOperationException("the process did not start"), TransientStartRetryDelay);
            }
            catch (Exception ex) when (!(ex is PipelineStoppedException))
            {
                throw new StorageTestException(ErrorCodes.EngineStartFailed, $"The ExchStorageTest engine '{enginePath}' could not be started: {ex.Message}", enginePath, ex);
            }
            var engine = new EngineProcess(process);
            engine.BeginReading();
            // Bytes, not the StreamWriter: its encoding is the console's (not UTF-8) in Windows PowerShell 5.1.
            engine.WriteLine(JsonWriter.Write(request));
            engine.ExpectHello();
            return engine;
        }

        /// <summary>ERROR_INTERNAL_ERROR: what CreateProcess gives for a start the OS itself failed, not for a bad path or access.</summary>
        internal const int ErrorInternalError = 1359;

        /// <summary>How long to wait before the one more try of a start that failed with <see cref="ErrorInternalError"/>.</summary>
        internal static readonly TimeSpan TransientStartRetryDelay = TimeSpan.FromSeconds(1);

        /// <summary>
        /// Runs <paramref name="start"/>, and once more after <paramref name="delay"/> when the OS failed it with
        /// <see cref="ErrorInternalError"/>: Wine under load (the CI's Windows suite beside the Linux ones) fails a
        /// CreateProcess now and then with it — twice in a row on one test in two clean-clone runs on one day, whose file
        /// passes when run alone — so one more try a second later is the cheap way past it. Any other failure,
        /// and a second internal error, goes to the caller as it came: a missing or blocked engine is not retried.
        /// </summary>
        internal static T StartRetryingTransient<T>(Func<T> start, TimeSpan delay) =>
            Transient.Retry(start, ex => ex is System.ComponentModel.Win32Exception w && w.NativeErrorCode == ErrorInternalError, tries: 2, delay);

        /// <summary>The next event, or null when <paramref name="timeout"/> passed first or the engine's output ended.</summary>
        public EngineEvent? Next(TimeSpan timeout, out bool ended)
        {
            ended = false;
            try
            {
                if (_events.TryTake(out EngineEvent? next, timeout)) return next;
            }
            catch (InvalidOperationException)
            {
                // Taking from a completed, empty collection.
            }
            ended = _events.IsCompleted;
            return null;
        }

        /// <summary>Asks the engine to stop: it ends its measured window, judges and saves what it has. Safe from any thread.</summary>
        public void RequestStop()
        {
            lock (_stdinLock)
            {
                if (_stopRequested) return;
                _stopRequested = true;
            }
            WriteLine(ControlCommands.Stop);
        }

        public bool StopRequested => _stopRequested;

        /// <summary>A control command for the running engine (<see cref="ControlCommands"/>), with its JSON argument when it has one. Safe from any thread.</summary>
        public void Send(string command, JsonObject? argument = null) =>
            WriteLine(argument == null ? command : command + " " + JsonWriter.Write(argument));

        /// <summary>Waits for the engine to exit; its exit code (docs/protocol.md), or null when it did not exit in time.</summary>
        public int? WaitForExit(TimeSpan timeout)
        {
            if (!_process.WaitForExit((int)Math.Min(int.MaxValue, timeout.TotalMilliseconds))) return null;
            _process.WaitForExit(); // lets the asynchronous stderr reader finish
            return _process.ExitCode;
        }

        public bool HasExited => _process.HasExited;

        /// <summary>The last lines the engine wrote to standard error (for messages about an engine that failed), one a line.</summary>
        public string ErrorTail
        {
            get { lock (_stderrTail) return string.Join(Environment.NewLine, _stderrTail.ToArray()).Trim(); }
        }

        /// <summary>
        /// Ends the engine at once (a hung one cannot be asked to stop) and waits for it to be gone. A frozen process
        /// (SIGSTOP, a debugger) is killed too: SIGKILL and TerminateProcess need no cooperation.
        /// </summary>
        public void Kill()
        {
            try
            {
                if (_process.HasExited) return;
                _process.Kill();
                _process.WaitForExit(10000);
            }
            catch (Exception ex) when (ex is InvalidOperationException || ex is System.ComponentModel.Win32Exception || ex is NotSupportedException)
            {
                // Exited (or reaped) between the check and the kill.
            }
        }

        /// <summary>How the engine ended, in words: its exit code, with the signal (Unix) or NTSTATUS (Windows) it means.</summary>
        public string DescribeExit()
        {
            if (!_process.HasExited) return "is still running";
            int code = _process.ExitCode;
            if (!EngineLocator.IsWindows && code > 128 && code < 128 + 65)
                return $"was ended by signal {code - 128}{SignalName(code - 128)} (exit code {code})";
            if (EngineLocator.IsWindows && (code & 0xC0000000) == 0xC0000000)
                return $"ended with exit code 0x{code:X8} (an NTSTATUS: the process crashed or was terminated)";
            return $"ended with exit code {code}";
        }

        private static string SignalName(int signal) => signal switch
        {
            6 => " (SIGABRT)",
            9 => " (SIGKILL)",
            11 => " (SIGSEGV)",
            15 => " (SIGTERM)",
            _ => "",
        };

        public void Dispose()
        {
            try
            {
                if (!_process.HasExited)
                {
                    RequestStop();
                    if (!_process.WaitForExit((int)StopGrace.TotalMilliseconds))
                    {
                        _process.Kill();
                        _process.WaitForExit(5000);
                    }
                }
            }
            catch (InvalidOperationException)
            {
                // The process was never started or has been reaped already.
            }
            _process.Dispose();
            _events.Dispose();
        }

        private void WriteLine(string line)
        {
            lock (_stdinLock)
            {
                try
                {
                    byte[] bytes = new UTF8Encoding(false).GetBytes(line + "\n");
                    var stdin = _process.StandardInput.BaseStream;
                    stdin.Write(bytes, 0, bytes.Length);
                    stdin.Flush();
                }
                catch (Exception ex) when (ex is IOException || ex is ObjectDisposedException || ex is InvalidOperationException)
                {
                    // The engine has exited: nothing left to tell it.
                }
            }
        }

        private void BeginReading()
        {
            _process.ErrorDataReceived += (_, e) =>
            {
                if (string.IsNullOrWhiteSpace(e.Data)) return;
                string line = e.Data!.Length > ErrorTailLineLength ? e.Data.Substring(0, ErrorTailLineLength) + " ..." : e.Data;
                lock (_stderrTail)
                {
                    _stderrTail.Enqueue(line);
                    while (_stderrTail.Count > ErrorTailLines) _stderrTail.Dequeue();
                }
            };
            _process.BeginErrorReadLine();
            var reader = new Thread(ReadEvents) { IsBackground = true, Name = "ExchStorageTest engine events" };
            reader.Start();
        }

        private void ReadEvents()
        {
            try
            {
                string? line;
                while ((line = _process.StandardOutput.ReadLine()) != null)
                {
                    Interlocked.Exchange(ref _lastHeard, Stopwatch.GetTimestamp());
                    if (line.Length == 0) continue;
                    JsonObject fields;
                    try
                    {
                        fields = JsonReader.Parse(line) as JsonObject ?? new JsonObject().Set(EventFields.Type, "unreadable").Set("line", line);
                    }
                    catch (FormatException)
                    {
                        fields = new JsonObject().Set(EventFields.Type, "unreadable").Set("line", line);
                    }
                    _events.Add(new EngineEvent(fields));
                }
            }
            catch (Exception ex) when (ex is IOException || ex is ObjectDisposedException || ex is InvalidOperationException)
            {
                // The pipe broke or we are disposing: the output has ended either way.
            }
            finally
            {
                try { _events.CompleteAdding(); } catch (ObjectDisposedException) { }
            }
        }

        private void ExpectHello()
        {
            EngineEvent? hello = Next(TimeSpan.FromSeconds(60), out _);
            if (hello == null || !hello.Is(EventTypes.Hello))
            {
                int? exit = _process.WaitForExit(2000) ? _process.ExitCode : (int?)null;
                Kill();
                Dispose();
                throw new StorageTestException(ErrorCodes.EngineProtocolMismatch,
                    $"The ExchStorageTest engine did not introduce itself (no hello line{(exit.HasValue ? $"; it exited with code {exit}" : "")}). {ErrorTail}".Trim(),
                    null);
            }
            EngineVersion = hello.Fields.GetString(EventFields.Hello.EngineVersion) ?? "";
            HeartbeatSeconds = hello.Fields.GetNumber(EventFields.Hello.HeartbeatSeconds) ?? 0;
            if (HeartbeatSeconds > 0) SilenceLimit = Heartbeat.SilenceLimit(HeartbeatSeconds);
            double protocol = hello.Fields.GetNumber(EventFields.Hello.Protocol) ?? 0;
            if (protocol != EngineProtocol.Version)
            {
                Dispose();
                throw new StorageTestException(ErrorCodes.EngineProtocolMismatch,
                    $"The ExchStorageTest engine {EngineVersion} speaks protocol {protocol}; this module speaks protocol {EngineProtocol.Version}. Install matching versions of the module and the engine.",
                    protocol);
            }
        }
    }
}
