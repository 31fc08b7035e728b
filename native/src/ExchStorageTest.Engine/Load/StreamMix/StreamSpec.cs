using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Load.StreamMix;

/// <summary>
/// One stream of the raw "disk subsystem throughput" mode: a pattern against one file, with its own
/// queue depth and (optionally) an open-loop rate. Presets name the Exchange patterns.
/// </summary>
public sealed class StreamSpec
{
    public string Name { get; set; } = "";
    /// <summary>Random32K (database pages, read % applies), LogAppend (sequential write-through), Sequential256K (maintenance/backup reads), or Custom.</summary>
    public string Preset { get; set; } = "Custom";
    /// <summary>Random or Sequential (Custom only).</summary>
    public string Pattern { get; set; } = "Random";
    public int BlockSizeBytes { get; set; } = 32 * 1024;
    public int ReadPercent { get; set; } = 100;
    public int QueueDepth { get; set; } = 1;
    /// <summary>Open loop at this rate; null = closed loop at <see cref="QueueDepth"/>.</summary>
    public double? RateIops { get; set; }
    /// <summary>Linear or Poisson (open loop only).</summary>
    public string Arrival { get; set; } = "Poisson";
    public string Path { get; set; } = "";
    public long FileSizeBytes { get; set; } = 1L << 30;
    public bool WriteThrough { get; set; } = true;

    /// <summary>Applies the preset's pattern and sizes, keeping anything the caller set explicitly to Custom values.</summary>
    public StreamSpec Resolved()
    {
        var s = (StreamSpec)MemberwiseClone();
        switch (Preset.ToLowerInvariant())
        {
            case "random32k": s.Pattern = "Random"; s.BlockSizeBytes = 32 * 1024; break;
            case "logappend": s.Pattern = "Sequential"; s.ReadPercent = 0; s.WriteThrough = true; if (BlockSizeBytes == 32 * 1024) s.BlockSizeBytes = 16 * 1024; break;
            case "sequential256k": s.Pattern = "Sequential"; s.ReadPercent = 100; s.BlockSizeBytes = 256 * 1024; break;
            case "custom": break;
            default: throw EngineException.Refused(ErrorCodes.UnknownStreamPreset, $"Stream '{Name}': unknown preset '{Preset}' (use Random32K, LogAppend, Sequential256K or Custom).");
        }
        if (string.IsNullOrWhiteSpace(s.Name)) s.Name = $"{s.Preset}-{System.IO.Path.GetFileName(s.Path)}";
        return s;
    }

    /// <summary>Refuses a bad stream with the value and the rule, before anything is written.</summary>
    public void Validate()
    {
        string who = $"Stream '{Name}'";
        if (string.IsNullOrWhiteSpace(Path)) throw EngineException.Refused(ErrorCodes.StreamPathMissing, $"{who} has no path.");
        if (BlockSizeBytes < 512 || BlockSizeBytes % 512 != 0 || BlockSizeBytes > 16 << 20)
            throw EngineException.Refused(ErrorCodes.StreamBlockSizeInvalid, $"{who}: block size {BlockSizeBytes} must be a multiple of 512 between 512 and 16 MiB.");
        if (ReadPercent is < 0 or > 100) throw EngineException.Refused(ErrorCodes.StreamReadPercentOutOfRange, $"{who}: read percentage {ReadPercent} must be 0..100.");
        if (QueueDepth is < 1 or > 1024) throw EngineException.Refused(ErrorCodes.StreamQueueDepthOutOfRange, $"{who}: queue depth {QueueDepth} must be 1..1024.");
        if (RateIops is double r && !(r > 0)) throw EngineException.Refused(ErrorCodes.StreamRateOutOfRange, $"{who}: rate {r} must be greater than 0.");
        if (!Pattern.Equals("Random", StringComparison.OrdinalIgnoreCase) && !Pattern.Equals("Sequential", StringComparison.OrdinalIgnoreCase))
            throw EngineException.Refused(ErrorCodes.StreamPatternInvalid, $"{who}: pattern '{Pattern}' must be Random or Sequential.");
        if (Pattern.Equals("Sequential", StringComparison.OrdinalIgnoreCase) && ReadPercent is > 0 and < 100)
            throw EngineException.Refused(ErrorCodes.StreamPatternInvalid, $"{who}: a sequential stream is all reads (100) or all writes (0), not {ReadPercent}% reads.");
        if (!Arrival.Equals("Linear", StringComparison.OrdinalIgnoreCase) && !Arrival.Equals("Poisson", StringComparison.OrdinalIgnoreCase))
            throw EngineException.Refused(ErrorCodes.StreamArrivalInvalid, $"{who}: arrival '{Arrival}' must be Linear or Poisson.");
        if (FileSizeBytes < StreamFile.DataOffset + BlockSizeBytes)
            throw EngineException.Refused(ErrorCodes.StreamFileTooSmall, $"{who}: file size {FileSizeBytes} must hold the header and at least one block.");
    }
}
