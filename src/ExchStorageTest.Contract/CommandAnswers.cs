namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The event each command of the protocol answers with (docs/protocol.md, "Events"): a helper that exits 0 without
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
                case HelperCommands.Run:
                case HelperCommands.Streams:
                    return EventTypes.Result;
                case HelperCommands.Plan: return EventTypes.Plan;
                case HelperCommands.Verify: return EventTypes.Verify;
                case HelperCommands.Inspect: return EventTypes.Inspect;
                case HelperCommands.Report: return EventTypes.Report;
                case HelperCommands.Validation: return EventTypes.Validation;
                default: return null;
            }
        }
    }
}
