using ExchStorageTest.Engine.Tests.Support;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>The vendor's ESRP metadata file: the rows no host can discover, checked by label.</summary>
public class EsrpMetadataTests : IDisposable
{
    private readonly TestFolder _dir = new("meta");

    private string Write(string json)
    {
        string path = _dir.Combine($"m{Guid.NewGuid():N}.json");
        File.WriteAllText(path, json);
        return path;
    }

    private static EsrpSummary Summary(EsrpMetadata? m = null) =>
        EsrpSummary.From(EsrpSuite.From(new[] { ReportFixtures.Js13(), ReportFixtures.Js14() }), m?.Values);

    [Fact]
    public void Supplied_rows_replace_to_be_supplied_and_say_they_were_supplied()
    {
        var m = EsrpMetadata.Load(Write("""
            { "schema": "exchstoragetest/esrp-metadata", "schemaVersion": 1, "title": "Contoso X9",
              "values": { "Storage cache": "16 GB", "RAID level": "RAID 10", "Host OS": "Windows Server 2019 Datacenter" } }
            """));
        m.CheckLabels(Summary().Deployment);
        Assert.Equal("Contoso X9", m.Title);
        var items = Summary(m).Deployment.SelectMany(t => t.Items).ToDictionary(i => i.Label);
        Assert.Equal(new EsrpItem("Storage cache", "16 GB", true, true), items["Storage cache"]);
        Assert.Equal(new EsrpItem("RAID level", "RAID 10", true, true), items["RAID level"]);
        // A value the hosts know can be restated by the vendor; it is then marked as supplied, not discovered.
        Assert.True(items["Host OS"].Supplied);
        Assert.Equal(new EsrpItem("Switch type/model/firmware revision", EsrpSummary.ToSupply, false), items["Switch type/model/firmware revision"]);
        Assert.False(items["Number of servers tested"].Supplied);
    }

    [Fact]
    public void A_label_no_table_has_is_refused_by_name_with_the_nearest_one()
    {
        var m = EsrpMetadata.Load(Write("""{ "schema": "exchstoragetest/esrp-metadata", "values": { "Storage Cache ": "16 GB" } }"""));
        var ex = Assert.Throws<EngineException>(() => m.CheckLabels(Summary().Deployment));
        Assert.Equal("MetadataUnknownLabel", ex.Code);
        Assert.Equal(ErrorCategories.InvalidArgument, ex.Category);
        Assert.Equal("Storage Cache ", ex.Target);
        Assert.Contains("did you mean \"Storage cache\"?", ex.Message);
    }

    [Theory]
    [InlineData("not json", "not valid JSON")]
    [InlineData("""{ "values": {} }""", "schema")]
    [InlineData("""{ "schema": "exchstoragetest/esrp-metadata", "values": { "RAID level": 10 } }""", "\"RAID level\" is not a non-empty string")]
    [InlineData("""{ "schema": "exchstoragetest/esrp-metadata", "vaules": {} }""", "the field \"vaules\"")]
    [InlineData("""{ "schema": "exchstoragetest/esrp-metadata", "schemaVersion": 9 }""", "schemaVersion is 9")]
    public void A_file_that_is_not_metadata_is_MetadataMalformed(string json, string why)
    {
        string path = Write(json);
        var ex = Assert.Throws<EngineException>(() => EsrpMetadata.Load(path));
        Assert.Equal("MetadataMalformed", ex.Code);
        Assert.Equal(path, ex.Target);
        Assert.Contains(why, ex.Message);
    }

    [Fact]
    public void A_missing_file_is_MetadataNotFound()
    {
        var ex = Assert.Throws<EngineException>(() => EsrpMetadata.Load(_dir.Combine("none.json")));
        Assert.Equal("MetadataNotFound", ex.Code);
        Assert.Equal(ErrorCategories.ObjectNotFound, ex.Category);
    }

    /// <summary>
    /// docs/esrp-metadata.example.json is a file the engine reads, with every row a host that knows its
    /// volumes still cannot discover, and none it can (a supplied value would hide the discovered one).
    /// </summary>
    [Fact]
    public void The_documented_example_names_exactly_the_rows_no_host_can_discover()
    {
        var m = EsrpMetadata.Load(RepoFiles.Path("docs/esrp-metadata.example.json"));
        var host = ReportFixtures.Small();
        host.Environment.Volumes.Add(new Engine.Results.VolumeReport { Path = "/mnt/log", MountPoint = "/mnt/log", FileSystem = "xfs", TotalBytes = 100L << 30 });
        var suite = EsrpSuite.From(new[] { host });
        var discovered = EsrpSummary.From(suite).Deployment.SelectMany(t => t.Items).ToList();
        m.CheckLabels(EsrpSummary.From(suite).Deployment);
        var left = EsrpSummary.From(suite, m.Values).Deployment.SelectMany(t => t.Items).Where(i => !i.Known).Select(i => i.Label).ToList();
        Assert.True(left.Count == 0, "Rows the example leaves to be supplied: " + string.Join(" | ", left));
        var hidden = discovered.Where(i => i.Known && m.Values.ContainsKey(i.Label)).Select(i => i.Label).ToList();
        Assert.True(hidden.Count == 0, "Rows the example would hide although hosts discover them: " + string.Join(" | ", hidden));
    }

    /// <summary>The submitter's guide lists every row label a metadata file may key (the headroom row with its N).</summary>
    [Fact]
    public void The_guide_lists_every_row_label()
    {
        string guide = System.Text.RegularExpressions.Regex.Replace(File.ReadAllText(RepoFiles.Path("docs/esrp.md")), @"\s+", " ");
        var labels = Summary().Deployment.SelectMany(t => t.Items.Select(i => i.Label).Prepend(t.Title))
            .Select(l => l.Replace("include 20% headroom", "include N% headroom", StringComparison.Ordinal));
        var missing = labels.Where(l => !guide.Contains(l, StringComparison.Ordinal)).ToList();
        Assert.True(missing.Count == 0, "Not in docs/esrp.md: " + string.Join(" | ", missing));
    }

    public void Dispose() => _dir.Dispose();
}
