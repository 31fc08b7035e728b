using System.Text.Json;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>The report event's <c>esrp</c> object (docs/protocol.md): the summary tables and, per test, the runs they come from.</summary>
internal static class EsrpEvent
{
    public static void Write(Utf8JsonWriter w, EsrpSuite suite, EsrpSummary esrp, bool submission)
    {
        w.WriteStartObject();
        w.WriteBoolean("submission", submission);
        foreach (var (name, value) in new (string, object?)[]
        {
            ("servers", esrp.Servers), ("aggregate", esrp.Aggregate), ("backup", esrp.Backup), ("softRecovery", esrp.SoftRecovery),
            ("deployment", esrp.Deployment), ("reliability", esrp.Reliability),
        })
        {
            if (value is null) continue;
            w.WritePropertyName(name);
            JsonSerializer.Serialize(w, value, value.GetType(), ResultsFile.Options);
        }
        w.WriteStartArray("tests");
        foreach (var test in suite.Tests)
        {
            w.WriteStartObject();
            w.WriteString("testType", test.TestType.ToString());
            w.WriteString("result", test.Result);
            w.WriteBoolean("complete", test.Complete);
            w.WriteStartArray("hosts");
            foreach (var r in test.Hosts)
            {
                w.WriteStartObject();
                w.WriteString("host", suite.HostName(r));
                w.WriteString("testId", r.TestId);
                w.WriteString("result", r.Verdict.Result);
                w.WriteString("completion", r.Completion);
                w.WriteString("resultsPath", r.SavedPath);
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteStartArray("missing");
        foreach (var t in suite.Missing) w.WriteStringValue(t.ToString());
        w.WriteEndArray();
        w.WriteStartArray("gaps");
        foreach (var line in EsrpDocument.Gaps(suite)) w.WriteStringValue(line);
        w.WriteEndArray();
        w.WriteStartArray("databaseSets");
        foreach (var set in suite.DatabaseSets())
        {
            w.WriteStartObject();
            w.WriteString("host", set.Host);
            w.WriteBoolean("same", set.Same);
            w.WriteString("detail", set.Detail);
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteStartArray("superseded");
        foreach (var r in suite.Superseded) w.WriteStringValue(r.SavedPath);
        w.WriteEndArray();
        w.WriteEndObject();
    }
}
