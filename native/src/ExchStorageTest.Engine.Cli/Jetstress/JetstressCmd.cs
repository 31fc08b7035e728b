using System.Reflection;
using System.Text;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Cli.Commands;

namespace ExchStorageTest.Engine.Cli.Jetstress;

/// <summary>
/// JetstressCmd: the command line Jetstress automation calls (ExchangeDsc's ExchJetstress, the Azure Stack template, lab
/// scripts), answered by this engine under that name. The build puts a copy of the engine's launcher named JetstressCmd
/// beside it (bin/&lt;rid&gt;/JetstressCmd[.exe]); started under that name, the engine is JetstressCmd for the whole
/// run — ExchangeDsc polls for a process of that name — and runs the configuration's test through the same request
/// checks, plan and reports as the engine's run command (docs/jetstress.md). It never reads standard input: it runs
/// as SYSTEM from a scheduled task, with no console.
/// </summary>
internal static class JetstressCmd
{
    /// <summary>The name that makes the engine JetstressCmd (the launcher's file name, without .exe).</summary>
    public const string ProcessName = EngineFiles.JetstressCmd;

    /// <summary>The configuration /g writes into the current folder, the one Jetstress's own /g writes.</summary>
    public const string GeneratedConfigName = "JetstressConfig.xml";

    /// <summary>Whether this process was started as JetstressCmd (by its launcher's name).</summary>
    public static bool IsInvokedAs(string? processPath) =>
        processPath is not null && string.Equals(Path.GetFileNameWithoutExtension(processPath), ProcessName, StringComparison.OrdinalIgnoreCase);

    public static int Start(string[] args)
    {
        using var cancel = new CancellationTokenSource();
        // Ctrl+C and SIGTERM (a scheduled task's end, a stop) end the measured window; the run is judged and reported.
        Console.CancelKeyPress += (_, e) => { e.Cancel = true; cancel.Cancel(); };
        using var sigterm = System.Runtime.InteropServices.PosixSignalRegistration.Create(System.Runtime.InteropServices.PosixSignal.SIGTERM, ctx => { ctx.Cancel = true; cancel.Cancel(); });
        return Run(args, Directory.GetCurrentDirectory(), AppContext.BaseDirectory, Console.Out, Console.Error, cancel.Token);
    }

    /// <summary>The testable form: working directory, the folder of Jetstress.log and the console are given.</summary>
    public static int Run(IReadOnlyList<string> args, string workingDirectory, string logFolder, TextWriter stdout, TextWriter stderr, CancellationToken cancel)
    {
        var log = new JetstressLog(logFolder);
        var console = new JetstressConsole(stdout, log);
        console.Say($"{ProcessName} (ExchStorageTest {Version()}) {string.Join(" ", args.Select(Quote))}");
        if (log.Failure is not null) stdout.WriteLine(log.Failure);
        try
        {
            var line = JetstressCommandLine.Parse(args);
            if (line.Help)
            {
                stdout.Write(JetstressCommandLine.Usage);
                return EngineExit.Ran;
            }
            if (line.Generate) return Generate(line, workingDirectory, console);
            if (line.Rejudge is not null) return Rejudge(line, workingDirectory, console, stderr, cancel);

            string configPath = JetstressRequest.Resolve(line.Config!, workingDirectory);
            var config = JetstressConfig.Read(configPath, out var violation) ?? throw EngineException.Refused(violation!);
            var request = JetstressRequest.Build(config, line, workingDirectory);
            var events = new EventWriter(console);
            if (line.PrepareOnly) return Prepare(request, events, console, log, cancel);

            // The engine's checks first: a refused run writes nothing, not even its log in the output folder.
            var work = CommandDispatcher.Check(request, events);
            KeepRunLog(log, request.OutputPath!, console);
            console.Say($"Running the {Describe(request)} of {configPath}; reports in {request.OutputPath}.");
            if (request.TestType == TestType.Throughput && (request.ThreadCount ?? request.Profile.ThreadCount) is int asked)
                console.Say($"The thread count {asked} does not fix this test's load: the Throughput test searches for the most sessions that pass the thresholds.");
            return Finish(work(cancel), console, stderr);
        }
        catch (EngineException ex)
        {
            return Fail(EngineExit.For(ex.IsRefusal), ex.Code, ex.Message, console, stderr);
        }
        catch (OperationCanceledException)
        {
            return Fail(EngineExit.Stopped, ErrorCodes.Stopped.Code, "JetstressCmd was stopped before the test produced a result.", console, stderr);
        }
        catch (Exception ex)
        {
            return Fail(EngineExit.Error, ErrorCodes.EngineFault.Code, $"JetstressCmd failed unexpectedly: {ex.GetType().Name}: {ex.Message}", console, stderr);
        }
    }

