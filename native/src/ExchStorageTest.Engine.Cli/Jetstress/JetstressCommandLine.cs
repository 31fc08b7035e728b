using System.Globalization;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Jetstress;

/// <summary>
/// JetstressCmd's command line, as Jetstress documents it (JetstressCmd.exe /?, "Running a Test Scenario with
/// JetstressCmd.exe") and as automation calls it (the Azure Stack template, lab scripts): switches start with '/' or
/// '-', in any case; a switch's value is the next argument, whatever it starts with (a Linux path starts with '/').
/// Anything else is refused by name before anything is written (JetstressArgumentInvalid).
/// </summary>
internal sealed class JetstressCommandLine
{
    public bool Help { get; private set; }
    public bool Generate { get; private set; }
    public string? Config { get; private set; }
    public double? TimeoutSeconds { get; private set; }
    public string? Output { get; private set; }
    public List<string> DatabasePaths { get; } = new();
    public List<string> LogPaths { get; } = new();
    public bool New { get; private set; }
    public bool Open { get; private set; }
    public int? Threads { get; private set; }
    public double? CapacityPercentage { get; private set; }
    public double? ThroughputPercentage { get; private set; }
    /// <summary>/g /calculator: the sizing calculator's workbook whose design /g writes (docs/calculator.md).</summary>
    public string? Calculator { get; private set; }
    /// <summary>/g /calculator /servers: its Servers.csv (default: Servers.csv beside the workbook, when there is one).</summary>
    public string? Servers { get; private set; }

    /// <summary>/rejudge: a results file to judge again into new results and reports beside it (docs/failure-mode.md).</summary>
    public string? Rejudge { get; private set; }
    /// <summary>/rejudge /faultat, /faultlength: the fault window judged, seconds into the measured window; /stalllimit: the stall limit.</summary>
    public double? FaultAtSeconds { get; private set; }
    public double? FaultLengthSeconds { get; private set; }
    public double? StallLimitSeconds { get; private set; }

    /// <summary>"/threads 0 /timeout 0H0M0S": create (or attach) the databases and stop, as lab scripts prepare a host.</summary>
    public bool PrepareOnly => Threads == 0 && TimeoutSeconds == 0;

    /// <summary>The usage text /? prints.</summary>
    public const string Usage = """
JetstressCmd (ExchStorageTest): runs the test of a JetstressConfig.xml with the ExchStorageTest engine.

JetstressCmd [/?] [/c <config>] [/g] [/timeout <h>H<m>M<s>S] [/output <folder>]
             [/dbpath <folder> ...] [/logpath <folder> ...] [/new | /open] [/threads <n>]
             [/pctcapacity <percent>] [/throughput <percent>] [/calculator <workbook> [/servers <Servers.csv>]]
JetstressCmd /rejudge <results.json> [/faultat <seconds>] [/faultlength <seconds>] [/stalllimit <seconds>]

  /?            this help
  /c <file>     the configuration to run (any file name or extension)
  /g            write a complete JetstressConfig.xml into the current folder (the other switches go into it) and stop
  /timeout      the test's length, for example 2H0M0S (default: the configuration's Duration)
  /output       the folder for the reports (default: the configuration's OutputPath; "." is the current folder)
  /dbpath       a database folder, one a database; replaces the configuration's instances (repeat it)
  /logpath      the log folder of the database at the same position, or one for all (repeat it; /log too)
  /new, /open   create the databases, or attach those a run created before
  /threads <n>  a fixed thread (session) count; /threads 0 /timeout 0H0M0S creates the databases and stops
  /pctcapacity  with DatabaseSizing Capacity: the share of the volumes' free space the databases take
  /throughput   the share of the throughput the test drives: 100 (the whole load; no other share is run)
  /calculator   with /g: the Exchange Server Role Requirements Calculator's workbook; writes its design, one
                <server>\JetstressConfig.xml for each server of its Servers.csv (JetstressConfig.xml without one)
  /servers      with /calculator: its Servers.csv (default: Servers.csv beside the workbook)
  /rejudge      judge a run's results file again: new results and reports beside it (<name>.rejudged-<time>.*),
                nothing written over; with /faultat <seconds> into the measured window (and /faultlength
                <seconds>, default 60) the fault window judged apart, /stalllimit <seconds> (default 20)

Exit code 0: the test ran to its verdict (Pass or Fail: read it from the report, <Type>_<time>.html);
the databases were prepared (/threads 0 /timeout 0H0M0S); /rejudge wrote its new results and reports;
or /g or /? did what they do.
Any other: the reason is the one line on standard error. Everything is logged to Jetstress.log beside JetstressCmd.
See docs/jetstress.md.
""";

