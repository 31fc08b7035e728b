using System.Globalization;
using System.Text.Json;
using ExchStorageTest.Engine.Capture;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// "capture": reads PerfMon captures of the Exchange servers being replaced (<c>paths</c>: relog's CSV or TSV, or on
/// Windows a .blg) into a mailbox profile sized to their busiest hour x <c>growthFactor</c> (docs/capture.md), with
/// the calculator's design beside it when <c>calculatorPath</c> is given. Writes nothing; every problem with a capture
/// is a refusal naming the file, row or counter. Answers one <c>capture</c> event: the profile and its derivation in lines.
/// </summary>
internal sealed class CaptureCommand : IEngineCommand
{
    public string Name => EngineCommands.Capture;

    public CommandWork Check(EngineRequest request, EventWriter events)
    {
        if (request.Paths.Count == 0)
            throw EngineException.Refused(ErrorCodes.PathsMissing, "The capture command needs the capture files in 'paths'.");
        DateTime? start = null;
        if (!string.IsNullOrWhiteSpace(request.CaptureWindowStart))
        {
            if (!DateTime.TryParseExact(request.CaptureWindowStart, new[] { "yyyy-MM-dd HH:mm", "yyyy-MM-ddTHH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-ddTHH:mm:ss" },
                    CultureInfo.InvariantCulture, DateTimeStyles.None, out var parsed))
                throw EngineException.Refused(ErrorCodes.CaptureValueInvalid, $"The window's start '{request.CaptureWindowStart}' is not 'yyyy-MM-dd HH:mm' on the capture's clock.", request.CaptureWindowStart);
            start = parsed;
        }
        var options = new CaptureImport.Options(request.GrowthFactor ?? CaptureRules.DefaultGrowthFactor, start, request.CaptureWindowMinutes, request.MailboxCount,
            string.IsNullOrWhiteSpace(request.CalculatorPath) ? null : Path.GetFullPath(request.CalculatorPath),
            string.IsNullOrWhiteSpace(request.ServersCsvPath) ? null : Path.GetFullPath(request.ServersCsvPath));
        // Everything is read here, in the checks: a bad capture is a refusal (exit 2), and the work only answers.
        var import = CaptureImport.Read(request.Paths.Select(Path.GetFullPath).ToList(), options);
        return _ =>
        {
            events.Emit(EventTypes.Capture, w =>
            {
                w.WriteStartObject(EventFields.Capture.Profile);
                foreach (var (name, value) in import.Profile.Settings())
                {
                    w.WritePropertyName(name);
                    JsonSerializer.Serialize(w, value, Requests.RequestJson.Options);
                }
                w.WriteEndObject();
                w.WriteStartArray(EventFields.Capture.Derivation);
                foreach (string line in import.Derivation) w.WriteStringValue(line);
                w.WriteEndArray();
            });
            return EngineExit.Ran;
        };
    }
}
