using System.Text;

namespace ExchStorageTest.Host;

/// <summary>
/// <c>--control-stdin</c>: the request is the first line of standard input and the rest of standard input
/// is the caller's control channel. A line <c>stop</c> stops the command as Ctrl+C does (the measured
/// window ends, the partial result is judged and saved); the end of input stops it too, because it means
/// the caller's end of the pipe has closed: the PowerShell session that started the run has gone.
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
    /// Watches the rest of the input on a background thread and calls <paramref name="stop"/> once, on a
    /// <c>stop</c> line or at the end of input. Unknown lines are ignored, so later protocol versions can add
    /// control messages without breaking this engine.
    /// </summary>
    public void WatchForStop(Action stop)
    {
        var thread = new Thread(() =>
        {
            try
            {
                string? line;
                while ((line = _input.ReadLine()) is not null)
                    if (string.Equals(line.Trim(), StopCommand, StringComparison.OrdinalIgnoreCase)) break;
            }
            catch (IOException)
            {
                // A broken pipe is the caller going away: stop, as at the end of input.
            }
            stop();
        })
        { IsBackground = true, Name = "control-stdin" };
        thread.Start();
    }
}
