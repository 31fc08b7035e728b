namespace ExchStorageTest.Contract
{
    /// <summary>
    /// How an engine process ends (docs/protocol.md, "Exit codes"), defined once for both halves: the engine exits with
    /// these codes, and the module judges every engine's end — a run on this computer and every host's of a multi-host
    /// run — with <see cref="Judge"/>. A failing verdict is a result, not an error: it exits <see cref="Ran"/>.
    /// </summary>
    public static class EngineExit
    {
        /// <summary>The command ran.</summary>
        public const int Ran = 0;

        /// <summary>An error stopped the command (its error event says which), or its results or reports could not be saved.</summary>
        public const int Error = 1;

        /// <summary>The request was refused: nothing was written.</summary>
        public const int Refused = 2;

        /// <summary>Stopped (Ctrl+C, SIGTERM, the control channel's stop): the partial result was judged and saved.</summary>
        public const int Stopped = 3;

        /// <summary>What the module records for an engine whose output ended but which did not exit in time (it is killed).</summary>
        public const int DidNotExit = -1;

        /// <summary>The one rule for errors: a refusal (a check made before anything was written) exits 2, any other error 1.</summary>
        public static int For(bool refusal) => refusal ? Refused : Error;

        /// <summary>True for the protocol's codes; any other is a process that was killed, crashed or did not exit.</summary>
        public static bool IsProtocol(int code) => code >= Ran && code <= Stopped;

        /// <summary>
        /// How an engine ended, judged from its exit code (null: not known, it was given up), whether the module gave it
        /// up (<paramref name="lost"/>: silent past its heartbeat, see <see cref="Heartbeat"/>), and whether the answer its
        /// command promises (<see cref="CommandAnswers"/>) came.
        /// </summary>
        public static EngineEnd Judge(int? exitCode, bool lost, bool answered)
        {
            if (lost || !(exitCode is int code) || !IsProtocol(code)) return EngineEnd.Lost;
            if (code == Error || code == Refused) return EngineEnd.Failed;
            if (code == Stopped) return EngineEnd.Stopped;
            return answered ? EngineEnd.Ran : EngineEnd.Unanswered;
        }
    }

    /// <summary>An engine's end as <see cref="EngineExit.Judge"/> reads it.</summary>
    public enum EngineEnd
    {
        /// <summary>Exit 0 with the answer its command promises.</summary>
        Ran,

        /// <summary>Exit 3: stopped, its partial result (when it had one) judged and saved.</summary>
        Stopped,

        /// <summary>Exit 1 or 2: its last error event says why (the command fails with it).</summary>
        Failed,

        /// <summary>Exit 0 without the answer its command promises: not done, whatever the code says.</summary>
        Unanswered,

        /// <summary>Killed, crashed, silent past its heartbeat or not exiting after its output ended: it did not finish its command.</summary>
        Lost,
    }
}
