namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The event each command of the protocol answers with (docs/protocol.md, "Events"): an engine that exits 0 without
    /// it has not done what it was asked, whatever its exit code says, and the module fails the command
    /// (<see cref="ErrorCodes.EngineFailed"/>) rather than return nothing.
    /// </summary>
    public static class CommandAnswers
    {
        /// <summary>The answer event of <paramref name="command"/>, or null for a command that promises none (version).</summary>
        public static string? For(string? command)
        {
            switch ((command ?? "").ToLowerInvariant())
            {
                case EngineCommands.Run:
                case EngineCommands.Streams:
                    return EventTypes.Result;
                case EngineCommands.Plan: return EventTypes.Plan;
                case EngineCommands.Verify: return EventTypes.Verify;
                case EngineCommands.Inspect: return EventTypes.Inspect;
                case EngineCommands.Report: return EventTypes.Report;
                case EngineCommands.Validation: return EventTypes.Validation;
                default: return null;
            }
        }
    }
}
