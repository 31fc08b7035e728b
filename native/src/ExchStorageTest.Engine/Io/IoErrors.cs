namespace ExchStorageTest.Engine.Io;

/// <summary>Names for the OS errors the engine reports per stream (errno on Linux, Win32 on Windows).</summary>
public static class IoErrors
{
    /// <summary>A symbolic name for a (positive) OS error code, e.g. ENOSPC or ERROR_DISK_FULL.</summary>
    public static string Name(int code)
    {
        if (OperatingSystem.IsWindows())
        {
            return code switch
            {
                2 => "ERROR_FILE_NOT_FOUND",
                5 => "ERROR_ACCESS_DENIED",
                23 => "ERROR_CRC",
                38 => "ERROR_HANDLE_EOF",
                87 => "ERROR_INVALID_PARAMETER",
                112 => "ERROR_DISK_FULL",
                1117 => "ERROR_IO_DEVICE",
                _ => $"WIN32_{code}",
            };
        }
        return code switch
        {
            1 => "EPERM",
            2 => "ENOENT",
            5 => "EIO",
            9 => "EBADF",
            12 => "ENOMEM",
            13 => "EACCES",
            14 => "EFAULT",
            16 => "EBUSY",
            17 => "EEXIST",
            22 => "EINVAL",
            24 => "EMFILE",
            27 => "EFBIG",
            28 => "ENOSPC",
            30 => "EROFS",
            38 => "ENOSYS",
            61 => "ENODATA",
            62 => "ETIME",
            95 => "EOPNOTSUPP",
            107 => "ENOTCONN",
            116 => "ESTALE",
            122 => "EDQUOT",
            _ => $"errno {code}",
        };
    }

    /// <summary>True for errors that mean the device or volume is out of space.</summary>
    public static bool IsOutOfSpace(int code) => OperatingSystem.IsWindows() ? code is 112 or 39 : code is 28 or 122;
}
