using System.Xml;

namespace ExchStorageTest.Engine.Tests.Jetstress;

/// <summary>
/// Configurations shaped like the real ones automation hands JetstressCmd and New-MailboxProfile -JetstressConfig,
/// rebuilt here (their files stay in their repositories; shared/research/realclients/SOURCES.md names each, and
/// <see cref="RealClientsFactAttribute"/> reads the saved copies where they are). Each keeps what its source's outcome
/// depends on: its values, its element set, its header and namespaces.
/// </summary>
internal static class JetstressSamples
{
    /// <summary>
    /// jacobklitzke/Jetstress-Test-Automation @ 0980883, JetstressConfig.xml (Jetstress 15.0.995.0, blanked into a
    /// template): Type "asfdsa", a Description holding a newline, empty ThreadCount, MailboxCount, MailboxQuota and
    /// MailboxIops, no EseInstances. Its script fills those in before it runs JetstressCmd.
    /// </summary>
    public static string BlankTemplate(string folder) => Write(folder, "JetstressConfig.xml", draft => { }, doc =>
    {
        Set(doc, "JetstressVersionGenerated", "15.0.995.0");
        Set(doc, "EseVersionGenerated", "15.0.847.30");
        Set(doc, "Type", "asfdsa");
        Set(doc, "Description", "asdfasdf\n");
        foreach (var element in new[] { "ThreadCount", "MailboxCount", "MailboxQuota", "MailboxIops" }) Set(doc, element, "");
        Remove(doc, "EseInstances");
    });

    /// <summary>
    /// TheOtherOtherOperation/JetTest @ ad5836c, JetstressConfig-HM.xml (Jetstress 15.0.995.0): Performance, 15 minutes,
    /// 300 mailboxes of 100 MB at 1 IOPS, ThreadCount 4 with SuppressTuning false, DatabaseSource Open, 3 copies, four
    /// instances E:\dbN\db with logs E:\dbN\log. JetTest runs it as "&lt;name&gt;.jetstressconfig".
    /// </summary>
    public static string JetTestHm(string folder, string name = "JetstressConfig-HM.xml") => Write(folder, name, d =>
    {
        d.DurationSeconds = 15 * 60;
        d.MailboxCount = 300; d.MailboxQuota = 100; d.MailboxIops = 1; d.DatabaseCopyCount = 3;
        d.DatabaseSource = "Open";
        for (int n = 1; n <= 4; n++) d.Instances.Add(new JetstressInstance($@"E:\db{n}\db", $@"E:\db{n}\log"));
    }, doc =>
    {
        Set(doc, "JetstressVersionGenerated", "15.0.995.0");
        Set(doc, "ThreadCount", "4");
        Set(doc, "SuppressTuning", "false");
    });

    /// <summary>
    /// austinmccollum/PS-solutions @ ef323e0, "Exchange onprem and online/Jetstress Automation/JetstressConfig.xml"
    /// (Jetstress 15.20.2387.0): Performance, 15 minutes, SuppressTuning true with ThreadCount 2, DatabaseSizing Capacity,
    /// 3000 mailboxes of 200 MB at 1 IOPS, 2 copies, and 32 instances over 4 paths, F:\ExchangeDBs\DAG1-DBn\DAG1-DBn.db
    /// and .log (n = 1..4, each 8 times). Its generator rewrites the paths by position.
    /// </summary>
    public static string Austin(string folder, Func<int, (string Db, string Log)>? paths = null) => Write(folder, "JetstressConfig.xml", d =>
    {
        d.DurationSeconds = 15 * 60;
        d.ThreadCount = 2;
        d.DatabaseSizing = "Capacity";
        d.MailboxCount = 3000; d.MailboxQuota = 200; d.MailboxIops = 1; d.DatabaseCopyCount = 2;
        for (int i = 0; i < 32; i++)
        {
            int n = i / 8 + 1;
            var (db, log) = paths?.Invoke(n) ?? ($@"F:\ExchangeDBs\DAG1-DB{n}\DAG1-DB{n}.db", $@"F:\ExchangeDBs\DAG1-DB{n}\DAG1-DB{n}.log");
            d.Instances.Add(new JetstressInstance(db, log));
        }
    }, doc =>
    {
        Set(doc, "JetstressVersionGenerated", "15.20.2387.0");
        Set(doc, "EseVersionGenerated", "15.2.529.5");
    });

