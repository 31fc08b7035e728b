using System.Text.Json;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Load.Sources;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Tests.Cli;
using Microsoft.Win32.SafeHandles;

namespace ExchStorageTest.Engine.Tests.Io;

/// <summary>
/// io_uring's registered buffers and files: the data is right on the registered path and on the
/// plain one beside it, a refusal falls back and says why, and the results carry what each run used.
/// </summary>
public class RegisteredIoTests : IDisposable
{
    private readonly TestFolder _dir = new("regio");

    [IoUringFact]
    public void Registered_buffers_and_files_carry_the_data_and_the_plain_path_still_works_beside_them()
    {
        const int block = 32768, blocks = 16;
        using var file = IoFileOpener.Open(_dir.Combine("reg.dat"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        using var other = IoFileOpener.Open(_dir.Combine("plain.dat"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        using var registered = new AlignedBuffer(2 * blocks * block, file.Alignment); // first half written, second half read back
        using var outside = new AlignedBuffer(block, file.Alignment);                 // never registered
        using var ring = IoUringBackend.Create(8);
        ring.Attach(new[] { file }, registered);
        Assert.All(ring.Features, f => Assert.True(f.Used, $"{f.Name}: {f.Reason}"));
        Assert.Equal(new[] { IoFeatureNames.RegisteredBuffers, IoFeatureNames.RegisteredFiles }, ring.Features.Select(f => f.Name));

        for (int i = 0; i < blocks; i++) BackendDriver.Fill(registered.Slice(i * block, block), i, 3);
        Run(ring, Enumerable.Range(0, blocks).Select(i => new IoRequest(file.RawHandle, IoOperation.Write, (long)i * block, block, registered.Address + i * block, (ulong)i, fileIndex: 0)));
        Run(ring, Enumerable.Range(0, blocks).Select(i => new IoRequest(file.RawHandle, IoOperation.Read, (long)i * block, block, registered.Address + (blocks + i) * block, (ulong)i, fileIndex: 0)));
        Assert.True(registered.Slice(0, blocks * block).SequenceEqual(registered.Slice(blocks * block, blocks * block)), "read back differs from what was written through fixed buffers");

        // A buffer outside the registered memory, and a file that was never attached (index -1): the plain path, same ring.
        BackendDriver.Fill(outside.Span, 99, 5);
        var expected = outside.Span.ToArray();
        Run(ring, new[] { new IoRequest(other.RawHandle, IoOperation.Write, 0, block, outside.Address, 1) });
        outside.Span.Clear();
        Run(ring, new[] { new IoRequest(file.RawHandle, IoOperation.Write, 0, block, registered.Address, 2, fileIndex: 0) });
        Run(ring, new[] { new IoRequest(other.RawHandle, IoOperation.Read, 0, block, outside.Address, 3) });
        Assert.True(outside.Span.SequenceEqual(expected), "the plain path read back something else");
    }

    [IoUringFact]
    public void The_registered_path_allocates_nothing_per_io()
    {
        using var file = IoFileOpener.Open(_dir.Combine("alloc.dat"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        using var buffers = new AlignedBuffer(4 * 4096, file.Alignment);
        using var ring = IoUringBackend.Create(4);
        ring.Attach(new[] { file }, buffers);
        Assert.All(ring.Features, f => Assert.True(f.Used, f.Reason));
        Span<IoCompletion> done = stackalloc IoCompletion[4];
        int wrong = 0; // counted, not asserted, in the loop: xUnit's asserts allocate
        long RoundTrips(int count, Span<IoCompletion> completions)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < count; i++)
            {
                var request = new IoRequest(file.RawHandle, IoOperation.Write, (i % 4) * 4096L, 4096, buffers.Address + (i % 4) * 4096, (ulong)i, fileIndex: 0);
                if (!ring.TryQueue(request)) wrong++;
                ring.Submit();
                int n = 0;
                while (n == 0) n = ring.Reap(completions, 1, 1000);
                if (completions[0].Result != 4096) wrong++;
            }
            return GC.GetAllocatedBytesForCurrentThread() - before;
        }
        RoundTrips(50, done); // warm-up: JIT tiers, first enter
        long allocated = RoundTrips(500, done);
        Assert.Equal(0, wrong);
        Assert.Equal(0, allocated);
    }

    [IoUringFact]
    public void A_refused_file_registration_leaves_the_plain_path_and_says_why()
    {
        using var file = IoFileOpener.Open(_dir.Combine("ok.dat"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        // A descriptor no process has open: the kernel refuses the whole table with EBADF.
        using var closed = new IoFile("not-open", new SafeFileHandle(1_000_000, ownsHandle: false), direct: true, writeThrough: false, alignment: 4096);
        using var buffers = new AlignedBuffer(4 * 4096, file.Alignment);
        using var ring = IoUringBackend.Create(4);
        ring.Attach(new[] { file, closed }, buffers);

        var files = ring.Features.Single(f => f.Name == IoFeatureNames.RegisteredFiles);
        Assert.False(files.Used);
        Assert.Contains("EBADF", files.Reason, StringComparison.Ordinal);
        Assert.True(ring.Features.Single(f => f.Name == IoFeatureNames.RegisteredBuffers).Used);
        BackendDriver.Fill(buffers.Slice(0, 4096), 1, 1);
        Run(ring, new[] { new IoRequest(file.RawHandle, IoOperation.Write, 0, 4096, buffers.Address, 0, fileIndex: 0) });
        Run(ring, new[] { new IoRequest(file.RawHandle, IoOperation.Read, 0, 4096, buffers.Address + 4096, 0, fileIndex: 0) });
        Assert.True(buffers.Slice(0, 4096).SequenceEqual(buffers.Slice(4096, 4096)));
    }

    [Theory]
    [InlineData(0L, 4096, 1L << 20, 0)]
    [InlineData(-4096L, 4096, 1L << 20, -1)]                   // below the registered memory
    [InlineData((1L << 20) - 4096, 8192, 1L << 20, -1)]        // runs past its end
    [InlineData((1L << 30) - 4096, 4096, 3L << 30, 0)]         // the last bytes of the first 1 GiB piece
    [InlineData((1L << 30) - 4096, 8192, 3L << 30, -1)]        // spans two pieces: plain path
    [InlineData((2L << 30) + 4096, 4096, 3L << 30, 2)]
    [InlineData(0L, 4096, 0L, -1)]                             // nothing registered
    public void A_buffer_maps_to_the_1_GiB_piece_it_lies_in(long start, int length, long registered, int piece) =>
        Assert.Equal(piece, IoUringRegistration.Piece(start, length, registered));

    [Fact]
    public void Worker_features_merge_into_counts_and_the_first_reason()
    {
        var uses = IoFeatureUse.Of(new[]
        {
            new[] { IoFeature.On("a"), IoFeature.Off("b", "first") },
            new[] { IoFeature.Off("a", "why a"), IoFeature.Off("b", "second") },
            new[] { IoFeature.On("a"), IoFeature.On("b") },
        });
        Assert.Equal(new[] { "a", "b" }, uses.Select(u => u.Name));
        Assert.Equal((3, 2, "why a"), (uses[0].Workers, uses[0].WorkersUsing, uses[0].Reason));
        Assert.Equal((3, 1, "first"), (uses[1].Workers, uses[1].WorkersUsing, uses[1].Reason));
    }

    [IoUringFact]
    public void A_load_driver_reports_what_its_workers_registered()
    {
        string path = _dir.Combine("load.dat");
        using (var fs = new FileStream(path, FileMode.CreateNew)) fs.SetLength(8 << 20);
        using var file = IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false, pinWorkers: false);
        int reads = driver.RegisterStream(new StreamKey(1, "DatabaseRead", IoOperation.Read));
        for (int w = 0; w < 2; w++)
            driver.AddWorker(new[] { new LoadStream("r", new RandomBlockSource(0, 0, 8 << 20, 32768, 100, reads, reads, 7UL + (ulong)w), depth: 4) }, IoBackendFactory.IoUring);
        driver.Start();
        driver.SetAccounting(true);
        Thread.Sleep(300);
        driver.Stop();

        Assert.True(driver.Totals(reads).Operations > 0);
        Assert.Equal(0, driver.ErrorCount);
        Assert.All(driver.IoFeatures, u => Assert.Equal((2, 2), (u.Workers, u.WorkersUsing)));
        Assert.Equal(new[] { IoFeatureNames.RegisteredBuffers, IoFeatureNames.RegisteredFiles }, driver.IoFeatures.Select(u => u.Name));
    }

    [MemlockFact]
    public void Runs_with_registered_buffers_and_with_buffers_refused_by_the_memlock_limit_both_leave_pages_that_verify()
    {
        foreach (bool limited in new[] { false, true })
        {
            string db = _dir.Sub(limited ? "Limited" : "Registered");
            string output = _dir.Combine(limited ? "OutLimited" : "OutRegistered");
            string request = Requests.Run(db, 2, output: output).Json();
            var (exit, events) = limited ? ProcessProtocolTests.RunEngineUnder(MemlockFactAttribute.LimitedWrapper(), request) : ProcessProtocolTests.RunEngine(request);
            Assert.True(exit == 0, $"exit {exit}: {string.Join("\n", events)}");

            var results = ResultsFile.Load(Assert.Single(Directory.GetFiles(output, "*.json")));
            Assert.Equal(IoBackendFactory.IoUring, results.Environment.IoBackend);
            var buffers = results.Engine.IoFeatures.Single(f => f.Name == IoFeatureNames.RegisteredBuffers);
            var files = results.Engine.IoFeatures.Single(f => f.Name == IoFeatureNames.RegisteredFiles);
            Assert.True(buffers.Workers > 0);
            Assert.Equal(files.Workers, files.WorkersUsing);
            if (limited)
            {
                Assert.Equal(0, buffers.WorkersUsing);
                Assert.Contains("ENOMEM", buffers.Reason, StringComparison.Ordinal);
                Assert.Contains("RLIMIT_MEMLOCK) is 64 KiB", buffers.Reason, StringComparison.Ordinal);
                // The reports' test log says it too, in the admin's words.
                Assert.Contains(results.TestLog, l => l.Message.StartsWith($"I/O backend io_uring: registeredBuffers: used by 0 of {buffers.Workers} worker", StringComparison.Ordinal) && l.Message.Contains("ENOMEM", StringComparison.Ordinal));
            }
            else
            {
                Assert.Equal(buffers.Workers, buffers.WorkersUsing);
                Assert.Null(buffers.Reason);
            }

            // The pages the run wrote (creation, then the transactional flushes) carry their identity and CRC.
            var (verifyExit, verifyEvents) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"verify\",\"paths\":[" + JsonSerializer.Serialize(db) + "]}");
            Assert.Equal(0, verifyExit);
            var verify = verifyEvents.Single(e => e.GetProperty("type").GetString() == "verify");
            Assert.Equal("Pass", verify.GetProperty("result").GetString());
            Assert.Equal(0, verify.GetProperty("badPages").GetInt64());
            Assert.True(verify.GetProperty("pagesChecked").GetInt64() > 100);
        }
    }

    private static void Run(IIoBackend backend, IEnumerable<IoRequest> requests)
    {
        var list = requests.ToList();
        Span<IoCompletion> done = stackalloc IoCompletion[16];
        int next = 0, finished = 0;
        var deadline = DateTime.UtcNow.AddSeconds(30);
        while (finished < list.Count)
        {
            while (next < list.Count && backend.TryQueue(list[next])) next++;
            backend.Submit();
            int n = backend.Reap(done, 1, 1000);
            for (int i = 0; i < n; i++)
            {
                var c = done[i];
                var r = list.Single(x => x.UserData == c.UserData);
                Assert.True(c.Result == r.Length, $"I/O {c.UserData} returned {c.Result}");
                finished++;
            }
            Assert.True(DateTime.UtcNow < deadline, "I/O did not finish within 30 s");
        }
    }

    public void Dispose() => _dir.Dispose();
}

/// <summary>
/// Runs the engine under a 64 KiB locked-memory limit it cannot bypass (prlimit; as root, setpriv also
/// drops CAP_IPC_LOCK, which would ignore the limit), so the kernel refuses to pin registered buffers.
/// </summary>
public sealed class MemlockFactAttribute : FactAttribute
{
    public MemlockFactAttribute()
    {
        Skip = Prerequisites.NoIoUring
            ?? (Prerequisites.FindTool("prlimit") is null ? "prlimit (util-linux) is not installed." : null)
            ?? (IsRoot && Prerequisites.FindTool("setpriv") is null ? "setpriv (util-linux) is not installed; root would bypass the limit with CAP_IPC_LOCK." : null);
    }

    private static bool IsRoot => File.ReadAllText("/proc/self/status").Contains("\nUid:\t0\t", StringComparison.Ordinal);

    public static string[] LimitedWrapper()
    {
        var wrapper = new List<string> { Prerequisites.FindTool("prlimit")!, "--memlock=65536:65536" };
        if (IsRoot) wrapper.AddRange(new[] { Prerequisites.FindTool("setpriv")!, "--bounding-set=-ipc_lock", "--inh-caps=-ipc_lock" });
        return wrapper.ToArray();
    }
}
