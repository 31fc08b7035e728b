using System;
using System.Collections.Generic;
using System.Linq;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The engine protocol (docs/protocol.md): its version, its commands and which request fields each command
    /// takes and needs. The engine's request gate refuses a request against these shapes before any command
    /// runs, so a command cannot skip the checks; the module builds its requests from the same names.
    /// </summary>
    public static class EngineProtocol
    {
        /// <summary>The protocol both halves speak: the request's <c>protocol</c> and the hello event's.</summary>
        public const int Version = 1;
    }

    /// <summary>The commands a request names in <c>command</c>.</summary>
    public static class EngineCommands
    {
        public const string Run = "run";
        public const string Plan = "plan";
        public const string Streams = "streams";
        public const string Verify = "verify";
        public const string Inspect = "inspect";
        public const string Report = "report";
        public const string Validation = "validation";
        public const string Version = "version";
        /// <summary>Reads a sizing calculator's workbook (and its Servers.csv) into profiles; writes nothing (docs/calculator.md).</summary>
        public const string Calculator = "calculator";
        public const string Capture = "capture";

        private static readonly string[] Always = { RequestFields.Protocol, RequestFields.Command };

        /// <summary>What run and plan take: the test's identity, its profile, and every run setting (<see cref="RunSettingTable"/>).</summary>
        private static readonly string[] TestSettings =
            new[] { RequestFields.TestId, RequestFields.RunId, RequestFields.Profile }.Concat(RunSettingTable.All.Select(s => s.Field)).ToArray();

        /// <summary>Every command with the fields it takes and the ones it needs.</summary>
        public static readonly CommandShape[] All =
        {
            new CommandShape(Run, TestSettings, new Requirement(ErrorCodes.ProfileMissing, RequestFields.Profile)),
            new CommandShape(Plan, TestSettings, new Requirement(ErrorCodes.ProfileMissing, RequestFields.Profile)),
            new CommandShape(Streams,
                new[] { RequestFields.TestId, RequestFields.Streams, RequestFields.DurationSeconds, RequestFields.SampleIntervalSeconds, RequestFields.OutputPath,
                        RequestFields.ContinueOnError, RequestFields.AllowBufferedIo, RequestFields.PinWorkerThreads },
                new Requirement(ErrorCodes.StreamsMissing, RequestFields.Streams)),
            new CommandShape(Verify, new[] { RequestFields.Paths }, new Requirement(ErrorCodes.PathsMissing, RequestFields.Paths)),
            new CommandShape(Inspect, new[] { RequestFields.Paths }, new Requirement(ErrorCodes.PathsMissing, RequestFields.Paths)),
            new CommandShape(Report,
                new[] { RequestFields.Paths, RequestFields.Runs, RequestFields.Formats, RequestFields.OutputPath, RequestFields.MetadataPath, RequestFields.Compare, RequestFields.Deployment,
                        RequestFields.Rejudge, RequestFields.FaultAtSeconds, RequestFields.FaultLengthSeconds, RequestFields.StallLimitSeconds, RequestFields.Thresholds,
                        RequestFields.WindowFromSeconds, RequestFields.WindowToSeconds },
                new Requirement(ErrorCodes.PathsMissing, RequestFields.Paths, RequestFields.Runs)),
            new CommandShape(Validation,
                new[] { RequestFields.Paths, RequestFields.OutputPath, RequestFields.TestType, RequestFields.MaxResultAgeHours },
                new Requirement(ErrorCodes.PathsMissing, RequestFields.Paths)),
            new CommandShape(Calculator, new[] { RequestFields.Paths, RequestFields.ServersCsvPath }, new Requirement(ErrorCodes.PathsMissing, RequestFields.Paths)),
            new CommandShape(Capture,
                new[] { RequestFields.Paths, RequestFields.GrowthFactor, RequestFields.CaptureWindowStart, RequestFields.CaptureWindowMinutes, RequestFields.MailboxCount,
                        RequestFields.CalculatorPath, RequestFields.ServersCsvPath },
                new Requirement(ErrorCodes.PathsMissing, RequestFields.Paths)),
            new CommandShape(Version, Array.Empty<string>()),
        };

        /// <summary>The command of that name (case ignored, as the engine reads it), or null.</summary>
        public static CommandShape? Find(string? name) =>
            All.FirstOrDefault(c => string.Equals(c.Name, name, StringComparison.OrdinalIgnoreCase));

        internal static IEnumerable<string> WithProtocol(IEnumerable<string> fields) => Always.Concat(fields);
    }

    /// <summary>One command of the protocol: the top-level fields its request may carry (protocol and command included) and the ones it needs.</summary>
    public sealed class CommandShape
    {
        public CommandShape(string name, IEnumerable<string> fields, params Requirement[] required)
        {
            Name = name;
            Fields = EngineCommands.WithProtocol(fields).ToArray();
            Required = required;
        }

        public string Name { get; }
        public IReadOnlyList<string> Fields { get; }
        public IReadOnlyList<Requirement> Required { get; }

        public bool Takes(string field) => Fields.Any(f => string.Equals(f, field, StringComparison.OrdinalIgnoreCase));

        public override string ToString() => Name;
    }

    /// <summary>A field (or one of several) a command needs, and the code its absence is refused with.</summary>
    public sealed class Requirement
    {
        public Requirement(ErrorCode code, params string[] anyOf)
        {
            Code = code;
            AnyOf = anyOf;
        }

        public ErrorCode Code { get; }
        /// <summary>The requirement holds when one of these is present.</summary>
        public IReadOnlyList<string> AnyOf { get; }
    }
}
