using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// "validation": the desired-state check of the ExchStorageValidation DSC class resource, read the
/// same way as <c>exchstoragetest-engine dsc test</c> (<see cref="DscCommand.Read"/>), so the class
/// and the DSC v3 command resource cannot disagree. Reads results files only; writes nothing.
/// Request: <c>paths</c> = [the saved profile file], <c>outputPath</c>, <c>testType</c>,
/// <c>maxResultAgeHours</c> (default 24). One <c>validation</c> event with the state.
/// </summary>
internal sealed class ValidationCommand : IEngineCommand
{
    public string Name => EngineCommands.Validation;

    public CommandWork Check(EngineRequest request, EventWriter events) => Check(request, events, () => DateTime.UtcNow);

    /// <summary>The testable form: "now" is given.</summary>
    public CommandWork Check(EngineRequest request, EventWriter events, Func<DateTime> nowUtc)
    {
        if (request.Paths.Count != 1)
            throw EngineException.Refused(ErrorCodes.PathsMissing, $"The validation command needs exactly one path in 'paths': the saved profile file (got {request.Paths.Count}).");
        var instance = new DscInstance
        {
            ProfilePath = request.Paths[0],
            OutputPath = request.OutputPath,
            TestType = request.TestType,
            MaxResultAgeHours = request.MaxResultAgeHours ?? RunDefaults.MaxResultAgeHours,
        }.Checked();
        return _ =>
        {
            var state = DscCommand.Read(instance, nowUtc());
            var members = state.ToJsonObject(state.InDesiredState);
            events.Emit(EventTypes.Validation, w =>
            {
                foreach (var (name, value) in members)
                {
                    w.WritePropertyName(name);
                    if (value is null) w.WriteNullValue();
                    else value.WriteTo(w);
                }
            });
            return EngineExit.Ran;
        };
    }
}
