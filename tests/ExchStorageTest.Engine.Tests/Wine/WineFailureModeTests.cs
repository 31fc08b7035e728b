using System.Text.Json;
using System.Text.Json.Nodes;
using ExchStorageTest.Engine.Tests.Io;
using Xunit.Abstractions;

namespace ExchStorageTest.Engine.Tests.Wine;

/// <summary>A fact that runs the win-x64 engine under Wine against an nbdkit disk (root, FUSE, loop devices).</summary>
public sealed class WineNbdkitFactAttribute : FactAttribute
{
    public WineNbdkitFactAttribute() { Skip = WinePrerequisites.Missing ?? Prerequisites.NoNbdFuse ?? Prerequisites.NotRootWithLoop; }
}

/// <summary>
/// A declared fault window on the Windows I/O path (IOCP, under Wine) through the same freezing disk as the Linux rig:
/// the fault script is a batch file, which starts the freeze on the Linux side (Wine's start /unix), and the stall watch
/// sees it on the completion ports as on io_uring.
/// </summary>
[Collection(WineCollection.Name)]
public sealed class WineFailureModeTests : IDisposable
{
    private readonly WineSession _wine;
    private readonly ITestOutputHelper _out;
    private readonly TestFolder _dir = new("winefm");

    public WineFailureModeTests(WineSession wine, ITestOutputHelper output)
    {
        _wine = wine;
        _out = output;
        Assert.True(wine.Started, wine.StartFailure);
    }

    [WineNbdkitFact]
    public void A_freeze_in_the_declared_window_is_one_stall_on_the_IOCP_path()
    {
        using var disk = new PausingDisk(_dir);
        string db = disk.FileSystem.Combine("Db");
        Directory.CreateDirectory(db);
        string freeze = disk.FreezeScript(_dir, 5, uncacheFolder: db);
        string batch = _dir.Combine("freeze.cmd");
        File.WriteAllText(batch, $"@echo off\r\necho failing over\r\nstart /unix /bin/sh {freeze}\r\n");
        // Paced, as the Linux rig: a closed loop's baseline here is Wine's page cache, which the freeze empties, so the
        // load after it could never be back to it. The paced rate is what the storage must carry again.
        var request = new JsonObject
        {
            ["protocol"] = 1, ["command"] = "run", ["testType"] = "Performance", ["durationSeconds"] = 35,
            ["sampleIntervalSeconds"] = 5, ["warmupSeconds"] = 0, ["targetRateIops"] = 60, ["outputPath"] = WineSession.WinPath(_dir.Combine("Results")),
            ["faultAtSeconds"] = 15, ["faultLengthSeconds"] = 15, ["faultScript"] = WineSession.WinPath(batch),
            ["profile"] = new JsonObject
            {
                ["name"] = "Tiny", ["mailboxCount"] = 20, ["iopsPerMailbox"] = 0.5, ["mailboxSizeMB"] = 1, ["databaseCount"] = 1, ["copiesPerDatabase"] = 1,
                ["databasePaths"] = new JsonArray(WineSession.WinPath(db)), ["minimumDatabaseCacheMB"] = 2, ["maximumDatabaseCacheMB"] = 4,
            },
        };

        var run = _wine.Run(request.ToJsonString(), _dir.Path, TimeSpan.FromMinutes(4));
        foreach (var e in run.OfType("log")) _out.WriteLine($"  [{e.GetProperty("level").GetString()}] {e.GetProperty("message").GetString()}");
        Assert.False(run.TimedOut, run.StdErr);
        Assert.Equal(0, run.Exit);
        var result = run.Single("result");
        Assert.Equal("iocp", result.GetProperty("ioBackend").GetString());
        using var doc = JsonDocument.Parse(File.ReadAllText(WineSession.LinuxPath(result.GetProperty("resultsPath").GetString()!)));
        var fm = doc.RootElement.GetProperty("failureMode");
        Assert.Equal(0, fm.GetProperty("script").GetProperty("exitCode").GetInt32());
        Assert.Contains("failing over", fm.GetProperty("script").GetProperty("output").GetString(), StringComparison.Ordinal);
        var stalls = fm.GetProperty("stalls").EnumerateArray().ToList();
        foreach (var s in stalls) _out.WriteLine($"stall {s.GetProperty("volume").GetString()} at {s.GetProperty("startSeconds").GetDouble()} s for {s.GetProperty("lengthSeconds").GetDouble()} s");
        // Wine serves I/O from the page cache: the engine stalls only once a read of a page dropped from it meets the frozen
        // disk (one to two seconds in here), so the stall is shorter than the freeze, never longer, and how much shorter varies.
        var inWindow = stalls.Where(s => s.GetProperty("inFaultWindow").GetBoolean()).ToList();
        Assert.NotEmpty(inWindow);
        Assert.InRange(inWindow.Max(s => s.GetProperty("lengthSeconds").GetDouble()), 1.5, 5.6);
        // Judged: tolerated, or not back to a baseline that Wine's page cache served (the freeze dropped the pages, so reads
        // after it go to the disk and may stay slower than before on a loaded machine) — never for errors or the stall.
        var fault = fm.GetProperty("fault");
        Assert.Equal(inWindow.Max(s => s.GetProperty("lengthSeconds").GetDouble()), fault.GetProperty("longestStallSeconds").GetDouble());
        if (fault.GetProperty("result").GetString() != "Tolerated")
            Assert.All(fault.GetProperty("reasons").EnumerateArray(), x => Assert.Equal("FaultNotRecovered", x.GetProperty("code").GetString()));
    }

    public void Dispose() => _dir.Dispose();
}
