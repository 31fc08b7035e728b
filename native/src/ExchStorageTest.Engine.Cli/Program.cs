using System.Reflection;
using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Cli;
using ExchStorageTest.Engine.Cli.Commands;
using ExchStorageTest.Engine.Cli.Requests;

// The engine: one JSON request in (stdin, --request <file>, or the first line of stdin with
// --control-stdin, which keeps stdin open as the caller's stop channel), JSON Lines events out on stdout.
// `demo [folder]` runs the built-in default profile without a request (for machines without PowerShell);
// `dsc get|test|set` is the DSC v3 command resource (dsc/exchstoragetest.dsc.resource.json); started under the name
// JetstressCmd it is Jetstress's command line (Jetstress/JetstressCmd.cs).
// DSC v3 reads stdout as the resource state, so the dsc verbs speak DSC's protocol, not ours (no hello line).
if (args.Length >= 1 && args[0] == "dsc") return DscCommand.Execute(args.Length > 1 ? args[1] : "", Console.In, Console.Out);
// Started as JetstressCmd (the launcher copy the build puts beside this one), the engine takes Jetstress's command line
// and prints Jetstress's console lines: docs/jetstress.md.
if (ExchStorageTest.Engine.Cli.Jetstress.JetstressCmd.IsInvokedAs(Environment.ProcessPath)) return ExchStorageTest.Engine.Cli.Jetstress.JetstressCmd.Start(args);

var stdout = Console.OpenStandardOutput();
var events = new EventWriter(stdout);
string version = typeof(EventWriter).Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion?.Split('+')[0] ?? "0.0.0";
// The heartbeat promise (Heartbeat in the contract): an event at least every interval, from a thread of its own that
// falls silent if this thread dies without ending the process, so the module never waits on a hung engine.
double heartbeatSeconds = Heartbeat.IntervalSeconds(Environment.GetEnvironmentVariable(Heartbeat.Variable));
events.Hello(version, RuntimeInformation.OSDescription, RuntimeInformation.FrameworkDescription, heartbeatSeconds);
using var heartbeat = HeartbeatThread.Start(events, heartbeatSeconds);

using var cancel = new CancellationTokenSource();
// Ctrl+C and SIGTERM stop the run cleanly: the runner ends the measured window, judges and saves what it has.
Console.CancelKeyPress += (_, e) => { e.Cancel = true; cancel.Cancel(); };
using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, ctx => { ctx.Cancel = true; cancel.Cancel(); });

try
{
    EngineRequest request;
    CapacityControl? capacitySteps = null;
    if (args.Length > 0 && args[0] == "demo")
        request = DemoCommand.BuildRequest(args.Length > 1 ? args[1] : null);
    else if (args.Length == 1 && args[0] == ControlChannel.Flag)
    {
        var control = ControlChannel.OpenStandardInput();
        request = RequestGate.Read(control.ReadRequestLine(), "the first line of standard input");
        capacitySteps = new CapacityControl();
        control.Watch(() => { try { cancel.Cancel(); } catch (ObjectDisposedException) { } }, capacitySteps,
            warning => events.Log(EventFields.Log.Warning, warning));
    }
    else
        request = RequestGate.Read(ReadRequestText(args), args.Length > 1 && args[0] == "--request" ? args[1] : "standard input");
    return CommandDispatcher.Execute(request, events, cancel.Token, capacitySteps);
}
catch (EngineException ex)
{
    events.Error(ex.Code, ex.Category, ex.Message, ex.Target);
    return EngineExit.For(ex.IsRefusal);
}
catch (OperationCanceledException)
{
    events.Error(ErrorCodes.Stopped, "The engine was stopped before it produced a result.", null);
    return EngineExit.Stopped;
}
catch (Exception ex)
{
    events.Error(ErrorCodes.EngineFault, $"The engine failed unexpectedly: {ex.GetType().Name}: {ex.Message}", null);
    Console.Error.WriteLine(ex);
    return EngineExit.Error;
}

static string ReadRequestText(string[] args)
{
    if (args.Length >= 2 && args[0] == "--request")
    {
        if (!File.Exists(args[1]))
            throw EngineException.Refused(ErrorCodes.RequestFileNotFound, $"Request file '{args[1]}' does not exist.", args[1]);
        return File.ReadAllText(args[1]);
    }
    if (args.Length > 0)
        throw EngineException.Refused(ErrorCodes.UnknownArgument, $"Unknown argument '{args[0]}'. Usage: exchstoragetest-engine [--request <file> | --control-stdin | demo [folder]] (request JSON on stdin by default).");
    using var reader = new StreamReader(Console.OpenStandardInput(), System.Text.Encoding.UTF8);
    return reader.ReadToEnd();
}
