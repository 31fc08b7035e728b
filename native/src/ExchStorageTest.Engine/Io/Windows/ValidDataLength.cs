using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Microsoft.Win32.SafeHandles;

namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>
/// Pre-sizing a database file the way DiskSpd does (research/windows.md 1.5): end of file, cluster
/// reservation (FileAllocationInfo), then SetFileValidData, so the creation's unbuffered writes,
/// several in flight and out of order, do not make NTFS zero-fill ahead of each one. SetFileValidData
/// needs SeManageVolumePrivilege enabled before the file was opened; when the privilege is not held
/// (not elevated) or the call is refused, creation goes on without it and says so: every page is
/// written anyway, so only the creation speed differs. Each refusal is reported, never fatal.
/// </summary>
[SupportedOSPlatform("windows")]
internal static unsafe partial class ValidDataLength
{
    private const uint TokenAdjustPrivileges = 0x20;
    private const uint TokenQuery = 0x8;
    private const uint SePrivilegeEnabled = 0x2;

    private static int _privilege; // 0 not tried, 1 enabled, -1 refused
    private static int _privilegeError;

    /// <summary>Enables SeManageVolumePrivilege for the process, once; later opens carry it.</summary>
    public static void EnablePrivilegeOnce()
    {
        if (Volatile.Read(ref _privilege) != 0) return;
        int error = EnablePrivilege("SeManageVolumePrivilege");
        _privilegeError = error;
        Volatile.Write(ref _privilege, error == 0 ? 1 : -1);
    }

    /// <summary>Reserves clusters and moves the valid data length to <paramref name="length"/>; says what was done.</summary>
    public static string Extend(SafeFileHandle file, long length)
    {
        var notes = new List<string>(2);
        long allocation = length;
        if (!Kernel32.SetFileInformationByHandle(file, Kernel32.FileAllocationInfo, &allocation, sizeof(long)))
            notes.Add($"FileAllocationInfo refused (Win32 error {Marshal.GetLastPInvokeError()}), clusters are allocated as the pages are written");
        else
            notes.Add("clusters reserved (FileAllocationInfo)");
        if (Volatile.Read(ref _privilege) != 1)
        {
            notes.Add($"SetFileValidData not used: SeManageVolumePrivilege is not held (Win32 error {_privilegeError}; run elevated to create faster), so NTFS zero-fills ahead of the creation writes");
        }
        else if (!Kernel32.SetFileValidData(file, length))
        {
            int error = Marshal.GetLastPInvokeError();
            notes.Add($"SetFileValidData refused (Win32 error {error}), so NTFS zero-fills ahead of the creation writes");
        }
        else
        {
            notes.Add("valid data length set (SetFileValidData); every page is then written");
        }
        return string.Join("; ", notes);
    }

    /// <summary>0, or the Win32 error (ERROR_NOT_ALL_ASSIGNED when the account lacks the privilege).</summary>
    private static int EnablePrivilege(string name)
    {
        if (!OpenProcessToken(Kernel32.GetCurrentProcess(), TokenAdjustPrivileges | TokenQuery, out nint token))
            return Marshal.GetLastPInvokeError();
        try
        {
            TokenPrivileges tp = default;
            if (!LookupPrivilegeValue(null, name, out tp.Luid)) return Marshal.GetLastPInvokeError();
            tp.PrivilegeCount = 1;
            tp.Attributes = SePrivilegeEnabled;
            // AdjustTokenPrivileges succeeds even when nothing was assigned: the last error tells
            // (ERROR_NOT_ALL_ASSIGNED); the generated stub clears it before the call.
            if (!AdjustTokenPrivileges(token, false, &tp, (uint)sizeof(TokenPrivileges), null, null)) return Marshal.GetLastPInvokeError();
            return Marshal.GetLastPInvokeError();
        }
        finally
        {
            Kernel32.CloseHandle(token);
        }
    }

    /// <summary>TOKEN_PRIVILEGES with one LUID_AND_ATTRIBUTES (16 bytes).</summary>
    [StructLayout(LayoutKind.Sequential, Pack = 4)]
    private struct TokenPrivileges
    {
        public uint PrivilegeCount;
        public long Luid;
        public uint Attributes;
    }

    [LibraryImport("advapi32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool OpenProcessToken(nint process, uint access, out nint token);

    [LibraryImport("advapi32.dll", EntryPoint = "LookupPrivilegeValueW", StringMarshalling = StringMarshalling.Utf16, SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool LookupPrivilegeValue(string? systemName, string name, out long luid);

    [LibraryImport("advapi32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool AdjustTokenPrivileges(nint token, [MarshalAs(UnmanagedType.Bool)] bool disableAll, TokenPrivileges* newState, uint length, TokenPrivileges* previous, uint* returnLength);
}
