using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Host.Commands;

/// <summary>
/// "inspect": what Test-StorageVolume shows. The full volume reports plus every finding flattened
/// with its path, so the module can list findings without walking the reports.
/// </summary>
internal static class InspectCommandHost
{
    public static int Execute(EngineRequest request, EventWriter events)
    {
        if (request.Paths.Count == 0)
            throw EngineException.InvalidArgument("PathsMissing", "The inspect command needs at least one path in 'paths'.");
        var reports = InspectCommand.Run(request.Paths, plannedBytes: 0);
        events.Emit("inspect", w =>
        {
            w.WritePropertyName("volumes");
            System.Text.Json.JsonSerializer.Serialize(w, reports, ResultsFile.Options);
            w.WriteStartArray("findings");
            foreach (var v in reports)
            {
                foreach (var f in v.Findings)
                {
                    w.WriteStartObject();
                    w.WriteString("path", v.Path);
                    if (v.MountPoint is not null) w.WriteString("mountPoint", v.MountPoint);
                    if (v.FileSystem is not null) w.WriteString("fileSystem", v.FileSystem);
                    w.WriteString("code", f.Code);
                    w.WriteString("severity", f.Severity);
                    w.WriteString("message", f.Message);
                    if (f.Advice is not null) w.WriteString("advice", f.Advice);
                    w.WriteEndObject();
                }
            }
            w.WriteEndArray();
        });
        return ExitCodes.Ran;
    }
}
