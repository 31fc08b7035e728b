using System;

namespace ExchStorageTest.Contract
{
    /// <summary>Which half raises a code: the module (a cmdlet, before or around the engine's run), the engine (an error event), or both.</summary>
    [Flags]
    public enum RaisedBy
    {
        Module = 1,
        Engine = 2,
        Both = Module | Engine,
    }

    /// <summary>
    /// One entry of the ErrorId catalogue: the stable code (users match <c>ExchStorageTest.&lt;Code&gt;</c>), the
    /// PowerShell ErrorCategory it is raised with, who raises it, and what it means. docs/about_ExchStorageTest.md
    /// lists every entry and docs/protocol.md every engine code; a test holds both against <see cref="ErrorCodes.All"/>.
    /// </summary>
    public sealed class ErrorCode
    {
        internal ErrorCode(string code, string category, RaisedBy raisedBy, string group, string meaning)
        {
            Code = code;
            Category = category;
            RaisedBy = raisedBy;
            Group = group;
            Meaning = meaning;
        }

        public string Code { get; }
        /// <summary>The name of a PowerShell ErrorCategory (<see cref="ErrorCategories"/>).</summary>
        public string Category { get; }
        public RaisedBy RaisedBy { get; }
        /// <summary>The catalogue's section (<see cref="ErrorGroups"/>).</summary>
        public string Group { get; }
        public string Meaning { get; }

        public override string ToString() => Code;
    }

    /// <summary>
    /// The names of the PowerShell ErrorCategory values errors are raised with: the engine names them in its error
    /// events (it has no PowerShell), the module parses them back into the enum.
    /// </summary>
    public static class ErrorCategories
    {
        public const string InvalidArgument = "InvalidArgument";
        public const string InvalidData = "InvalidData";
        public const string InvalidOperation = "InvalidOperation";
        public const string InvalidResult = "InvalidResult";
        public const string ObjectNotFound = "ObjectNotFound";
        public const string PermissionDenied = "PermissionDenied";
        public const string ResourceUnavailable = "ResourceUnavailable";
        public const string ResourceExists = "ResourceExists";
        public const string ReadError = "ReadError";
        public const string WriteError = "WriteError";
        public const string OperationStopped = "OperationStopped";
        public const string OperationTimeout = "OperationTimeout";
        public const string NotImplemented = "NotImplemented";
        public const string NotInstalled = "NotInstalled";
        public const string NotSpecified = "NotSpecified";
    }

    /// <summary>The sections of the catalogue, in the order the about topic lists them.</summary>
    public static class ErrorGroups
    {
        public const string Request = "The engine's request";
        public const string Jetstress = "JetstressCmd and JetstressConfig.xml";
        public const string Profile = "Profile values (New-MailboxProfile, profile files, JetstressConfig.xml, the engine's plan)";
        public const string RunSettings = "Run settings (Invoke-StorageTest, the engine's plan)";
        public const string Paths = "Folders, files and space";
        public const string Streams = "The raw stream mix (the engine's streams command)";
        public const string Storage = "Storage and I/O";
        public const string Results = "Results and reports";
        public const string ModuleFiles = "Profile, configuration and suite files";
        public const string Calculator = "The sizing calculator (New-MailboxProfile -CalculatorPath)";
        public const string Capture = "A PerfMon capture of the servers being replaced (New-MailboxProfile -CapturePath)";
        public const string EngineProcess = "The engine process";
        public const string MultiHost = "Multi-host and start-file runs";
        public const string Tasks = "Scheduled tests";
        public const string EngineInternals = "Engine internals (a probe or file the engine could not read)";

        public static readonly string[] Order = { Request, Jetstress, Profile, RunSettings, Paths, Streams, Storage, Results, ModuleFiles, Calculator, Capture, EngineProcess, MultiHost, Tasks, EngineInternals };
    }
}
