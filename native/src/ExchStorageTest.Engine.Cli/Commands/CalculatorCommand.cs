using System.Text.Json;
using ExchStorageTest.Engine.Calculator;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// "calculator": reads the Exchange Server Role Requirements Calculator's workbook (<c>paths</c>: the one .xlsm or
/// .xlsx) and, with <c>serversCsvPath</c>, its Servers.csv export, into mailbox profiles (docs/calculator.md). Reads
/// cached cell values only, runs no macro and writes nothing; every problem with either file is a refusal naming the
/// label or cell. Answers one <c>calculator</c> event (the profiles, each server's databases and volumes) after a
/// <c>log</c> warning for each thing the import could not take over.
/// </summary>
internal sealed class CalculatorCommand : IEngineCommand
{
    public string Name => EngineCommands.Calculator;

    public CommandWork Check(EngineRequest request, EventWriter events)
    {
        if (request.Paths.Count != 1)
            throw EngineException.Refused(ErrorCodes.PathsMissing, $"The calculator command needs exactly one path in 'paths': the calculator's workbook (got {request.Paths.Count}).");
        string workbook = Path.GetFullPath(request.Paths[0]);
        string? servers = string.IsNullOrWhiteSpace(request.ServersCsvPath) ? null : Path.GetFullPath(request.ServersCsvPath);
        // Everything is read here, in the checks: a bad workbook is a refusal (exit 2), and the work only answers.
        var import = CalculatorImport.Read(workbook, servers);
        return _ =>
        {
            foreach (string warning in import.Warnings) events.Log(EventFields.Log.Warning, warning);
            events.Emit(EventTypes.Calculator, w => Write(w, import));
            return EngineExit.Ran;
        };
    }

    private static void Write(Utf8JsonWriter w, CalculatorImport import)
    {
        w.WriteStartArray(EventFields.Calculator.Profiles);
        foreach (var profile in import.Profiles)
        {
            // Its settings only, as a request's profile spells them (the derived figures are the reader's to compute).
            w.WriteStartObject();
            foreach (var (name, value) in profile.Settings())
            {
                w.WritePropertyName(name);
                JsonSerializer.Serialize(w, value, Requests.RequestJson.Options);
            }
            w.WriteEndObject();
        }
        w.WriteEndArray();
        if (import.ServersCsvPath is null) w.WriteNull(EventFields.Calculator.ServersCsvPath);
        else w.WriteString(EventFields.Calculator.ServersCsvPath, import.ServersCsvPath);
        w.WriteStartArray(EventFields.Calculator.Servers);
        foreach (var server in import.Servers)
        {
            w.WriteStartObject();
            w.WriteString(EventFields.Calculator.Server.Name, server.Name);
            w.WriteString(EventFields.Calculator.Server.DatabasesRootFolder, server.DatabasesRootFolder);
            w.WriteString(EventFields.Calculator.Server.VolumesRootFolder, server.VolumesRootFolder);
            w.WriteNumber(EventFields.Calculator.Server.DatabasesPerVolume, server.DatabasesPerVolume);
            w.WriteBoolean(EventFields.Calculator.Server.LogIsolation, server.LogIsolation);
            w.WriteStartArray(EventFields.Calculator.Server.Databases);
            for (int i = 0; i < server.Databases.Count; i++)
            {
                w.WriteStartObject();
                w.WriteString(EventFields.Calculator.Database.Name, server.Databases[i]);
                w.WriteString(EventFields.Calculator.Database.Path, server.DatabasePath(server.Databases[i]));
                w.WriteNumber(EventFields.Calculator.Database.Volume, server.Volume(i));
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteEndObject();
        }
        w.WriteEndArray();
    }
}