    /// <summary>
    /// What DeepStorage's JetEdit (TheOtherOtherOperation/JetTest @ ad5836c, JetEdit/JetEdit.py) writes back through
    /// ElementTree: a us-ascii declaration, no xsd/xsi namespace declarations, Duration "P0Y0M{d}DT{h}H{m}M{s}S" with the
    /// fields not normalised.
    /// </summary>
    public static string JetEdit(string folder, string duration, string name = "host1.jetstressconfig")
    {
        string path = JetTestHm(folder, name);
        var doc = new XmlDocument();
        doc.Load(path);
        Set(doc, "Duration", duration);
        doc.DocumentElement!.RemoveAllAttributes();
        string body = doc.DocumentElement.OuterXml;
        File.WriteAllText(path, "<?xml version='1.0' encoding='us-ascii'?>\n" + body, System.Text.Encoding.ASCII);
        return path;
    }

    /// <summary>
    /// dsccommunity/ExchangeDsc @ 7207293, the calculator's Servers.csv (the input of austinmccollum's generator, not a
    /// configuration): its first lines.
    /// </summary>
    public static string ServersCsv(string folder)
    {
        string path = Path.Combine(folder, "Servers.csv");
        File.WriteAllText(path, "VersionNumber,2.1,7.6\nServerName,StartDrive,DbPerVolume,AutoReseedVolumes,DbLogIsolation,VolumesRootFolder,DatabasesRootFolder,DbMap\n" +
            "SRV-nn-01,1,4,1,0,C:\\ExchangeVolumes,C:\\ExchangeDatabases,\"DB01,DB02,DB03,DB04\"\n");
        return path;
    }

    private static string Write(string folder, string name, Action<JetstressConfigDraft> draft, Action<XmlDocument> edit)
    {
        var d = new JetstressConfigDraft { Generator = "15.0.995.0", MailboxCount = 1, MailboxQuota = 1, MailboxIops = 1 };
        draft(d);
        var doc = new XmlDocument { PreserveWhitespace = true };
        doc.LoadXml(JetstressConfigWriter.Render(d));
        edit(doc);
        string path = Path.Combine(folder, name);
        doc.Save(path);
        return path;
    }

    private static void Set(XmlDocument doc, string element, string value) => doc.GetElementsByTagName(element)[0]!.InnerText = value;

    private static void Remove(XmlDocument doc, string element)
    {
        var node = doc.GetElementsByTagName(element)[0]!;
        node.ParentNode!.RemoveChild(node);
    }
}

/// <summary>
/// A fact over the saved copies of the real files (shared/research/realclients, SOURCES.md: repository, path, commit
/// and blob of each), which stay out of this repository: it runs where EXCHSTORAGETEST_REALCLIENTS names that folder,
/// or where shared/research/realclients lies beside the repository, and is skipped with that reason elsewhere.
/// </summary>
public sealed class RealClientsFactAttribute : FactAttribute
{
    public const string Variable = "EXCHSTORAGETEST_REALCLIENTS";

    public static string? Folder
    {
        get
        {
            if (Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } named) return Directory.Exists(named) ? named : null;
            for (var d = new DirectoryInfo(AppContext.BaseDirectory); d is not null; d = d.Parent)
                if (File.Exists(Path.Combine(d.FullName, "ExchStorageTest.psd1")))
                {
                    string beside = Path.Combine(d.FullName, "..", "shared", "research", "realclients");
                    return Directory.Exists(beside) ? Path.GetFullPath(beside) : null;
                }
            return null;
        }
    }

    public RealClientsFactAttribute()
    {
        if (Folder is null) Skip = $"Needs: the saved real files (shared/research/realclients beside the repository, or {Variable} naming their folder).";
    }
}
