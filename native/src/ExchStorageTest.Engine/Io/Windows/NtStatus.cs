namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>
/// NTSTATUS → Win32 error for completed overlapped I/O. On Windows the answer is
/// RtlNtStatusToDosError; the table below is the subset storage I/O produces, used where ntdll is not
/// available (tests on Linux) and as documentation of what the engine expects to see.
/// </summary>
public static class NtStatus
{
    public const int Success = 0;
    public const int EndOfFile = unchecked((int)0xC0000011);

    /// <summary>(NTSTATUS, Win32 error) pairs, as RtlNtStatusToDosError maps them.</summary>
    public static ReadOnlySpan<int> KnownStatuses =>
    [
        unchecked((int)0xC0000008), // STATUS_INVALID_HANDLE
        unchecked((int)0xC000000D), // STATUS_INVALID_PARAMETER
        unchecked((int)0xC0000010), // STATUS_INVALID_DEVICE_REQUEST
        unchecked((int)0xC0000011), // STATUS_END_OF_FILE
        unchecked((int)0xC0000015), // STATUS_NONEXISTENT_SECTOR
        unchecked((int)0xC0000017), // STATUS_NO_MEMORY
        unchecked((int)0xC0000022), // STATUS_ACCESS_DENIED
        unchecked((int)0xC000003E), // STATUS_DATA_ERROR
        unchecked((int)0xC000003F), // STATUS_CRC_ERROR
        unchecked((int)0xC000007F), // STATUS_DISK_FULL
        unchecked((int)0xC000009A), // STATUS_INSUFFICIENT_RESOURCES
        unchecked((int)0xC000009C), // STATUS_DEVICE_DATA_ERROR
        unchecked((int)0xC000009D), // STATUS_DEVICE_NOT_CONNECTED
        unchecked((int)0xC00000A2), // STATUS_MEDIA_WRITE_PROTECTED
        unchecked((int)0xC00000A3), // STATUS_DEVICE_NOT_READY
        unchecked((int)0xC0000120), // STATUS_CANCELLED
        unchecked((int)0xC0000185), // STATUS_IO_DEVICE_ERROR
    ];

    public static ReadOnlySpan<int> KnownWin32Errors =>
    [
        6,    // ERROR_INVALID_HANDLE
        87,   // ERROR_INVALID_PARAMETER
        1,    // ERROR_INVALID_FUNCTION
        38,   // ERROR_HANDLE_EOF
        27,   // ERROR_SECTOR_NOT_FOUND
        8,    // ERROR_NOT_ENOUGH_MEMORY
        5,    // ERROR_ACCESS_DENIED
        23,   // ERROR_CRC
        23,   // ERROR_CRC
        112,  // ERROR_DISK_FULL
        1450, // ERROR_NO_SYSTEM_RESOURCES
        23,   // ERROR_CRC
        21,   // ERROR_NOT_READY
        19,   // ERROR_WRITE_PROTECT
        21,   // ERROR_NOT_READY
        995,  // ERROR_OPERATION_ABORTED
        1117, // ERROR_IO_DEVICE
    ];

    /// <summary>The Win32 error for a (failure) NTSTATUS; ERROR_MR_MID_NOT_FOUND (317) when unknown, as ntdll does.</summary>
    public static int ToWin32Error(int status)
    {
        if (OperatingSystem.IsWindows()) return (int)Kernel32.RtlNtStatusToDosError(status);
        return FromTable(status);
    }

    internal static int FromTable(int status)
    {
        if (status == Success) return 0;
        ReadOnlySpan<int> statuses = KnownStatuses;
        for (int i = 0; i < statuses.Length; i++)
        {
            if (statuses[i] == status) return KnownWin32Errors[i];
        }
        return Kernel32.ERROR_MR_MID_NOT_FOUND;
    }

    /// <summary>
    /// The <see cref="IoCompletion.Result"/> for a dequeued packet: bytes on success, -Win32 error on
    /// failure. End of file reads as 0 bytes, as pread reports it on Linux, so callers see one meaning.
    /// </summary>
    public static int CompletionResult(int status, uint bytesTransferred)
    {
        if (status >= 0) return (int)bytesTransferred; // NT_SUCCESS (includes informational/warning-free success codes)
        if (status == EndOfFile) return 0;
        int error = ToWin32Error(status);
        return -(error == 0 ? Kernel32.ERROR_MR_MID_NOT_FOUND : error);
    }
}
