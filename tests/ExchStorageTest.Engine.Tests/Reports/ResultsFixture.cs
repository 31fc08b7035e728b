using System.Text.Json.Nodes;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>
/// Results files written by real runs of the engine, kept under Reports/Fixtures:
/// <list type="bullet">
/// <item><c>demo-closed-loop</c>: <c>./build.sh Demo</c> on a virtio disk (2 sessions over 2 databases, 1 copy,
/// no headroom, the volume's vendor a PCI id, sub-millisecond disk counters).</item>
/// <item><c>tuned-two-copies</c>: an auto-tuned Performance run (transient and stable tuning steps), 2 copies,
/// 0.1 IOPS per mailbox with 20% headroom and no description.</item>
/// </list>
/// An edit, when given, changes the JSON before it is saved to a scratch file and loaded through
/// <see cref="ResultsFile.Load"/>, so each test reads a results file exactly as a user's report would.
/// </summary>
internal static class ResultsFixture
{
    public const string Demo = "demo-closed-loop";
    public const string Tuned = "tuned-two-copies";

    public static TestResults Load(string name, Action<JsonObject>? edit = null)
    {
        string source = Path.Combine(AppContext.BaseDirectory, "Reports", "Fixtures", name + ".results.json");
        var json = JsonNode.Parse(File.ReadAllText(source))!.AsObject();
        edit?.Invoke(json);
        string dir = Path.Combine(Path.GetTempPath(), "est-results-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(dir);
        try
        {
            string path = Path.Combine(dir, name + ".json");
            File.WriteAllText(path, json.ToJsonString());
            return ResultsFile.Load(path);
        }
        finally
        {
            Directory.Delete(dir, recursive: true);
        }
    }
}
