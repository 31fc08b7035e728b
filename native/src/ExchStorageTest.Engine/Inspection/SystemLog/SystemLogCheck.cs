using ExchStorageTest.Engine.Protocol;
using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using System.Text;

namespace ExchStorageTest.Engine.Inspection.SystemLog;

/// <summary>
/// Collects the system-log entries of a test window on Linux: journalctl -k first, /dev/kmsg when
/// journald is absent. Windows events arrive as Get-WinEvent JSON from the module (WindowsEventParser).
/// </summary>
public static class SystemLogCheck
{
    /// <summary>Null when no source could be read (the report then says the check was not possible).</summary>
    [SupportedOSPlatform("linux")]
    public static List<SystemLogEvent>? CollectLinux(DateTime fromUtc, DateTime toUtc)
    {
        string? journal = RunJournalctl(fromUtc, toUtc);
        var fromJournal = journal == null ? null : KernelLogParser.ParseJournalJson(journal, fromUtc, toUtc);
        // journalctl exits 0 with nothing when journald does not collect kernel messages (containers),
        // so an empty answer is cross-checked against the kernel ring buffer itself.
        if (fromJournal is { Count: > 0 }) return fromJournal;
        string? kmsg = KmsgReader.ReadAll();
        if (kmsg == null) return fromJournal;
        return KernelLogParser.ParseKmsg(kmsg, BootTimeUtc(), fromUtc, toUtc);
    }

    /// <summary>
    /// Windows: System and Application errors and warnings of the window through Get-WinEvent (run by
    /// Windows PowerShell, which every Windows Server has), parsed by <see cref="WindowsEventParser"/>.
    /// Null when the logs could not be read. Compiled here, executed only on Windows.
    /// </summary>
    [SupportedOSPlatform("windows")]
    public static List<SystemLogEvent>? CollectWindows(DateTime fromUtc, DateTime toUtc)
    {
        string from = fromUtc.AddSeconds(-1).ToString("o", CultureInfo.InvariantCulture);
        string to = toUtc.AddSeconds(1).ToString("o", CultureInfo.InvariantCulture);
        string script =
            "$ErrorActionPreference='Stop';" +
            $"$f=@{{LogName=@('System','Application');Level=@(1,2,3);StartTime=[datetime]::Parse('{from}').ToLocalTime();EndTime=[datetime]::Parse('{to}').ToLocalTime()}};" +
            "try{$e=@(Get-WinEvent -FilterHashtable $f)}catch [System.Exception]{if($_.FullyQualifiedErrorId -like 'NoMatchingEventsFound*'){$e=@()}else{throw}};" +
            "ConvertTo-Json -InputObject @($e|Select-Object ProviderName,Id,Level,@{n='TimeCreated';e={$_.TimeCreated.ToUniversalTime().ToString('o')}},Message) -Depth 3";
        string? output = ToolOutput.Read("powershell.exe", new[] { "-NoProfile", "-NonInteractive", "-Command", script }, 60000);
        // The script always prints JSON ("[]" when the window has no events). Nothing at all means the
        // logs were not read: Wine's powershell.exe stub exits 0 without output, and EvtQuery fails there.
        if (string.IsNullOrWhiteSpace(output)) return null;
        try { return WindowsEventParser.Parse(output, fromUtc, toUtc); }
        catch (EngineException) { return null; }
    }

    private static string? RunJournalctl(DateTime fromUtc, DateTime toUtc)
    {
        static string Fmt(DateTime t) => "@" + new DateTimeOffset(DateTime.SpecifyKind(t, DateTimeKind.Utc)).ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
        return ToolOutput.Read("journalctl", new[] { "-k", "--no-pager", "-o", "json", "--since", Fmt(fromUtc.AddSeconds(-1)), "--until", Fmt(toUtc.AddSeconds(1)) }, 30000);
    }

    /// <summary>Now minus /proc/uptime: close enough to anchor kmsg's since-boot timestamps (suspend time aside).</summary>
    private static DateTime BootTimeUtc()
    {
        try
        {
            var first = File.ReadAllText("/proc/uptime").Split(' ')[0];
            if (double.TryParse(first, NumberStyles.Float, CultureInfo.InvariantCulture, out double up))
                return DateTime.UtcNow.AddSeconds(-up);
        }
        catch (IOException)
        {
        }
        return DateTime.UtcNow.AddTicks(-Stopwatch.GetTimestamp() * TimeSpan.TicksPerSecond / Stopwatch.Frequency);
    }
}

/// <summary>Reads every record in /dev/kmsg without blocking (O_NONBLOCK: read returns EAGAIN at the end).</summary>
[SupportedOSPlatform("linux")]
internal static unsafe partial class KmsgReader
{
    private const int ONonblock = 0x800;
    private const int EAgain = 11;
    private const int EPipe = 32;

    [LibraryImport("libc", EntryPoint = "read", SetLastError = true)]
    private static partial nint Read(int fd, byte* buf, nuint count);

    public static string? ReadAll()
    {
        int fd = Io.Linux.LibC.Open("/dev/kmsg", Io.Linux.LibC.O_RDONLY | ONonblock | Io.Linux.LibC.O_CLOEXEC, 0);
        if (fd < 0) return null;
        try
        {
            var sb = new StringBuilder();
            byte* buf = stackalloc byte[8192];
            while (true)
            {
                nint n = Read(fd, buf, 8192);
                if (n < 0)
                {
                    int err = Marshal.GetLastPInvokeError();
                    if (err == EPipe) continue; // records overwritten while reading; the next read resumes
                    if (err == EAgain) break;
                    return sb.Length == 0 ? null : sb.ToString();
                }
                if (n == 0) break;
                sb.Append(Encoding.UTF8.GetString(buf, (int)n));
                if (sb[^1] != '\n') sb.Append('\n');
            }
            return sb.ToString();
        }
        finally
        {
            Io.Linux.LibC.Close(fd);
        }
    }
}
