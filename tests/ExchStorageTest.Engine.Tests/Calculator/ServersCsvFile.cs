namespace ExchStorageTest.Engine.Tests.Calculator;

/// <summary>
/// A Servers.csv in the shape the Exchange Server Role Requirements Calculator exports for its deployment scripts —
/// byte for byte the example ExchangeDsc ships (dsccommunity/ExchangeDsc, Examples/.../Servers.csv; SOURCES.md in
/// shared/research/realclients): the column header, the calculator's version line, then one line a server naming its
/// 40 databases. Written here so no test needs that file; a RealClients fact proves the two are the same text.
/// </summary>
internal static class ServersCsvFile
{
    public static readonly string[] Servers = { "srv-nn-01", "srv-nn-02", "srv-nn-03", "srv-nn-04" };

    public static string Text
    {
        get
        {
            var databases = string.Join(",", Enumerable.Range(1, 40).Select(i => $"DAG-nn-DB{i:00}"));
            var lines = new List<string>
            {
                "ServerName, StartDrive, DbPerVolume, AutoReseedVolumes, DbLogIsolation, VolumesRootFolder, DatabasesRootFolder, DbMap",
                "VersionNumber,2.1,7.6,,,,, ",
            };
            foreach (var server in Servers) lines.Add($"{server},5,4,1,0,\"C:\\ExchangeVolumes\",\"C:\\ExchangeDatabases\",\"{databases}\"");
            return string.Join("\n", lines) + "\n";
        }
    }

    /// <summary>Writes <see cref="Text"/> to <paramref name="path"/> and returns the path.</summary>
    public static string Save(string path)
    {
        File.WriteAllText(path, Text);
        return path;
    }
}