    public static JetstressCommandLine Parse(IReadOnlyList<string> args)
    {
        var c = new JetstressCommandLine();
        if (args.Count == 0) { c.Help = true; return c; }
        for (int i = 0; i < args.Count; i++)
        {
            string arg = args[i];
            if (arg.Length < 2 || (arg[0] != '/' && arg[0] != '-'))
                throw Invalid($"'{arg}' is not a switch: JetstressCmd's switches start with / or - (/? lists them).", arg);
            string name = arg[1..].ToLowerInvariant();
            string Value()
            {
                if (i + 1 >= args.Count) throw Invalid($"{arg} needs a value.", arg);
                return args[++i];
            }
            switch (name)
            {
                case "?": case "help": c.Help = true; break;
                case "g": c.Generate = true; break;
                case "c": c.Config = Once(arg, c.Config, Value()); break;
                case "timeout": c.TimeoutSeconds = Timeout(arg, Value()); break;
                case "output": c.Output = Once(arg, c.Output, Value()); break;
                case "dbpath": c.DatabasePaths.Add(Value()); break;
                case "logpath": case "log": c.LogPaths.Add(Value()); break;
                case "new": c.New = true; break;
                case "open": c.Open = true; break;
                case "threads": c.Threads = (int)Number(arg, Value(), 0, 1024, integer: true); break;
                case "pctcapacity": c.CapacityPercentage = Number(arg, Value(), 0, 100, integer: false, exclusiveMinimum: true); break;
                case "throughput": c.ThroughputPercentage = Number(arg, Value(), 0, 100, integer: false, exclusiveMinimum: true); break;
                case "calculator": c.Calculator = Once(arg, c.Calculator, Value()); break;
                case "servers": c.Servers = Once(arg, c.Servers, Value()); break;
                case "rejudge": c.Rejudge = Once(arg, c.Rejudge, Value()); break;
                case "faultat": c.FaultAtSeconds = Seconds(arg, c.FaultAtSeconds, Value(), Contract.FaultRules.FaultAt); break;
                case "faultlength": c.FaultLengthSeconds = Seconds(arg, c.FaultLengthSeconds, Value(), Contract.FaultRules.FaultLength); break;
                case "stalllimit": c.StallLimitSeconds = Seconds(arg, c.StallLimitSeconds, Value(), Contract.FaultRules.StallLimit); break;
                default: throw Invalid($"Unknown switch '{arg}' (/? lists JetstressCmd's switches).", arg);
            }
        }
        if (c.Help) return c;
        if (c.Rejudge is not null)
        {
            if (c.Generate || c.Config is not null || c.TimeoutSeconds is not null || c.Output is not null || c.DatabasePaths.Count > 0 || c.LogPaths.Count > 0
                || c.New || c.Open || c.Threads is not null || c.CapacityPercentage is not null || c.ThroughputPercentage is not null || c.Calculator is not null || c.Servers is not null)
                throw Invalid("/rejudge judges a stored run again and runs no test: it takes only /faultat, /faultlength and /stalllimit.", "/rejudge");
            return c;
        }
        if (c.FaultAtSeconds is not null || c.FaultLengthSeconds is not null || c.StallLimitSeconds is not null)
            throw Invalid("/faultat, /faultlength and /stalllimit judge a stored run again: use them with /rejudge <results.json>.",
                c.FaultAtSeconds is not null ? "/faultat" : c.FaultLengthSeconds is not null ? "/faultlength" : "/stalllimit");
        if (c.New && c.Open) throw Invalid("/new and /open cannot be used together: create the databases, or attach those there.", "/open");
        if (c.Generate && c.Config is not null) throw Invalid("/g writes a configuration and /c runs one: give one of them.", "/g");
        if (c.Calculator is not null && !c.Generate) throw Invalid("/calculator writes the calculator's design as configurations: use it with /g.", "/calculator");
        if (c.Servers is not null && c.Calculator is null) throw Invalid("/servers is the calculator's Servers.csv: use it with /g /calculator <workbook>.", "/servers");
        if (!c.Generate && c.Config is null) throw Invalid("No configuration: give /c <config> to run one, or /g to write JetstressConfig.xml.", null);
        if ((c.Threads == 0) != (c.TimeoutSeconds == 0))
            throw Invalid(c.Threads == 0
                ? "/threads 0 runs no threads: give /timeout 0H0M0S with it to create the databases and stop, or a thread count of 1 or more."
                : "/timeout 0H0M0S runs no test: give /threads 0 with it to create the databases and stop, or a longer timeout.", c.Threads == 0 ? "/threads" : "/timeout");
        if (c.LogPaths.Count > 1 && c.LogPaths.Count != c.DatabasePaths.Count)
            throw Invalid($"{c.LogPaths.Count} /logpath for {c.DatabasePaths.Count} /dbpath: give one log folder a database, or one for all.", "/logpath");
        if (c.LogPaths.Count > 0 && c.DatabasePaths.Count == 0)
            throw Invalid("/logpath needs /dbpath: the log folders belong to the databases given with it.", "/logpath");
        return c;
    }

    /// <summary>A length in seconds, held to the request's own rule for it (<see cref="Contract.NumberRule"/>).</summary>
    private static double Seconds(string arg, double? current, string value, Contract.NumberRule rule)
    {
        if (current is not null) throw Invalid($"{arg} is given twice.", arg);
        if (!double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out double n)) throw EngineException.Refused(rule.Refuse(value));
        if (rule.Check(n) is { } violation) throw EngineException.Refused(violation);
        return n;
    }

    private static string Once(string arg, string? current, string value) =>
        current is null ? value : throw Invalid($"{arg} is given twice.", arg);

    private static double Timeout(string arg, string value) =>
        JetstressDuration.ParseTimeout(value) ?? throw Invalid($"{arg} '{value}' is not a length like 2H0M0S (hours H, minutes M, seconds S).", value);

    private static double Number(string arg, string value, double min, double max, bool integer, bool exclusiveMinimum = false)
    {
        if (!double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out double n) || (integer && Math.Floor(n) != n)
            || (exclusiveMinimum ? n <= min : n < min) || n > max)
            throw Invalid(FormattableString.Invariant($"{arg} '{value}' is not {(integer ? "a whole number" : "a number")} {(exclusiveMinimum ? "above" : "from")} {min} {(exclusiveMinimum ? "and at most" : "to")} {max}."), value);
        return n;
    }

    private static EngineException Invalid(string message, string? target) =>
        EngineException.Refused(ErrorCodes.JetstressArgumentInvalid, message, target);
}
