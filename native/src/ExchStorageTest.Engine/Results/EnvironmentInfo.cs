using ExchStorageTest.Engine.Inspection.Multipath;

namespace ExchStorageTest.Engine.Results;

public sealed class EnvironmentInfo
{
    public string MachineName { get; set; } = "";
    public string OperatingSystem { get; set; } = "";
    public string Runtime { get; set; } = "";
    public int ProcessorCount { get; set; }
    public long MemoryBytes { get; set; }
    /// <summary>The I/O backend named in every result (io_uring, pread-threads, sync, iocp).</summary>
    public string IoBackend { get; set; } = "";
    /// <summary>The CPU each I/O worker thread was pinned to (-1: the OS refused); empty when pinning was off.</summary>
    public List<int> WorkerCpus { get; set; } = new();
    /// <summary>False only when the user opted in to buffered I/O; every report then says so.</summary>
    public bool DirectIo { get; set; } = true;
    public List<VolumeReport> Volumes { get; set; } = new();
    /// <summary>The host and the layout judged by the platform pre-flight (docs/results-schema.md); null in older results.</summary>
    public PlatformReport? Platform { get; set; }
    /// <summary>The ESRP "storage software" table as far as the host can discover it.</summary>
    public StorageSoftwareReport? StorageSoftware { get; set; }
}
