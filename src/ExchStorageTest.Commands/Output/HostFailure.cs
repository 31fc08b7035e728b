namespace ExchStorageTest
{
    /// <summary>
    /// A host of a multi-host run that produced no result (PSTypeName ExchStorageTest.HostFailure), in the run's
    /// AggregateResult.Failures and run.json: which host, how it was reached, and why. The same reason came as a
    /// HostFailed error while the run went on.
    /// </summary>
    public sealed class HostFailure
    {
        /// <summary>The host's name in the run: the machine name it reported (a second session to one machine: name-2), or its address when it could not be asked.</summary>
        public string? Name { get; set; }
        /// <summary>How the host was reached: the -ComputerName given, or the session's computer name.</summary>
        public string? Address { get; set; }
        public string? Reason { get; set; }

        public override string ToString() => $"{Name}: {Reason}";
    }
}
