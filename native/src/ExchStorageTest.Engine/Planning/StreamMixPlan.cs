using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Load.StreamMix;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// A validated "streams" request: every refusal before the first byte — stream values, absolute
/// paths in existing writable folders, block sizes the device's sectors allow, files at the stream
/// paths ours (or absent), and room for the new ones with a margin.
/// </summary>
public sealed class StreamMixPlan
{
    public required string TestId { get; init; }
    public required IReadOnlyList<StreamSpec> Specs { get; init; }
    public required double DurationSeconds { get; init; }
    public required double SampleIntervalSeconds { get; init; }
    public required bool ContinueOnError { get; init; }
    public required bool AllowBufferedIo { get; init; }
    public required bool PinWorkerThreads { get; init; }
    public required string OutputPath { get; init; }
    /// <summary>The folders of the stream files: the run lock is held in each.</summary>
    public required IReadOnlyList<string> LockFolders { get; init; }

    public static StreamMixPlan From(EngineRequest request)
    {
        string testId = TestPlanner.CheckTestId(request.TestId);
        if (request.Streams.Count == 0) throw EngineException.Refused(ErrorCodes.StreamsMissing, "The streams command needs at least one stream.");
        double duration = request.DurationSeconds ?? 60;
        Refuse(RunRules.Duration.Check(duration));
        double interval = request.SampleIntervalSeconds ?? RunDefaults.SampleIntervalFor(duration);
        Refuse(RunRules.SampleInterval.Check(interval));
        var specs = request.Streams.Select(s => s.Resolved()).ToList();
        foreach (var s in specs) s.Validate();
        if (specs.Select(s => s.Name).Distinct(StringComparer.OrdinalIgnoreCase).Count() != specs.Count)
            throw EngineException.Refused(ErrorCodes.StreamNameDuplicate, "Stream names must be unique.");

        var folders = new List<string>();
        foreach (var s in specs)
        {
            Absolute($"Stream '{s.Name}' path", s.Path);
            string folder = Path.GetDirectoryName(s.Path)!;
            if (!Directory.Exists(folder))
                throw EngineException.Refused(ErrorCodes.PathNotFound, $"Stream '{s.Name}': the folder '{folder}' does not exist: create it (or mount the volume) first.", folder);
            if (!VolumeSpace.CanWrite(folder))
                throw EngineException.Refused(ErrorCodes.PathNotWritable, $"Stream '{s.Name}': the folder '{folder}' is not writable (read-only volume or no permission).", folder);
            int sector = SectorBytes(folder);
            if (sector > 0 && s.BlockSizeBytes % sector != 0)
                throw EngineException.Refused(ErrorCodes.StreamBlockSizeMisaligned,
                    $"Stream '{s.Name}': block size {s.BlockSizeBytes} is not a multiple of the {sector}-byte sectors of the device under '{folder}'; direct I/O would fail with EINVAL. Use a multiple of {sector}.", s.Path);
            CheckOurs(s.Path);
            if (!folders.Contains(folder, StringComparer.Ordinal)) folders.Add(folder);
        }
        string output = TestPlanner.OutputFolder(request.OutputPath) ?? Path.Combine(folders[0], "Results");
        CheckSpace(specs);
        return new StreamMixPlan
        {
            TestId = testId, Specs = specs, DurationSeconds = duration, SampleIntervalSeconds = interval,
            ContinueOnError = request.ContinueOnError, AllowBufferedIo = request.AllowBufferedIo, PinWorkerThreads = request.PinWorkerThreads,
            OutputPath = output, LockFolders = folders,
        };
    }

    /// <summary>Relative paths would resolve against whatever folder the engine was started in: refused.</summary>
    private static void Absolute(string what, string path)
    {
        if (!ProfileRules.IsAbsolute(path))
            throw EngineException.Refused(ErrorCodes.PathNotAbsolute, $"{what} '{path}' is relative: give a full path (it would otherwise depend on the folder the engine was started in).", path);
    }

    private static void Refuse(Violation? violation)
    {
        if (violation is not null) throw EngineException.Refused(violation);
    }

    /// <summary>A file at a stream path must be one of ours (our header); anything else is refused and left untouched.</summary>
    private static void CheckOurs(string path)
    {
        if (!File.Exists(path)) return;
        if (StreamFile.ReadHeader(path) is null)
            throw EngineException.Refused(ErrorCodes.ForeignFile,
                $"'{path}' exists and was not created by ExchStorageTest; it is never overwritten. Choose another path or remove it yourself.", path);
    }

    /// <summary>The logical sector size of the device under <paramref name="folder"/> (its DIO offset unit); 0 when unknown.</summary>
    private static int SectorBytes(string folder)
    {
        if (!OperatingSystem.IsLinux()) return 0;
        int fd = LibC.Open(folder, LibC.O_RDONLY | LibC.O_CLOEXEC, 0);
        if (fd < 0) return 0;
        try
        {
            var a = DeviceAlignmentProbe.Probe(fd);
            return Math.Max(a.LogicalBlockSize, a.DioOffsetAlignment);
        }
        finally { LibC.Close(fd); }
    }

    /// <summary>Refuses, before writing anything, a mix whose new files do not fit on their volumes (with the planner's margin).</summary>
    private static void CheckSpace(IReadOnlyList<StreamSpec> specs)
    {
        var need = new Dictionary<string, (long Bytes, long Free, string Folder)>();
        foreach (var s in specs.GroupBy(s => s.Path).Select(g => g.First()))
        {
            long existing = File.Exists(s.Path) ? new FileInfo(s.Path).Length : 0;
            string folder = Path.GetDirectoryName(s.Path)!;
            var info = VolumeSpace.Of(folder);
            var cur = need.TryGetValue(info.VolumeId, out var c) ? c : (0, info.FreeBytes, folder);
            // A file of ours of another size is re-created beside the old one (temporary name), so it needs its full size.
            need[info.VolumeId] = (cur.Bytes + (existing == s.FileSizeBytes ? 0 : s.FileSizeBytes), cur.Free, cur.Folder);
        }
        foreach (var (_, (bytes, free, folder)) in need)
        {
            long margin = bytes == 0 ? 0 : TestPlanner.Margin(bytes);
            if (bytes + margin > free)
                throw EngineException.Refused(ErrorCodes.InsufficientSpace,
                    $"The volume under '{folder}' has {free:N0} bytes free but the stream files need {bytes:N0} bytes plus {margin:N0} bytes kept free for file-system metadata.", folder);
        }
    }
}
