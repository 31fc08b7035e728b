using System.Text.Json;
using ExchStorageTest.Engine.Load.StreamMix;
using ExchStorageTest.Engine.Tests.Load;

namespace ExchStorageTest.Engine.Tests.Faults;

/// <summary>The files the tool names: never a file it did not create, unique across runs and hosts.</summary>
public class NamingTests : IDisposable
{
    private readonly TestFolder _dir = new("names");

    private static readonly string[] Extensions = { ".json", ".txt", ".html", ".xml", ".timeseries.csv", ".perfmon.csv", ".esrp.txt" };

    [Fact]
    public void A_users_files_at_the_results_and_report_names_are_never_replaced()
    {
        string db = _dir.Sub("Db");
        string output = _dir.Sub("Out");
        // The user's files at every name the next seconds' run could take (type and local time, as Jetstress names them).
        var users = new List<string>();
        var now = DateTime.Now;
        for (int s = 0; s < 90; s++)
        {
            var t = now.AddSeconds(s);
            foreach (var ext in Extensions)
            {
                string path = Path.Combine(output, $"Performance_{t.Year}_{t.Month}_{t.Day}_{t.Hour}_{t.Minute}_{t.Second}{ext}");
                File.WriteAllText(path, "the user's " + ext);
                users.Add(path);
            }
        }
        var (exit, events) = Cli.ProcessProtocolTests.RunEngine(Requests.Run(db, 2, testId: "T1", output: output).Json());

        Assert.Equal(0, exit);
        foreach (var u in users) Assert.Equal("the user's " + Path.GetFileName(u)[Path.GetFileName(u).IndexOf('.', StringComparison.Ordinal)..], File.ReadAllText(u));
        var result = events.Single(e => e.GetProperty("type").GetString() == "result");
        string saved = result.GetProperty("resultsPath").GetString()!;
        Assert.Matches(@"^Performance(_\d+){6}_2\.json$", Path.GetFileName(saved));
        Assert.Contains("exchstoragetest/results", File.ReadAllText(saved), StringComparison.Ordinal);
        Assert.Equal(6, result.GetProperty("reportPaths").GetArrayLength());
        foreach (var report in result.GetProperty("reportPaths").EnumerateArray())
            Assert.DoesNotContain(report.GetString()!, users);
        Assert.Empty(Directory.GetFiles(output, "*.partial"));
    }

    [Fact] // two hosts writing to one share in the same second
    public void Two_runs_with_one_test_id_starting_together_on_one_share_keep_both_results()
    {
        string share = _dir.Sub("Share");
        using var a = new EngineProcess(Requests.Run(_dir.Sub("HostA"), 2, testId: "Run1", output: share).Json());
        using var b = new EngineProcess(Requests.Run(_dir.Sub("HostB"), 2, testId: "Run1", output: share).Json());
        Assert.Equal(0, a.WaitForExit());
        Assert.Equal(0, b.WaitForExit());

        string pa = a.OfType("result").Single().GetProperty("resultsPath").GetString()!;
        string pb = b.OfType("result").Single().GetProperty("resultsPath").GetString()!;
        Assert.NotEqual(pa, pb);
        Assert.Contains("HostA", File.ReadAllText(pa), StringComparison.Ordinal);
        Assert.Contains("HostB", File.ReadAllText(pb), StringComparison.Ordinal);
    }

    [Fact]
    public void Streams_never_consume_a_users_file_named_like_their_temporary_file()
    {
        string path = _dir.Combine("s.dat");
        string users = path + ".creating";
        File.WriteAllText(users, "the user's own .creating file");
        var spec = new StreamSpec { Name = "s", Preset = "Random32K", QueueDepth = 1, Path = path, FileSizeBytes = 4 << 20 };
        var r = StreamMixTests.Run(new[] { spec }, 1, _dir.Combine("out"));

        Assert.Equal("Complete", r.Completion);
        Assert.Equal("the user's own .creating file", File.ReadAllText(users));
        Assert.Equal(4 << 20, new FileInfo(path).Length);
        Assert.Equal(new[] { users }, Directory.GetFiles(_dir.Path, "*.creating"));
    }

    [Fact] // a taken name is expected, so it is answered without an exception
    public void A_taken_name_moves_on_to_the_next_free_one_without_throwing()
    {
        string folder = _dir.Sub("Claims");
        File.WriteAllText(Path.Combine(folder, "r.html"), "the user's");
        Directory.CreateDirectory(Path.Combine(folder, "r_2.html"));
        int thread = Environment.CurrentManagedThreadId, thrown = 0;
        void Count(object? sender, System.Runtime.ExceptionServices.FirstChanceExceptionEventArgs e)
        {
            if (Environment.CurrentManagedThreadId == thread) Interlocked.Increment(ref thrown);
        }
        AppDomain.CurrentDomain.FirstChanceException += Count;
        string claimed;
        try
        {
            claimed = Results.OutputFile.CreateUnique(folder, "r", ".html");
        }
        finally
        {
            AppDomain.CurrentDomain.FirstChanceException -= Count;
        }

        Assert.Equal(Path.Combine(folder, "r_3.html"), claimed);
        Assert.Equal(0, new FileInfo(claimed).Length);
        Assert.Equal("the user's", File.ReadAllText(Path.Combine(folder, "r.html")));
        Assert.Equal(0, thrown);
    }

    [Fact]
    public void A_claim_that_fails_for_another_reason_than_a_taken_name_says_why()
    {
        var ex = Assert.Throws<IOException>(() => Results.OutputFile.TryClaim(_dir.Combine("no-such-folder", "r.html")));
        Assert.Contains("no-such-folder", ex.Message, StringComparison.Ordinal);
    }

    public void Dispose() => _dir.Dispose();
}
