using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>Shared checks for the pure IOCTL output parsers.</summary>
internal static class IoctlBuffer
{
    public static void RequireLength(ReadOnlySpan<byte> buffer, int length, string structName)
    {
        if (buffer.Length < length)
            throw new EngineException("InvalidIoctlBuffer", ErrorCategories.InvalidData,
                $"{structName} needs {length} bytes; got {buffer.Length}.");
    }
}
