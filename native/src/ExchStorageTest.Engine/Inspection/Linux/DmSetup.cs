using ExchStorageTest.Engine.Inspection.Multipath;

namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>Runs `dmsetup table NAME` where dmsetup exists; the policy is optional detail, so failures give null.</summary>
public static class DmSetup
{
    public static DmMultipathTable? TryTable(string mapName)
    {
        string? output = ToolOutput.Read("dmsetup", new[] { "table", mapName }, 5000);
        if (output == null) return null;
        var line = output.Split('\n').FirstOrDefault(l => l.Contains(" multipath ", StringComparison.Ordinal));
        try { return line == null ? null : DmMultipathTable.Parse(line); }
        catch (Protocol.EngineException) { return null; }
    }
}
