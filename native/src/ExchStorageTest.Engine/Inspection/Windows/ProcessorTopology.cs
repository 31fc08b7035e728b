using System.Buffers.Binary;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// Sockets and physical cores from GetLogicalProcessorInformationEx(RelationAll): a run of
/// SYSTEM_LOGICAL_PROCESSOR_INFORMATION_EX records, each starting with Relationship (DWORD) and Size (DWORD);
/// one RelationProcessorCore (0) record per core, one RelationProcessorPackage (3) per socket.
/// </summary>
public static class ProcessorTopology
{
    public const int RelationProcessorCore = 0;
    public const int RelationProcessorPackage = 3;
    public const int RelationAll = 0xffff;

    public static (int Sockets, int Cores) Parse(ReadOnlySpan<byte> buffer)
    {
        int sockets = 0, cores = 0, at = 0;
        while (at + 8 <= buffer.Length)
        {
            int relation = BinaryPrimitives.ReadInt32LittleEndian(buffer[at..]);
            int size = BinaryPrimitives.ReadInt32LittleEndian(buffer[(at + 4)..]);
            if (size < 8 || at + size > buffer.Length) break;
            if (relation == RelationProcessorCore) cores++;
            else if (relation == RelationProcessorPackage) sockets++;
            at += size;
        }
        return (sockets, cores);
    }
}
