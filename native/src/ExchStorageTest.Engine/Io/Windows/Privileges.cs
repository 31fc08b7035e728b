using System.Collections.Concurrent;
using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>
/// Enables a privilege the process token holds but has disabled (SeManageVolumePrivilege for
/// SetFileValidData, SeLockMemoryPrivilege for SetFileIoOverlappedRange), once per privilege. A
/// privilege the account does not hold cannot be enabled: the caller goes on without what needs it
/// and reports the error.
/// </summary>
[SupportedOSPlatform("windows")]
internal static unsafe partial class Privileges
{
    private const uint TokenAdjustPrivileges = 0x20;
    private const uint TokenQuery = 0x8;
    private const uint SePrivilegeEnabled = 0x2;

    private static readonly ConcurrentDictionary<string, int> Outcomes = new(StringComparer.Ordinal);

    /// <summary>0 when <paramref name="name"/> is enabled, else the Win32 error (ERROR_NOT_ALL_ASSIGNED: the account lacks it). Tried once.</summary>
    public static int EnableOnce(string name) => Outcomes.GetOrAdd(name, Enable);

    private static int Enable(string name)
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
