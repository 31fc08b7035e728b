using ExchStorageTest.Errors;
using ExchStorageTest.Json;
using ExchStorageTest.Profiles;
using ExchStorageTest.Suite;

namespace ExchStorageTest.Tests.Suite;

/// <summary>The ESRP suite's state file (suite.json): what a resume reads, and what it refuses.</summary>
public sealed class SuiteStateTests : IDisposable
{
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "exst-suite-" + Guid.NewGuid().ToString("N")[..8]);

    public SuiteStateTests() => Directory.CreateDirectory(_folder);

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static JsonObject Profile(int mailboxes = 20) =>
        new MailboxProfile { Name = "esrp", MailboxCount = mailboxes, IopsPerMailbox = 0.5, MailboxSizeMB = 10, DatabasePaths = new[] { "/db" } }.ToJson();

    [Fact]
    public void A_new_suite_runs_the_four_ESRP_tests_in_order_and_a_saved_one_reads_back_with_relative_results()
    {
        SuiteState state = SuiteState.New(_folder, Profile());
        Assert.Equal(new[] { "Performance", "Stress", "DatabaseBackup", "SoftRecovery" }, state.Tests.Select(t => t.TestType));
        Assert.Equal(new[] { "1-Performance", "2-Stress", "3-DatabaseBackup", "4-SoftRecovery" }, state.Tests.Select(t => t.Folder));
        Assert.Same(state.Tests[0], state.Next);

        state.Tests[0].State = SuiteTest.Complete;
        state.Tests[0].Result = Verdicts.Fail;
        state.Tests[0].ResultsPath = Path.Combine(_folder, "1-Performance", "Performance_1.json");
        state.Tests[1].State = SuiteTest.Running;
        state.Save();

        Assert.Contains("\"resultsPath\": \"1-Performance/Performance_1.json\"", File.ReadAllText(state.Path));
        SuiteState read = SuiteState.Read(_folder)!;
        Assert.Equal(state.SuiteId, read.SuiteId);
        Assert.Equal(state.Tests[0].ResultsPath, read.Tests[0].ResultsPath);
        // A failing verdict completed its test; a test that was running when the session went away runs again.
        Assert.Equal("Stress", read.Next!.TestType);
        read.CheckProfile(Profile());
    }

    [Fact]
    public void A_resume_with_another_profile_and_a_file_that_is_not_ours_are_refused_and_left_untouched()
    {
        SuiteState.New(_folder, Profile()).Save();
        var mismatch = Assert.Throws<StorageTestException>(() => SuiteState.Read(_folder)!.CheckProfile(Profile(40)));
        Assert.Equal("ExchStorageTest.SuiteProfileMismatch", mismatch.ErrorRecord.FullyQualifiedErrorId);

        string path = Path.Combine(_folder, SuiteState.FileName);
        File.WriteAllText(path, "{\"schema\": \"someone-else\"}");
        var notOurs = Assert.Throws<StorageTestException>(() => SuiteState.Read(_folder));
        Assert.Equal("ExchStorageTest.SuiteStateInvalid", notOurs.ErrorRecord.FullyQualifiedErrorId);
        Assert.Equal("{\"schema\": \"someone-else\"}", File.ReadAllText(path));
        Assert.Null(SuiteState.Read(Path.Combine(_folder, "none")));
    }

    [Fact]
    public void A_replace_Windows_refuses_for_another_process_s_open_file_is_tried_again_and_nothing_else_is()
    {
        const int sharing = unchecked((int)0x80070020), lockViolation = unchecked((int)0x80070021), notRemoved = unchecked((int)0x80070497);
        int calls = 0;
        // Refused twice (a reader, then a lock), then done.
        SuiteState.RetryingSharingViolations(() =>
        {
            if (++calls == 1) throw new IOException("used by another process", sharing);
            if (calls == 2) throw new IOException("locked", lockViolation);
        }, tries: 5, TimeSpan.Zero);
        Assert.Equal(3, calls);

        // Refused every time: the last refusal goes to the caller after the tries.
        calls = 0;
        var last = Assert.Throws<IOException>(() => SuiteState.RetryingSharingViolations(() => { calls++; throw new IOException("cannot remove", notRemoved); }, tries: 4, TimeSpan.Zero));
        Assert.Equal(4, calls);
        Assert.Equal(notRemoved, last.HResult);

        // Any other failure (here: a full disk) is not tried again, nor an errno that happens to read 32 on Linux (EPIPE).
        foreach (int other in new[] { unchecked((int)0x80070070), 32 })
        {
            calls = 0;
            Assert.Throws<IOException>(() => SuiteState.RetryingSharingViolations(() => { calls++; throw new IOException("other", other); }, tries: 4, TimeSpan.Zero));
            Assert.Equal(1, calls);
        }
        calls = 0;
        Assert.Throws<UnauthorizedAccessException>(() => SuiteState.RetryingSharingViolations(() => { calls++; throw new UnauthorizedAccessException(); }, tries: 4, TimeSpan.Zero));
        Assert.Equal(1, calls);
    }
}
