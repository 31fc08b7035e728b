namespace ExchStorageTest.Contract
{
    /// <summary>The codes only the engine raises beyond its request and plan: streams, storage and I/O, results and reports.</summary>
    public static partial class ErrorCodes
    {
        // The raw stream mix (command streams).
        public static readonly ErrorCode StreamsMissing = Add("StreamsMissing", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a streams request without streams");
        public static readonly ErrorCode StreamNameDuplicate = Add("StreamNameDuplicate", Arg, RaisedBy.Engine, ErrorGroups.Streams, "two streams of one name");
        public static readonly ErrorCode StreamPathMissing = Add("StreamPathMissing", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a stream without a path");
        public static readonly ErrorCode UnknownStreamPreset = Add("UnknownStreamPreset", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a stream preset other than Random32K, LogAppend, Sequential256K or Custom");
        public static readonly ErrorCode StreamBlockSizeInvalid = Add("StreamBlockSizeInvalid", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a block size not a multiple of 512 from 512 bytes to 16 MiB");
        public static readonly ErrorCode StreamBlockSizeMisaligned = Add("StreamBlockSizeMisaligned", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a block size not a multiple of the device's logical sector");
        public static readonly ErrorCode StreamReadPercentOutOfRange = Add("StreamReadPercentOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a read percentage not from 0 to 100");
        public static readonly ErrorCode StreamQueueDepthOutOfRange = Add("StreamQueueDepthOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a queue depth not from 1 to 1024");
        public static readonly ErrorCode StreamRateOutOfRange = Add("StreamRateOutOfRange", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a stream rate not above 0");
        public static readonly ErrorCode StreamPatternInvalid = Add("StreamPatternInvalid", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a pattern other than Random or Sequential, or a sequential stream mixing reads and writes");
        public static readonly ErrorCode StreamArrivalInvalid = Add("StreamArrivalInvalid", Arg, RaisedBy.Engine, ErrorGroups.Streams, "an arrival other than Linear or Poisson");
        public static readonly ErrorCode StreamFileTooSmall = Add("StreamFileTooSmall", Arg, RaisedBy.Engine, ErrorGroups.Streams, "a stream file too small for its header and one block");

        // Storage and I/O.
        public static readonly ErrorCode DirectIoUnsupported = Add("DirectIoUnsupported", ErrorCategories.InvalidOperation, RaisedBy.Engine, ErrorGroups.Storage, "the file system refuses unbuffered I/O (-AllowBufferedIo opts in to buffered I/O)");
        public static readonly ErrorCode PlatformUnsupported = Add("PlatformUnsupported", ErrorCategories.InvalidOperation, RaisedBy.Engine, ErrorGroups.Storage, "a database or log folder's volume has a feature Microsoft does not support under Exchange's data: ReFS integrity streams, compression, EFS or deduplication (-AllowUnsupportedPlatform runs anyway, in a lab that knows)");
        public static readonly ErrorCode FileOpenFailed = Add("FileOpenFailed", ErrorCategories.WriteError, RaisedBy.Engine, ErrorGroups.Storage, "a test file could not be opened (the category follows the cause: ObjectNotFound, PermissionDenied, ResourceUnavailable, WriteError)");
        public static readonly ErrorCode FileExists = Add("FileExists", ErrorCategories.ResourceUnavailable, RaisedBy.Engine, ErrorGroups.Storage, "a file the engine was to create exists");
        public static readonly ErrorCode BackendUnavailable = Add("BackendUnavailable", ErrorCategories.ResourceUnavailable, RaisedBy.Engine, ErrorGroups.Storage, "the I/O backend cannot run on this system (the kernel's reason in the message)");
        public static readonly ErrorCode UnknownBackend = Add("UnknownBackend", Arg, RaisedBy.Engine, ErrorGroups.Storage, "an I/O backend name the engine does not have");
        public static readonly ErrorCode IoBackendFailed = Add("IoBackendFailed", ErrorCategories.InvalidOperation, RaisedBy.Engine, ErrorGroups.Storage, "the I/O backend failed while running");
        public static readonly ErrorCode ForeignFile = Add("ForeignFile", ErrorCategories.ResourceUnavailable, RaisedBy.Engine, ErrorGroups.Storage, "a file at a planned name, or given to Test-DatabaseChecksum, was not created by ExchStorageTest: it is never overwritten, nor checked as a damaged database");
        public static readonly ErrorCode DatabaseMissing = Add("DatabaseMissing", ErrorCategories.ObjectNotFound, RaisedBy.Engine, ErrorGroups.Storage, "Attach or Restore without the databases they need, or Test-DatabaseChecksum without a database or log folder under its paths");
        public static readonly ErrorCode DatabaseMismatch = Add("DatabaseMismatch", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Storage, "an existing database (or backup copy) of another geometry or data profile, or incomplete");
        public static readonly ErrorCode WriteFailed = Add("WriteFailed", ErrorCategories.WriteError, RaisedBy.Engine, ErrorGroups.Storage, "writing, flushing or sizing a test file failed");
        public static readonly ErrorCode CreateFailed = Add("CreateFailed", ErrorCategories.WriteError, RaisedBy.Engine, ErrorGroups.Storage, "the database set could not be created");
        public static readonly ErrorCode FileCreateFailed = Add("FileCreateFailed", ErrorCategories.WriteError, RaisedBy.Engine, ErrorGroups.Storage, "a stream file could not be created");

        // Results and reports.
        public static readonly ErrorCode ResultsNotFound = Add("ResultsNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Both, ErrorGroups.Results, "no results files were given, or a results file or folder is missing, or a folder holds no results documents");
        public static readonly ErrorCode ResultsMalformed = Add("ResultsMalformed", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Results, "a results file is not an ExchStorageTest results document");
        public static readonly ErrorCode ResultsTooNew = Add("ResultsTooNew", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Results, "a results file of a newer schema version than the engine reads");
        public static readonly ErrorCode ResultsWriteFailed = Add("ResultsWriteFailed", ErrorCategories.WriteError, RaisedBy.Engine, ErrorGroups.Results, "the results file could not be saved (the result still comes; non-terminating)");
        public static readonly ErrorCode ReportWriteFailed = Add("ReportWriteFailed", ErrorCategories.WriteError, RaisedBy.Engine, ErrorGroups.Results, "a run's reports could not be written beside its results (non-terminating)");
        public static readonly ErrorCode ReportNamesCollide = Add("ReportNamesCollide", Arg, RaisedBy.Engine, ErrorGroups.Results, "Get-TestReport -OutputPath with two results files of one name (their reports would overwrite each other)");
        public static readonly ErrorCode MetadataNotFound = Add("MetadataNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Engine, ErrorGroups.Results, "the -MetadataPath file does not exist");
        public static readonly ErrorCode MetadataMalformed = Add("MetadataMalformed", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Results, "not an ESRP metadata file");
        public static readonly ErrorCode MetadataUnknownLabel = Add("MetadataUnknownLabel", Arg, RaisedBy.Engine, ErrorGroups.Results, "a metadata row no ESRP table has (the nearest label in the message)");
        public static readonly ErrorCode EngineFault = Add("EngineFault", ErrorCategories.InvalidOperation, RaisedBy.Engine, ErrorGroups.Results, "the engine failed unexpectedly (the exception in the message)");
        public static readonly ErrorCode Stopped = Add("Stopped", ErrorCategories.OperationStopped, RaisedBy.Engine, ErrorGroups.Results, "the engine was stopped before it produced a result");

        // Engine internals: a probe's output or a file it could not read; the inspection reports them as findings where it can.
        public static readonly ErrorCode HistogramLayoutMismatch = Add("HistogramLayoutMismatch", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.EngineInternals, "a results file's histogram of another bucket layout");
        public static readonly ErrorCode PlatformNotSupported = Add("PlatformNotSupported", ErrorCategories.NotImplemented, RaisedBy.Engine, ErrorGroups.EngineInternals, "a probe that exists only on another operating system");
        public static readonly ErrorCode PdhFailed = Add("PdhFailed", ErrorCategories.ResourceUnavailable, RaisedBy.Engine, ErrorGroups.EngineInternals, "a Windows performance counter call failed");
        public static readonly ErrorCode InvalidCimJson = Add("InvalidCimJson", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.EngineInternals, "MPIO CIM output that is not JSON");
        public static readonly ErrorCode InvalidEventJson = Add("InvalidEventJson", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.EngineInternals, "Get-WinEvent output that is not JSON");
        public static readonly ErrorCode InvalidIoctlBuffer = Add("InvalidIoctlBuffer", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.EngineInternals, "a Windows IOCTL answer shorter than its structure");
        public static readonly ErrorCode NotNtfsBootSector = Add("NotNtfsBootSector", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.EngineInternals, "a volume's first sector is not an NTFS boot sector");
        public static readonly ErrorCode InvalidMultipathTable = Add("InvalidMultipathTable", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.EngineInternals, "a device-mapper table line that is not a multipath table");
        public static readonly ErrorCode InvalidVolumePath = Add("InvalidVolumePath", Arg, RaisedBy.Engine, ErrorGroups.EngineInternals, "a volume inspection without a path");
    }
}
