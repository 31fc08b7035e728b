namespace ExchStorageTest.Contract
{
    /// <summary>
    /// A broken rule: its code, a message naming the bad value and the rule, and the value (or path) it is about.
    /// The rules return it rather than throw, because each half raises errors its own way: the engine as an error
    /// event, the module as an ErrorRecord.
    /// </summary>
    public sealed class Violation
    {
        public Violation(ErrorCode code, string message, string? target = null)
        {
            Code = code;
            Message = message;
            Target = target;
        }

        public ErrorCode Code { get; }
        public string Message { get; }
        public string? Target { get; }

        public override string ToString() => $"{Code}: {Message}";
    }
}
