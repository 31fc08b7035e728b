using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>CreateFile with FILE_FLAG_NO_BUFFERING | FILE_FLAG_OVERLAPPED | FILE_FLAG_WRITE_THROUGH.</summary>
internal static class WindowsFileOpener
{
    public static IoFile Open(string path, IoFileMode mode, bool writeThrough, bool allowBuffered)
    {
        // Filled in by the IOCP backend work (issue 3); until then Windows refuses clearly.
        throw new EngineException("BackendUnavailable", ErrorCategories.NotImplemented,
            "The Windows I/O backend is not built into this engine yet.", path);
    }
}
