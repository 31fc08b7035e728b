using System;
using System.IO;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// Ctrl+C at an interactive console, read as a key while a run is in progress, so that the run stops
    /// cleanly and the command still returns the partial result. PowerShell's own Ctrl+C stops the pipeline,
    /// after which a command may not write output at all; reading the key ourselves keeps the pipeline alive.
    /// Where there is no console (jobs, scheduled tasks, remoting, hosted runspaces, redirected input) this
    /// does nothing and a stop arrives through StopProcessing as usual.
    /// </summary>
    /// <remarks>
    /// The console mode is shared with the engine: with Ctrl+C as input, the terminal (Unix: no ISIG) or the
    /// console (Windows: no ENABLE_PROCESSED_INPUT) sends the engine no signal either, so the engine is
    /// stopped once, through its control channel. The mode is restored when the run ends.
    /// </remarks>
    internal sealed class ConsoleInterrupt : IDisposable
    {
        private readonly bool _previous;

        private ConsoleInterrupt(bool previous) => _previous = previous;

        /// <summary>Takes Ctrl+C as input for the run, or returns null where there is no interactive console.</summary>
        public static ConsoleInterrupt? TryBegin()
        {
            try
            {
                if (Console.IsInputRedirected) return null;
                bool previous = Console.TreatControlCAsInput;
                Console.TreatControlCAsInput = true;
                return new ConsoleInterrupt(previous);
            }
            catch (Exception ex) when (ex is IOException || ex is InvalidOperationException || ex is PlatformNotSupportedException || ex is UnauthorizedAccessException)
            {
                return null;
            }
        }

        /// <summary>True when Ctrl+C was pressed since the last call. Other keys typed meanwhile are discarded.</summary>
        public bool Pressed()
        {
            try
            {
                while (Console.KeyAvailable)
                {
                    var key = Console.ReadKey(intercept: true);
                    if (key.Key == ConsoleKey.C && (key.Modifiers & ConsoleModifiers.Control) != 0) return true;
                    if (key.KeyChar == '\u0003') return true;
                }
            }
            catch (Exception ex) when (ex is IOException || ex is InvalidOperationException)
            {
                // The console went away: nothing more to read.
            }
            return false;
        }

        public void Dispose()
        {
            try
            {
                Console.TreatControlCAsInput = _previous;
            }
            catch (Exception ex) when (ex is IOException || ex is InvalidOperationException || ex is PlatformNotSupportedException)
            {
                // No console to restore.
            }
        }
    }
}
