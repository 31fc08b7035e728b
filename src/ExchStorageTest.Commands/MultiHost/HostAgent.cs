using System.IO;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Helper;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// What a multi-host run asks of the module on each host, after Import-Module there: where its engine is, and
    /// the engine's plan for that host's paths (the host checks its own folders and free space). Public because
    /// the orchestrating computer calls it through remoting as <c>[ExchStorageTest.MultiHost.HostAgent]::Plan(...)</c>;
    /// text in and out, so nothing depends on how a remote session serializes objects.
    /// </summary>
    public static class HostAgent
    {
        /// <summary>The engine this host would run, or null when the module has none for this platform.</summary>
        public static string? EnginePath()
        {
            string path = HelperLocator.ExpectedPath;
            return File.Exists(path) ? path : null;
        }

        /// <summary>Runs the engine's plan command with a request built by the orchestrator; returns the plan event as JSON.</summary>
        public static string Plan(string requestJson)
        {
            if (!(JsonReader.Parse(requestJson) is JsonObject request) || request.GetString(RequestFields.Command) != HelperCommands.Plan)
                throw new ArgumentException("The request is not a plan request.", nameof(requestJson));
            var sink = new QuietSink();
            HelperOutcome outcome = new HelperRun().Run(request, "Planning", 1, sink);
            // An error the helper went on after still makes this host's plan one not to run on.
            if (sink.FirstError != null) throw new RuntimeException(sink.FirstError.Exception?.Message ?? sink.FirstError.ToString(), sink.FirstError.Exception, sink.FirstError);
            HelperEvent plan = outcome.First(EventTypes.Plan) ?? throw new InvalidOperationException("The engine returned no plan.");
            return JsonWriter.Write(plan.Fields);
        }

        /// <summary>The plan runs inside a remote call whose streams nobody watches: its records are dropped, its first error kept.</summary>
        private sealed class QuietSink : IRunSink
        {
            public ErrorRecord? FirstError { get; private set; }
            public bool CanWrite => true;
            public void Verbose(string message) { }
            public void Information(string message) { }
            public void Warning(string message) { }
            public void Progress(ProgressRecord record) { }
            public void Error(ErrorRecord record) => FirstError = FirstError ?? record;
        }
    }
}