    /// <summary>
    /// The run's end. 0 when the test ran to its verdict and its reports are written — Pass or Fail alike: the verdict is
    /// the report's, where automation reads it; otherwise the reason, on standard error.
    /// </summary>
    private static int Finish(int exit, JetstressConsole console, TextWriter stderr)
    {
        if (console.Result is not { } result)
            return Fail(exit == EngineExit.Ran ? EngineExit.Error : exit, console.LastError?.Code ?? ErrorCodes.EngineFault.Code,
                console.LastError?.Message ?? "The engine ended without a result.", console, stderr);
        string verdict = result.GetProperty(EventFields.Result.Verdict).GetString() ?? "";
        string completion = result.GetProperty(EventFields.Result.Completion).GetString() ?? "";
        string html = result.GetProperty(EventFields.Result.ReportPaths).EnumerateArray().Select(p => p.GetString() ?? "")
            .FirstOrDefault(p => p.EndsWith(".html", StringComparison.Ordinal)) ?? "(not written)";
        // A stopped run's verdict is its completion (Stopped): said once.
        console.Say($"Overall Test Result: {verdict}{(verdict == completion ? "" : $" ({completion})")}. Report: {html}");
        if (exit != EngineExit.Ran)
            return Fail(exit, console.LastError?.Code ?? ErrorCodes.ReportWriteFailed.Code,
                console.LastError?.Message ?? $"The test ended {completion}.", console, stderr, said: true);
        if (completion != "Complete")
            return Fail(EngineExit.Error, ErrorCodes.JetstressRunNotComplete.Code, $"The test ended {completion}, not at its end: its report says what was measured and why it stopped.", console, stderr, said: true);
        return EngineExit.Ran;
    }

    /// <summary>
    /// /rejudge: the engine's report command with rejudge, as the module asks it: the results file judged again into new
    /// results and reports beside it. 0 when they were written, Pass or Fail alike (the verdict is the report's).
    /// </summary>
    private static int Rejudge(JetstressCommandLine line, string workingDirectory, JetstressConsole console, TextWriter stderr, CancellationToken cancel)
    {
        string path = Path.GetFullPath(line.Rejudge!, workingDirectory);
        var request = new EngineRequest
        {
            Command = EngineCommands.Report, Rejudge = true, Paths = { path },
            FaultAtSeconds = line.FaultAtSeconds, FaultLengthSeconds = line.FaultLengthSeconds, StallLimitSeconds = line.StallLimitSeconds,
        };
        console.Say($"Judging {path} again.");
        int exit = CommandDispatcher.Execute(request, new EventWriter(console), cancel);
        if (console.Report is not { } report)
            return Fail(exit == EngineExit.Ran ? EngineExit.Error : exit, console.LastError?.Code ?? ErrorCodes.EngineFault.Code,
                console.LastError?.Message ?? "The engine ended without a report.", console, stderr);
        string verdict = report.GetProperty(EventFields.Report.Result).GetString() ?? "";
        string results = report.GetProperty(EventFields.Report.ResultsPaths).EnumerateArray().Select(p => p.GetString() ?? "").FirstOrDefault() ?? "";
        string html = report.GetProperty(EventFields.Report.Files).EnumerateArray().Select(p => p.GetString() ?? "")
            .FirstOrDefault(p => p.EndsWith(".html", StringComparison.Ordinal)) ?? "(not written)";
        console.Say($"Overall Test Result: {verdict} (re-judged). Results: {results}. Report: {html}");
        return exit;
    }

    /// <summary>The test that runs, in Jetstress's words where they differ from the engine's.</summary>
    private static string Describe(EngineRequest request) => request.ReportedAs is { } named && named != request.TestType
        ? FormattableString.Invariant($"{named} test with DatabaseSizing Capacity (the engine's {request.TestType} test: databases at {request.CapacityPercent}% of their volumes' free space, the most sessions that pass)")
        : $"{request.TestType} test";

    /// <summary>Jetstress.log in the run's output folder too, from the accepted run on (with this start's lines so far).</summary>
    private static void KeepRunLog(JetstressLog log, string outputFolder, JetstressConsole console)
    {
        if (log.AttachRun(outputFolder) is { } failure) console.Say(failure);
    }

    /// <summary>"/threads 0 /timeout 0H0M0S": the plan's databases created (or attached) and nothing run, so no report is written.</summary>
    private static int Prepare(EngineRequest request, EventWriter events, JetstressConsole console, JetstressLog log, CancellationToken cancel)
    {
        // The plan checks a test's length and the room for its results; nothing runs, so a second asks for no room.
        request.DurationSeconds = 1;
        var plan = TestPlanner.Plan(request);
        KeepRunLog(log, plan.OutputPath, console);
        console.Say($"Preparing {Wording.Count(plan.Instances.Count, "database")} and stopping (/threads 0 /timeout 0H0M0S): no test runs, no report is written.");
        var prepared = TestRunner.PrepareOnly(plan, events, cancel);
        foreach (var instance in prepared)
            console.Say($"{instance.Plan.Name}: {instance.Plan.DatabaseFile} ({(instance.Created ? "created" : "there already")}), logs in {instance.Plan.LogFolder}.");
        console.Say("The databases are ready; run the test with /open.");
        return EngineExit.Ran;
    }

