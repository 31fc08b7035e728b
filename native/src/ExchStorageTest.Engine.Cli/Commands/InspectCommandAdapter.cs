using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// "inspect": what Test-StorageVolume shows. The full volume reports plus every finding flattened
/// with its path, so the module can list findings without walking the reports. Every path must be an
/// existing folder; a folder that cannot be inspected gets an Error finding instead.
/// </summary>
internal sealed class InspectCommandAdapter : IEngineCommand
{
    public string Name => EngineCommands.Inspect;

    public CommandWork Check(EngineRequest request, EventWriter events)
    {
        if (request.Paths.Count == 0)
            throw EngineException.Refused(ErrorCodes.PathsMissing, "The inspect command needs at least one folder in 'paths'.");
        foreach (var path in request.Paths)
        {
            if (!ProfileRules.IsAbsolute(path))
                throw EngineException.Refused(ErrorCodes.PathNotAbsolute, $"The path '{path}' is relative: give a full path.", path);
            if (!Directory.Exists(path))
                throw EngineException.Refused(ErrorCodes.PathNotFound, $"The folder '{path}' does not exist: create it, or correct the path.", path);
        }
        return _ =>
        {
            Write(events, InspectCommand.Run(request.Paths, plannedBytes: 0));
            return EngineExit.Ran;
        };
    }

    private static void Write(EventWriter events, List<VolumeReport> reports) => events.Emit(EventTypes.Inspect, w =>
    {
        w.WritePropertyName(EventFields.Inspect.Volumes);
        System.Text.Json.JsonSerializer.Serialize(w, reports, ResultsFile.Options);
        w.WriteStartArray(EventFields.Inspect.Findings);
        foreach (var v in reports)
        {
            foreach (var f in v.Findings)
            {
                w.WriteStartObject();
                w.WriteString(EventFields.Inspect.Finding.Path, v.Path);
                if (v.MountPoint is not null) w.WriteString(EventFields.Inspect.Finding.MountPoint, v.MountPoint);
                if (v.FileSystem is not null) w.WriteString(EventFields.Inspect.Finding.FileSystem, v.FileSystem);
                w.WriteString(EventFields.Inspect.Finding.Code, f.Code);
                w.WriteString(EventFields.Inspect.Finding.Severity, f.Severity);
                w.WriteString(EventFields.Inspect.Finding.Message, f.Message);
                if (f.Advice is not null) w.WriteString(EventFields.Inspect.Finding.Advice, f.Advice);
                w.WriteEndObject();
            }
        }
        w.WriteEndArray();
    });
}
