using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// One finding of a volume check (PSTypeName ExchStorageTest.VolumeFinding): which folder, on which volume,
    /// which rule, how serious, and what to do about it. Measured and Expected are filled only where the
    /// helper reports them as values; otherwise the message carries the figures.
    /// </summary>
    public sealed class VolumeFinding
    {
        /// <summary>The folder inspected.</summary>
        public string? Path { get; set; }
        /// <summary>The mount point (drive or volume) the folder is on.</summary>
        public string? Volume { get; set; }
        /// <summary>The rule's stable code, e.g. ClusterSizeNot64K, FileSystemNotExchange.</summary>
        public string? Check { get; set; }
        /// <summary>Pass, Info, Warning or Fail.</summary>
        public string? Severity { get; set; }
        public object? Measured { get; set; }
        public object? Expected { get; set; }
        public string? Message { get; set; }
        public string? Advice { get; set; }
        public string? FileSystem { get; set; }

        internal static VolumeFinding From(JsonObject finding) => new VolumeFinding
        {
            Path = finding.GetString("path"),
            Volume = finding.GetString("mountPoint"),
            Check = finding.GetString("code"),
            Severity = finding.GetString("severity") ?? "Info",
            Measured = JsonToPowerShell.Convert(finding["measured"]),
            Expected = JsonToPowerShell.Convert(finding["expected"]),
            Message = finding.GetString("message"),
            Advice = finding.GetString("advice"),
            FileSystem = finding.GetString("fileSystem"),
        };

        public override string ToString() => $"{Severity} {Check}: {Message}";
    }
}
