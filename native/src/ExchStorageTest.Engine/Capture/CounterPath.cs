namespace ExchStorageTest.Engine.Capture;

/// <summary>
/// One column of a PerfMon log: <c>\\SERVER\Object(Instance)\Counter</c> or <c>\\SERVER\Object\Counter</c>, as PDH
/// names a counter with its machine (the "Counter Path" syntax of the Performance Data Helper). The counter is the
/// text after the last backslash; the instance is inside the parentheses closing the object part, opened by its first
/// '(' (the Exchange object names hold none: "MSExchange Database ==> Instances", "MSExchangeIS Store"). Names compare
/// without case, as PDH's do.
/// </summary>
public sealed record CounterPath(string Server, string Object, string? Instance, string Counter)
{
    public static CounterPath? Parse(string text)
    {
        if (!text.StartsWith(@"\\", StringComparison.Ordinal)) return null;
        int serverEnd = text.IndexOf('\\', 2);
        int counterStart = text.LastIndexOf('\\');
        if (serverEnd <= 2 || counterStart <= serverEnd + 1 || counterStart == text.Length - 1) return null;
        string server = text.Substring(2, serverEnd - 2);
        string objectPart = text.Substring(serverEnd + 1, counterStart - serverEnd - 1);
        string counter = text.Substring(counterStart + 1);
        string? instance = null;
        int open = objectPart.IndexOf('(');
        if (open > 0 && objectPart.EndsWith(')'))
        {
            instance = objectPart.Substring(open + 1, objectPart.Length - open - 2);
            objectPart = objectPart.Substring(0, open);
        }
        return new CounterPath(server, objectPart, instance, counter);
    }

    public bool Is(string objectName, string counterName) =>
        string.Equals(Object, objectName, StringComparison.OrdinalIgnoreCase) && string.Equals(Counter, counterName, StringComparison.OrdinalIgnoreCase);

    public override string ToString() => Instance is null ? $@"\\{Server}\{Object}\{Counter}" : $@"\\{Server}\{Object}({Instance})\{Counter}";
}
