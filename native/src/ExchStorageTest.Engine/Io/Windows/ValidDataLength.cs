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
internal static unsafe class ValidDataLength
{
    private const string ManageVolume = "SeManageVolumePrivilege";

    /// <summary>Enables SeManageVolumePrivilege for the process, once; later opens carry it.</summary>
    public static void EnablePrivilegeOnce() => Privileges.EnableOnce(ManageVolume);

    /// <summary>Reserves clusters and moves the valid data length to <paramref name="length"/>; says what was done.</summary>
    public static string Extend(SafeFileHandle file, long length)
    {
        var notes = new List<string>(2);
        long allocation = length;
        if (!Kernel32.SetFileInformationByHandle(file, Kernel32.FileAllocationInfo, &allocation, sizeof(long)))
            notes.Add($"FileAllocationInfo refused (Win32 error {Marshal.GetLastPInvokeError()}), clusters are allocated as the pages are written");
        else
            notes.Add("clusters reserved (FileAllocationInfo)");
        int privilegeError = Privileges.EnableOnce(ManageVolume);
        if (privilegeError != 0)
        {
            notes.Add($"SetFileValidData not used: SeManageVolumePrivilege is not held (Win32 error {privilegeError}; run elevated to create faster), so NTFS zero-fills ahead of the creation writes");
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
}