    /// <summary>
    /// /g: a complete JetstressConfig.xml in the current folder, with the other switches' values. A file an earlier /g
    /// wrote is replaced, as Jetstress's /g does (automation generates, edits and generates again); one it did not write
    /// (a configuration from Jetstress or a user) is never touched: refused with FileExists.
    /// </summary>
    private static int Generate(JetstressCommandLine line, string workingDirectory, JetstressConsole console)
    {
        if (line.Calculator is not null) return JetstressCalculator.Generate(line, workingDirectory, console);
        string path = Path.Combine(workingDirectory, GeneratedConfigName);
        RefuseForeign(path);
        var draft = Draft(line);
        if (line.DatabasePaths.Count > 0) AddInstances(draft, line);
        else
        {
            string folder = Path.Combine(workingDirectory, "DB1");
            draft.Instances.Add(new JetstressInstance(folder, folder));
        }
        File.WriteAllText(path, JetstressConfigWriter.Render(draft), new UTF8Encoding(false));
        console.Say($"Wrote {path}.");
        return EngineExit.Ran;
    }

    /// <summary>A file /g may write: absent, or one an earlier /g wrote; any other is refused with FileExists and left as it is.</summary>
    internal static void RefuseForeign(string path)
    {
        if (File.Exists(path) && !WrittenByUs(path))
            throw EngineException.Refused(ErrorCodes.FileExists,
                $"'{path}' exists and was not written by JetstressCmd /g: it is left as it is. Run /g in another folder, or move the file.", path);
    }

    /// <summary>The template with the switches' values (/timeout, /output, /threads, /open, /pctcapacity, /throughput).</summary>
    internal static JetstressConfigDraft Draft(JetstressCommandLine line)
    {
        var draft = JetstressDefaults.Draft(Version());
        if (line.TimeoutSeconds is double timeout) draft.DurationSeconds = timeout;
        if (line.Output is not null) draft.OutputPath = line.Output;
        if (line.Threads is int threads and > 0) draft.ThreadCount = threads;
        if (line.Open) draft.DatabaseSource = "Open";
        if (line.CapacityPercentage is double capacity) draft.CapacityPercentage = capacity;
        if (line.ThroughputPercentage is double throughput) draft.ThroughputPercentage = throughput;
        return draft;
    }

    /// <summary>One instance a /dbpath, with the /logpath at its position (or the one for all, or its own folder).</summary>
    internal static void AddInstances(JetstressConfigDraft draft, JetstressCommandLine line)
    {
        draft.Instances.Clear();
        for (int i = 0; i < line.DatabasePaths.Count; i++)
            draft.Instances.Add(new JetstressInstance(line.DatabasePaths[i], line.LogPaths.Count == 0 ? line.DatabasePaths[i] : line.LogPaths[Math.Min(i, line.LogPaths.Count - 1)]));
    }

    /// <summary>Whether a JetstressConfig.xml names this tool as the program that generated it.</summary>
    private static bool WrittenByUs(string path)
    {
        try
        {
            var settings = new System.Xml.XmlReaderSettings { DtdProcessing = System.Xml.DtdProcessing.Prohibit, XmlResolver = null };
            using var reader = System.Xml.XmlReader.Create(path, settings);
            while (reader.Read())
                if (reader.NodeType == System.Xml.XmlNodeType.Element && reader.LocalName == "JetstressVersionGenerated")
                    return reader.ReadElementContentAsString().StartsWith(JetstressDefaults.GeneratorName + " ", StringComparison.Ordinal);
        }
        catch (Exception ex) when (ex is System.Xml.XmlException or IOException or UnauthorizedAccessException) { }
        return false;
    }

    private static int Fail(int exit, string code, string message, JetstressConsole console, TextWriter stderr, bool said = false)
    {
        string reason = $"{code}: {message}".ReplaceLineEndings(" ");
        if (!said) console.Say("Error " + reason);
        stderr.WriteLine($"{ProcessName}: {reason}");
        return exit == EngineExit.Ran ? EngineExit.Error : exit;
    }

    private static string Quote(string arg) => arg.Contains(' ') ? $"\"{arg}\"" : arg;

    private static string Version() =>
        typeof(JetstressCmd).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion?.Split('+')[0] ?? "0.0.0";
}
