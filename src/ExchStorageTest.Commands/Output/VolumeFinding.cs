using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// One finding of a volume check (PSTypeName ExchStorageTest.VolumeFinding): which folder, on which volume,
    /// which rule, how serious, and what to do about it. The engine reports the figures in the message, so Measured
    /// and Expected stay empty (kept for scripts written against them).
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
            Path = finding.GetString(EventFields.Inspect.Finding.Path),
            Volume = finding.GetString(EventFields.Inspect.Finding.MountPoint),
            Check = finding.GetString(EventFields.Inspect.Finding.Code),
            Severity = finding.GetString(EventFields.Inspect.Finding.Severity) ?? "Info",
            Message = finding.GetString(EventFields.Inspect.Finding.Message),
            Advice = finding.GetString(EventFields.Inspect.Finding.Advice),
            FileSystem = finding.GetString(EventFields.Inspect.Finding.FileSystem),
        };

        public override string ToString() => $"{Severity} {Check}: {Message}";
    }
}
