namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The control channel (<c>--control-stdin</c>): after the request line, the caller writes one command a line
    /// (docs/protocol.md, "Control channel"). The end of input stops the run as <see cref="Stop"/> does (the caller has
    /// gone). Unknown lines are ignored, so a later caller can add commands without breaking this engine.
    /// </summary>
    public static class ControlCommands
    {
        /// <summary><c>stop</c>: end the measured window, judge and save what was measured (as Ctrl+C).</summary>
        public const string Stop = "stop";

        /// <summary>
        /// <c>step {"mailboxes":N,"measureAtUtc":"..."}</c>: run the next step of a caller-stepped capacity search
        /// (<see cref="CapacityStepping.Caller"/>) with N mailboxes, measuring from the instant (the engine's own clock). The
        /// engine answers with a <see cref="EventTypes.CapacityStep"/> event when the step is judged and saved.
        /// </summary>
        public const string Step = "step";

        /// <summary><c>end {"stopReason":"Resolved","message":"..."}</c>: the caller's search ended; the engine records why and finishes its document.</summary>
        public const string End = "end";
    }

    /// <summary>The JSON fields of the <see cref="ControlCommands.Step"/> and <see cref="ControlCommands.End"/> lines.</summary>
    public static class ControlFields
    {
        public const string Mailboxes = "mailboxes";
        public const string MeasureAtUtc = "measureAtUtc";
        public const string StopReason = "stopReason";
        public const string Message = "message";
    }

    /// <summary>The values of <see cref="RequestFields.CapacitySteps"/>.</summary>
    public static class CapacityStepping
    {
        /// <summary>The engine chooses its steps with <see cref="CapacitySequence"/> (one host: the default).</summary>
        public const string Engine = "Engine";

        /// <summary>The caller sends each step (<see cref="ControlCommands.Step"/>): several hosts stepping together.</summary>
        public const string Caller = "Caller";
    }
}
