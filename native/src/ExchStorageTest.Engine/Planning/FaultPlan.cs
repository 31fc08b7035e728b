namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// A declared failure-mode window (docs/failure-mode.md): it starts <see cref="AtSeconds"/> into the measured window — on
/// every host of a run with an agreed measuring start, at that instant plus <see cref="AtSeconds"/> — and lasts at most
/// <see cref="LengthSeconds"/>, recovery included. <see cref="Script"/>, when given, causes the fault at its start; only
/// <see cref="RunsScriptHere"/> hosts start it.
/// </summary>
public sealed record FaultPlan(double AtSeconds, double LengthSeconds, string? Script, string? ScriptHost)
{
    public double EndSeconds => AtSeconds + LengthSeconds;

    /// <summary>The spare folder a reseed streams a database copy onto from the window's start (<see cref="ReseedPlan"/>); null: no reseed.</summary>
    public string? ReseedPath { get; init; }

    /// <summary>True when this host starts the script: it names one and names this machine, or no host at all.</summary>
    public bool RunsScriptHere => !string.IsNullOrWhiteSpace(Script)
        && (string.IsNullOrWhiteSpace(ScriptHost) || string.Equals(ScriptHost, Environment.MachineName, StringComparison.OrdinalIgnoreCase));

    /// <summary>The request's window, its script checked to exist on the host that runs it; null when none is declared.</summary>
    public static FaultPlan? For(EngineRequest request)
    {
        if (request.FaultAtSeconds is not double at) return null;
        var plan = new FaultPlan(at, request.FaultLengthSeconds ?? FaultRules.DefaultFaultLengthSeconds,
            string.IsNullOrWhiteSpace(request.FaultScript) ? null : request.FaultScript, request.FaultScriptHost)
        {
            ReseedPath = string.IsNullOrWhiteSpace(request.ReseedPath) ? null : Path.GetFullPath(request.ReseedPath),
        };
        if (plan.RunsScriptHere && !File.Exists(plan.Script))
            throw Protocol.EngineException.Refused(ErrorCodes.FaultScriptNotFound, $"The fault script '{plan.Script}' does not exist.", plan.Script);
        return plan;
    }
}
