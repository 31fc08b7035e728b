using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Io.Windows;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Io;

/// <summary>
/// The parts of the Windows backend that do not need Windows: struct layouts, NTSTATUS mapping,
/// slot arithmetic, open-error mapping. The backend itself only runs on Windows.
/// </summary>
public unsafe class IocpPureTests
{
    [Fact]
    public void NativeStructsMatchTheWindowsX64Layout()
    {
        Assert.True(Environment.Is64BitProcess);
        Assert.Equal(32, sizeof(Win32Overlapped));
        Assert.Equal(16, (int)Marshal.OffsetOf<Win32Overlapped>(nameof(Win32Overlapped.Offset)));
        Assert.Equal(20, (int)Marshal.OffsetOf<Win32Overlapped>(nameof(Win32Overlapped.OffsetHigh)));
        Assert.Equal(24, (int)Marshal.OffsetOf<Win32Overlapped>(nameof(Win32Overlapped.Event)));
        Assert.Equal(32, sizeof(OverlappedEntry));
        Assert.Equal(8, (int)Marshal.OffsetOf<OverlappedEntry>(nameof(OverlappedEntry.Overlapped)));
        Assert.Equal(16, (int)Marshal.OffsetOf<OverlappedEntry>(nameof(OverlappedEntry.Internal)));
        Assert.Equal(24, (int)Marshal.OffsetOf<OverlappedEntry>(nameof(OverlappedEntry.BytesTransferred)));
        Assert.Equal(28, sizeof(FileStorageInfo));
    }

    [Theory]
    [InlineData(0xC000007F, 112)]  // STATUS_DISK_FULL -> ERROR_DISK_FULL
    [InlineData(0xC0000185, 1117)] // STATUS_IO_DEVICE_ERROR -> ERROR_IO_DEVICE
    [InlineData(0xC000009C, 23)]   // STATUS_DEVICE_DATA_ERROR -> ERROR_CRC
    [InlineData(0xC000000D, 87)]   // STATUS_INVALID_PARAMETER (misaligned unbuffered I/O)
    [InlineData(0xC0000120, 995)]  // STATUS_CANCELLED -> ERROR_OPERATION_ABORTED
    [InlineData(0xC00000A3, 21)]   // STATUS_DEVICE_NOT_READY -> ERROR_NOT_READY
    [InlineData(0xC0001234, 317)]  // unknown -> ERROR_MR_MID_NOT_FOUND, as ntdll answers
    public void NtStatusMapsToTheWin32Error(uint status, int win32) => Assert.Equal(win32, NtStatus.FromTable(unchecked((int)status)));

    [Theory]
    [InlineData(true, true, 0, "DoneInline")]   // inline success, the handle skips the port: no packet will come
    [InlineData(true, false, 0, "Pending")]     // inline success without skipping: its packet still comes
    [InlineData(false, true, 997, "Pending")]   // ERROR_IO_PENDING
    [InlineData(false, false, 997, "Pending")]
    [InlineData(false, true, 87, "Failed")]     // refused at issue (misaligned): no packet either way
    [InlineData(false, false, 38, "Failed")]    // ERROR_HANDLE_EOF
    public void An_issued_io_is_completed_once_whichever_way_it_finished(bool ok, bool skipsPort, int error, string outcome) =>
        Assert.Equal(outcome, IssuedIo.Classify(ok, skipsPort, error).ToString());

    [Fact]
    public void MappingTableIsOneToOne() => Assert.Equal(NtStatus.KnownStatuses.Length, NtStatus.KnownWin32Errors.Length);

    [Fact]
    public void CompletionResultIsBytesOrNegativeWin32Error()
    {
        Assert.Equal(32768, NtStatus.CompletionResult(0, 32768));
        Assert.Equal(0, NtStatus.CompletionResult(NtStatus.EndOfFile, 0)); // EOF reads as 0 bytes, like pread
        if (!OperatingSystem.IsWindows())
        {
            Assert.Equal(-112, NtStatus.CompletionResult(unchecked((int)0xC000007F), 0));
            Assert.Equal(-1117, NtStatus.CompletionResult(unchecked((int)0xC0000185), 0));
        }
    }

    [Fact]
    public void OverlappedPointerLeadsBackToItsSlot()
    {
        using var slots = new OverlappedSlots(32);
        for (int i = 0; i < 32; i++)
        {
            Win32Overlapped* ov = slots.PointerOf(i);
            Assert.Equal(i * 32L, (byte*)ov - (byte*)slots.Base);
            Assert.Equal(i, slots.IndexOf(ov));
        }
        Assert.Equal(-1, slots.IndexOf((Win32Overlapped*)((byte*)slots.Base + 8)));   // inside a slot
        Assert.Equal(-1, slots.IndexOf(slots.Base + 32));                        // one past the end
        Assert.Equal(-1, slots.IndexOf(slots.Base - 1));                         // before the block
        Assert.Equal(0, (long)slots.Base % 64);
    }

    [Fact]
    public void PrepareSplitsTheOffsetAndClearsStaleState()
    {
        using var slots = new OverlappedSlots(2);
        Win32Overlapped* ov = slots.PointerOf(1);
        ov->Internal = 0x103; // STATUS_PENDING left from a previous I/O
        ov->Event = 42;
        Win32Overlapped* p = slots.Prepare(1, 0x1_2345_6000L);
        Assert.True(p == ov);
        Assert.Equal(0x2345_6000u, ov->Offset);
        Assert.Equal(0x1u, ov->OffsetHigh);
        Assert.Equal(0, ov->Internal);
        Assert.Equal(0, ov->Event);
    }

    [Theory]
    [InlineData(2, "FileOpenFailed", ErrorCategories.ObjectNotFound)]
    [InlineData(3, "FileOpenFailed", ErrorCategories.ObjectNotFound)]
    [InlineData(5, "FileOpenFailed", ErrorCategories.PermissionDenied)]
    [InlineData(80, "FileExists", ErrorCategories.ResourceUnavailable)]
    [InlineData(112, "FileOpenFailed", ErrorCategories.ResourceUnavailable)]
    [InlineData(1117, "FileOpenFailed", ErrorCategories.WriteError)]
    public void OpenErrorsMapLikeTheLinuxPath(int error, string code, string category)
    {
        (string c, string cat) = WindowsFileOpener.MapOpenError(error);
        Assert.Equal(code, c);
        Assert.Equal(category, cat);
        EngineException e = WindowsFileOpener.OpenFailure(@"D:\db\x.edb", error);
        Assert.Contains(@"D:\db\x.edb", e.Message, StringComparison.Ordinal);
    }
}
