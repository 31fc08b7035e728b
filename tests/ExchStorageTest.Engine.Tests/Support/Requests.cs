using System.Text.Json;
using System.Text.Json.Nodes;

namespace ExchStorageTest.Engine.Tests;

/// <summary>Request JSON as the module sends it, for the host-process tests (a tiny two-database profile).</summary>
internal static class Requests
{
    public static JsonObject Run(string dbRoot, double seconds, string command = "run", string? testId = null, string? output = null)
    {
        var r = new JsonObject
        {
            ["protocol"] = 1,
            ["command"] = command,
            ["testType"] = "Performance",
            ["durationSeconds"] = seconds,
            ["sampleIntervalSeconds"] = 1,
            ["warmupSeconds"] = 0,
            ["threadCount"] = 2,
            ["profile"] = new JsonObject
            {
                ["name"] = "Tiny", ["mailboxCount"] = 20, ["iopsPerMailbox"] = 0.5, ["mailboxSizeMB"] = 2, ["databaseCount"] = 2,
                ["copiesPerDatabase"] = 1, ["databasePaths"] = new JsonArray(dbRoot), ["minimumDatabaseCacheMB"] = 4, ["maximumDatabaseCacheMB"] = 8,
            },
        };
        if (testId is not null) r["testId"] = testId;
        if (output is not null) r["outputPath"] = output;
        return r;
    }

    public static string Json(this JsonObject o) => o.ToJsonString(new JsonSerializerOptions { WriteIndented = false });
}
