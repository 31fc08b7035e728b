namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The line ends of the text report files (.txt, .esrp.txt): the OS's own. On Windows CRLF, as every Windows tool
/// writes (Jetstress included): Notepad before Windows Server 2019 shows a file of bare LFs as one long line. LF
/// elsewhere. The renderers build their text with '\n' and the file writers apply this; the report event's text
/// stays as rendered (PowerShell shows either).
/// </summary>
public static class TextFileLines
{
    public static string Native(string text) => OperatingSystem.IsWindows() ? text.ReplaceLineEndings("\r\n") : text;
}
