using System.Globalization;
using System.Text;
using System.Text.Json;
using ExchStorageTest.Engine.Capacity;

namespace ExchStorageTest.Engine.Cli;

/// <summary>
/// <c>--control-stdin</c>: the request is the first line of standard input and the rest of standard input
/// is the caller's control channel. A line <c>stop</c> stops the command as Ctrl+C does (the measured
/// window ends, the partial result is judged and saved); the end of input stops it too, because it means
/// the caller's end of the pipe has closed: the PowerShell session that started the run has gone. A
/// caller-stepped capacity search also reads its <c>step</c> and <c>end</c> lines here (<see cref="ControlCommands"/>).
/// </summary>
/// <remarks>
/// Why a channel and not a signal: on Windows a console Ctrl+C reaches a child only when it shares the
/// caller's console, which a hosted runspace, a job, a scheduled task or a remoting session does not, and
/// there is no SIGTERM. A pipe the caller already holds works the same in Windows PowerShell 5.1,
/// PowerShell 7, jobs and remoting, on every OS.
/// </remarks>
internal sealed class ControlChannel
{
    public const string Flag = "--control-stdin";
    public const string StopCommand = ControlCommands.Stop;

    private readonly TextReader _input;

    private ControlChannel(TextReader input) => _input = input;

    /// <summary>Opens standard input as UTF-8 (a byte order mark is skipped).</summary>
    public static ControlChannel OpenStandardInput() =>
        new(new StreamReader(Console.OpenStandardInput(), new UTF8Encoding(false), detectEncodingFromByteOrderMarks: true));

    /// <summary>The request: the first line that is not blank ("" when the input ends first).</summary>
    public string ReadRequestLine()
    {
        string? line;
        while ((line = _input.ReadLine()) is not null)
            if (!string.IsNullOrWhiteSpace(line)) return line;
        return "";
    }

    /// <summary>
    /// Watches the rest of the input on one background thread: a caller-stepped capacity search's <c>step</c> and
    /// <c>end</c> lines go to <paramref name="capacitySteps"/> (a malformed one is reported through
    /// <paramref name="warn"/> and ignored), and <paramref name="stop"/> is called once, on a <c>stop</c> line or at the
    /// end of input. Unknown lines are ignored, so later protocol versions can add control messages without breaking
    /// this engine.
    /// </summary>
    public void Watch(Action stop, CapacityControl capacitySteps, Action<string> warn)
    {
        var thread = new Thread(() =>
        {
            try
            {
                string? line;
                while ((line = _input.ReadLine()) is not null)
                {
                    if (string.Equals(line.Trim(), StopCommand, StringComparison.OrdinalIgnoreCase)) break;
                    var (verb, body) = Split(line);
                    if (!IsCapacityCommand(verb)) continue;
                    if (ReadCapacityCommand(verb, body, out string problem) is { } command) capacitySteps.Post(command);
                    else warn($"Ignored the control line '{line.Trim()}': {problem}");
                }
            }
            catch (IOException)
            {
                // A broken pipe is the caller going away: stop, as at the end of input.
            }
            stop();
            capacitySteps.Complete();
        })
        { IsBackground = true, Name = "control-stdin" };
        thread.Start();
    }

    private static (string Verb, string Body) Split(string line)
    {
        string t = line.Trim();
        int space = t.IndexOfAny(new[] { ' ', '\t' });
        return space < 0 ? (t, "") : (t[..space], t[(space + 1)..].Trim());
    }

    private static bool IsCapacityCommand(string verb) =>
        string.Equals(verb, ControlCommands.Step, StringComparison.OrdinalIgnoreCase) || string.Equals(verb, ControlCommands.End, StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// <c>step {"mailboxes":N,"measureAtUtc":"..."}</c> or <c>end {"stopReason":"...","message":"..."}</c>; null, with the
    /// problem in words, when the JSON or a field is missing or malformed.
    /// </summary>
    private static CapacityCommand? ReadCapacityCommand(string verb, string body, out string problem)
    {
        problem = "";
        try
        {
            using var doc = JsonDocument.Parse(body.Length == 0 ? "null" : body);
            var o = doc.RootElement;
            if (o.ValueKind != JsonValueKind.Object) { problem = "a JSON object must follow the command"; return null; }
            if (string.Equals(verb, ControlCommands.End, StringComparison.OrdinalIgnoreCase))
            {
                if (!o.TryGetProperty(ControlFields.StopReason, out var reason) || reason.ValueKind != JsonValueKind.String || string.IsNullOrWhiteSpace(reason.GetString()))
                { problem = $"'{ControlFields.StopReason}' (a string) is missing"; return null; }
                string message = o.TryGetProperty(ControlFields.Message, out var m) && m.ValueKind == JsonValueKind.String ? m.GetString()! : "";
                return new CapacityEndCommand(reason.GetString()!, message);
            }
            if (!o.TryGetProperty(ControlFields.Mailboxes, out var n) || n.ValueKind != JsonValueKind.Number || !n.TryGetInt32(out int mailboxes) || mailboxes < 1)
            { problem = $"'{ControlFields.Mailboxes}' must be a whole number of at least 1"; return null; }
            if (!o.TryGetProperty(ControlFields.MeasureAtUtc, out var at) || at.ValueKind != JsonValueKind.String
                || !DateTime.TryParse(at.GetString(), CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out var instant))
            { problem = $"'{ControlFields.MeasureAtUtc}' must be an ISO 8601 UTC instant"; return null; }
            return new CapacityStepCommand(mailboxes, DateTime.SpecifyKind(instant, DateTimeKind.Utc));
        }
        catch (JsonException ex)
        {
            problem = $"the JSON after the command is malformed ({ex.Message})";
            return null;
        }
    }
}
