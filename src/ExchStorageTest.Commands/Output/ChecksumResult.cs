using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// The checksum pass over one database or log file (PSTypeName ExchStorageTest.ChecksumResult). A bad page
    /// is a result (Fail), not an error; Message names the damaged pages or log blocks.
    /// </summary>
    public sealed class ChecksumResult
    {
        internal const string LogKind = "Log";
        internal const string LogStreamKind = "LogStream";

        /// <summary>The file, or for a LogStream the folder of its log files.</summary>
        public string? Path { get; set; }
        /// <summary>Database, Log (one log file, with -Detailed) or LogStream (the log files of one folder).</summary>
        public string? Kind { get; set; }
        /// <summary>Databases: data pages checked (the header page is read, not counted).</summary>
        public long? PagesChecked { get; set; }
        public long BadPages { get; set; }
        /// <summary>Logs: log generations checked (one per file; a LogStream's files).</summary>
        public long? LogsChecked { get; set; }
        public long BadLogs { get; set; }
        /// <summary>Logs: the log blocks checked inside the file.</summary>
        public long? BlocksChecked { get; set; }
        /// <summary>Pass or Fail.</summary>
        public string? Result { get; set; }
        public string? Message { get; set; }

        internal static ChecksumResult From(JsonObject file)
        {
            var result = new ChecksumResult
            {
                Path = file.GetString(EventFields.Verify.File.Path),
                Kind = file.GetString(EventFields.Verify.File.Kind),
                PagesChecked = ToLong(file.GetNumber(EventFields.Verify.PagesChecked)),
                BadPages = ToLong(file.GetNumber(EventFields.Verify.BadPages)) ?? 0,
                LogsChecked = ToLong(file.GetNumber(EventFields.Verify.LogsChecked)),
                BadLogs = ToLong(file.GetNumber(EventFields.Verify.BadLogs)) ?? 0,
                BlocksChecked = ToLong(file.GetNumber(EventFields.Verify.File.BlocksChecked)),
                Message = file.GetString(EventFields.Verify.File.Message),
            };
            // The engine's own verdict when it gives one; otherwise any bad page or log fails the file.
            result.Result = file.GetString(EventFields.Verify.Result) ?? (result.BadPages > 0 || result.BadLogs > 0 ? Verdicts.Fail : Verdicts.Pass);
            return result;
        }

        /// <summary>The log files of one folder as one stream: counts summed, Fail when any file fails, the bad files' messages.</summary>
        internal static ChecksumResult LogStream(IReadOnlyList<ChecksumResult> files) => new ChecksumResult
        {
            Path = System.IO.Path.GetDirectoryName(files[0].Path ?? ""),
            Kind = LogStreamKind,
            LogsChecked = files.Sum(f => f.LogsChecked ?? 1),
            BadLogs = files.Sum(f => f.BadLogs),
            BlocksChecked = files.All(f => f.BlocksChecked.HasValue) ? files.Sum(f => f.BlocksChecked!.Value) : (long?)null,
            Result = files.Any(f => f.Result != Verdicts.Pass) ? Verdicts.Fail : Verdicts.Pass,
            Message = NullIfEmpty(string.Join(" ", files.Where(f => f.Result != Verdicts.Pass && !string.IsNullOrEmpty(f.Message)).Select(f => $"{System.IO.Path.GetFileName(f.Path)}: {f.Message}"))),
        };

        private static string? NullIfEmpty(string s) => s.Length == 0 ? null : s;

        private static long? ToLong(double? value) => value.HasValue ? (long)value.Value : (long?)null;

        public override string ToString() => $"{Path}: {Result}";
    }
}
