using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>
/// Windows backend in DiskSpd's model: one private I/O completion port per worker, unbuffered
/// overlapped ReadFile/WriteFile, and batched GetQueuedCompletionStatusEx on the same thread, so no
/// completion ever crosses threads. OVERLAPPEDs are preallocated per slot (see
/// <see cref="OverlappedSlots"/>) and the request's UserData is found from the dequeued pointer.
/// </summary>
/// <remarks>
/// A handle can be associated with one completion port for its whole life, and a run builds new
/// workers (new ports) for every load phase: each tuning step, the measured window, each soft
/// recovery phase. So, as in DiskSpd, where every thread opens its own handle to each target, this
/// backend never associates the run's handles: the first request naming an attached file opens the
/// backend's own handle to it (same path and flags, see <see cref="WindowsFileOpener.OpenForPort"/>),
/// associates that with the port and closes it with the port. The run's handles stay free for the
/// synchronous paths (creation, replay, checksum), which .NET binds to its own thread-pool port.
/// That first request's latency includes the CreateFileW (once per file, worker and phase).
/// Each such handle is set to FILE_SKIP_COMPLETION_PORT_ON_SUCCESS: an I/O the file system finishes
/// inline (ReadFile/WriteFile return TRUE) then queues no packet, so it is completed here from its
/// OVERLAPPED and handed out by the next <see cref="Reap"/> like any other; a pending one still comes
/// through the port. And each handle is given the OVERLAPPED block with SetFileIoOverlappedRange, so
/// the kernel need not lock and map the OVERLAPPED on every I/O; that needs SeLockMemoryPrivilege
/// ("Lock pages in memory", not granted to Administrators by default): refused, the I/O goes on
/// without it and <see cref="Features"/> says why. Completions come in batches of up to 64 per
/// GetQueuedCompletionStatusEx. The backend runs on Windows and under Wine (the Wine suite);
/// its pure parts (layouts, NTSTATUS mapping, slot arithmetic) are tested everywhere.
/// </remarks>
[SupportedOSPlatform("windows")]
public sealed unsafe class IocpBackend : IIoBackend
{
    private const int BatchSize = 64;

    private readonly int _depth;
    private nint _port;
    private readonly OverlappedSlots _slots;
    private readonly ulong[] _slotUserData;
    private readonly int[] _freeSlots;
    private int _freeCount;
    private readonly IoRequest[] _staged;
    private int _stagedCount;
    private readonly IoCompletion[] _immediate; // failed at issue time: no packet will come
    private int _immediateCount;
    private int _outstanding;                   // issued, packet not yet dequeued
    private IReadOnlyList<IoFile> _files = Array.Empty<IoFile>();
    private PortFile[] _attached = Array.Empty<PortFile>();            // by the request's FileIndex
    private readonly Dictionary<nint, PortFile> _unattached = new();   // request's handle -> its port handle
    private readonly List<Microsoft.Win32.SafeHandles.SafeFileHandle> _opened = new();
    private readonly FeatureTally _skip = new(IoFeatureNames.SkipCompletionPortOnSuccess);
    private readonly FeatureTally _range = new(IoFeatureNames.OverlappedRange);

    public IocpBackend(int depth)
    {
        if (depth < 1) throw new ArgumentOutOfRangeException(nameof(depth));
        _depth = depth;
        _port = Kernel32.CreateIoCompletionPort(-1, 0, 0, 1);
        if (_port == 0)
        {
            int error = Marshal.GetLastPInvokeError();
            throw new EngineException("BackendUnavailable", ErrorCategories.ResourceUnavailable,
                $"CreateIoCompletionPort failed: Win32 error {error} ({IoErrors.Name(error)}).");
        }
        _slots = new OverlappedSlots(depth);
        _slotUserData = new ulong[depth];
        _freeSlots = new int[depth];
        for (int i = 0; i < depth; i++) _freeSlots[i] = depth - 1 - i;
        _freeCount = depth;
        _staged = new IoRequest[depth];
        _immediate = new IoCompletion[depth];
    }

    public string Name => "iocp";
    public int Depth => _depth;

    /// <summary>Remembers the files requests will name; their handles for this port are opened on first use.</summary>
    public void Attach(IReadOnlyList<IoFile> files, AlignedBuffer? buffers)
    {
        _files = files;
        _attached = new PortFile[files.Count];
    }

    /// <summary>Skipping the port on inline success and the locked OVERLAPPED range, over the handles this backend opened.</summary>
    public IReadOnlyList<IoFeature> Features => [_skip.Feature, _range.Feature];

    public bool TryQueue(in IoRequest request)
    {
        if (_stagedCount + _outstanding + _immediateCount >= _depth) return false;
        _staged[_stagedCount++] = request;
        return true;
    }

    public int Submit()
    {
        int n = _stagedCount;
        for (int i = 0; i < n; i++)
        {
            ref readonly IoRequest r = ref _staged[i];
            int error = PortHandle(r, out PortFile file);
            if (error != 0)
            {
                _immediate[_immediateCount++] = new IoCompletion(r.UserData, -error);
                continue;
            }
            int slot = _freeSlots[--_freeCount];
            _slotUserData[slot] = r.UserData;
            Win32Overlapped* ov = _slots.Prepare(slot, r.Offset);
            bool ok = r.Operation == IoOperation.Read
                ? Kernel32.ReadFile(file.Handle, (void*)r.Buffer, (uint)r.Length, null, ov)
                : Kernel32.WriteFile(file.Handle, (void*)r.Buffer, (uint)r.Length, null, ov);
            error = ok ? 0 : Marshal.GetLastPInvokeError();
            switch (IssuedIo.Classify(ok, file.SkipOnSuccess, error))
            {
                case IssueOutcome.DoneInline:
                    // The OVERLAPPED holds the outcome (status, bytes) as a dequeued packet would.
                    _freeSlots[_freeCount++] = slot;
                    _immediate[_immediateCount++] = new IoCompletion(r.UserData, NtStatus.CompletionResult((int)ov->Internal, (uint)ov->InternalHigh));
                    break;
                case IssueOutcome.Failed:
                    _freeSlots[_freeCount++] = slot;
                    _immediate[_immediateCount++] = new IoCompletion(r.UserData, error == Kernel32.ERROR_HANDLE_EOF ? 0 : -error);
                    break;
                default:
                    _outstanding++;
                    break;
            }
        }
        _stagedCount = 0;
        return n;
    }

    public int Reap(Span<IoCompletion> completions, int minComplete, int timeoutMs = 1000)
    {
        if (completions.IsEmpty) return 0;
        int n = Math.Min(_immediateCount, completions.Length);
        if (n > 0)
        {
            _immediate.AsSpan(0, n).CopyTo(completions);
            if (n < _immediateCount) _immediate.AsSpan(n, _immediateCount - n).CopyTo(_immediate);
            _immediateCount -= n;
        }
        int want = Math.Min(minComplete, Math.Min(completions.Length, n + _outstanding));
        long start = Environment.TickCount64;
        OverlappedEntry* entries = stackalloc OverlappedEntry[BatchSize];
        while (_outstanding > 0 && n < completions.Length)
        {
            uint wait = 0;
            if (n < want)
            {
                if (timeoutMs < 0) wait = Kernel32.INFINITE;
                else
                {
                    long left = timeoutMs - (Environment.TickCount64 - start);
                    wait = left > 0 ? (uint)left : 0;
                }
            }
            uint max = (uint)Math.Min(BatchSize, completions.Length - n);
            if (!Kernel32.GetQueuedCompletionStatusEx(_port, entries, max, out uint removed, wait, false))
            {
                int error = Marshal.GetLastPInvokeError();
                if (error == Kernel32.WAIT_TIMEOUT) break;
                throw new EngineException("IoBackendFailed", ErrorCategories.InvalidOperation,
                    $"GetQueuedCompletionStatusEx failed: Win32 error {error} ({IoErrors.Name(error)}).");
            }
            for (uint i = 0; i < removed; i++)
            {
                OverlappedEntry* e = entries + i;
                int slot = _slots.IndexOf(e->Overlapped);
                if (slot < 0) continue; // not ours (nothing else posts to this port)
                completions[n++] = new IoCompletion(_slotUserData[slot], NtStatus.CompletionResult((int)e->Internal, e->BytesTransferred));
                _freeSlots[_freeCount++] = slot;
                _outstanding--;
            }
            if (n >= want && removed < max) break; // drained what was ready
        }
        return n;
    }

    /// <summary>
    /// The handle to issue a request on: this backend's own handle to an attached file, opened and
    /// associated with the port on first use. A handle that belongs to no attached file is associated
    /// as given (its owner then keeps it to this one port). 0, or the Win32 error of the open or association.
    /// </summary>
    private int PortHandle(in IoRequest request, out PortFile file)
    {
        bool attached = (uint)request.FileIndex < (uint)_attached.Length;
        if (attached ? (file = _attached[request.FileIndex]).Handle != 0 : _unattached.TryGetValue(request.FileHandle, out file)) return 0;
        nint handle = request.FileHandle;
        if (attached)
        {
            var own = WindowsFileOpener.OpenForPort(_files[request.FileIndex], out int openError);
            if (own is null) return openError;
            _opened.Add(own);
            handle = own.DangerousGetHandle();
        }
        if (Kernel32.CreateIoCompletionPort(handle, _port, 0, 0) == 0) return Marshal.GetLastPInvokeError();
        file = new PortFile(handle, SkipPortOnSuccess(handle));
        LockOverlappedRange(handle);
        if (attached) _attached[request.FileIndex] = file; // once per file, not per I/O
        else _unattached.Add(request.FileHandle, file);
        return 0;
    }

    /// <summary>FILE_SKIP_COMPLETION_PORT_ON_SUCCESS (and no event signalling) for one handle; false when refused.</summary>
    private bool SkipPortOnSuccess(nint handle)
    {
        bool ok = Kernel32.SetFileCompletionNotificationModes(handle, Kernel32.FILE_SKIP_COMPLETION_PORT_ON_SUCCESS | Kernel32.FILE_SKIP_SET_EVENT_ON_HANDLE);
        _skip.Count(ok, ok ? null : $"SetFileCompletionNotificationModes refused: Win32 error {Marshal.GetLastPInvokeError()}; every I/O is reaped from the port");
        return ok;
    }

    /// <summary>SetFileIoOverlappedRange over the OVERLAPPED block for one handle, SeLockMemoryPrivilege enabled first where the account holds it.</summary>
    private void LockOverlappedRange(nint handle)
    {
        var setRange = SetFileIoOverlappedRange;
        if (setRange == null)
        {
            _range.Count(false, "kernel32 has no SetFileIoOverlappedRange (Windows has it since Windows 7; Wine does not); the kernel locks each I/O's OVERLAPPED");
            return;
        }
        int privilege = Privileges.EnableOnce("SeLockMemoryPrivilege");
        bool ok = setRange(handle, (byte*)_slots.Base, _slots.Bytes) != 0;
        string? reason = ok ? null
            : $"SetFileIoOverlappedRange refused: Win32 error {Marshal.GetLastSystemError()}"
              + (privilege != 0 ? $" (SeLockMemoryPrivilege, \"Lock pages in memory\", is not held: Win32 error {privilege})" : "")
              + "; the kernel locks each I/O's OVERLAPPED";
        _range.Count(ok, reason);
    }

    /// <summary>
    /// kernel32's SetFileIoOverlappedRange, or null where it is missing (Wine). Looked up rather than
    /// imported: a missing import throws on the worker's first I/O, and under Wine that exception alone
    /// held the worker for seconds.
    /// </summary>
    private static readonly delegate* unmanaged<nint, byte*, uint, int> SetFileIoOverlappedRange =
        NativeLibrary.TryLoad("kernel32.dll", out nint kernel32) && NativeLibrary.TryGetExport(kernel32, "SetFileIoOverlappedRange", out nint export)
            ? (delegate* unmanaged<nint, byte*, uint, int>)export
            : null;

    /// <summary>A handle associated with this port, and whether it skips the port when an I/O finishes inline.</summary>
    private readonly record struct PortFile(nint Handle, bool SkipOnSuccess);

    /// <summary>One feature over the handles this backend opened: used when every one of them took it.</summary>
    private sealed class FeatureTally(string name)
    {
        private int _handles, _accepted;
        private string? _reason;

        public void Count(bool accepted, string? reason)
        {
            _handles++;
            if (accepted) _accepted++;
            else _reason ??= reason;
        }

        public IoFeature Feature =>
            _handles == 0 ? IoFeature.Off(name, "no file was opened for I/O")
            : _accepted == _handles ? IoFeature.On(name)
            : IoFeature.Off(name, _reason!);
    }

    /// <summary>Closes this backend's file handles and the port. In-flight I/O should be reaped first; the OVERLAPPEDs are freed here.</summary>
    public void Dispose()
    {
        foreach (var h in _opened) h.Dispose();
        _opened.Clear();
        _unattached.Clear();
        _attached = Array.Empty<PortFile>();
        if (_port != 0)
        {
            Kernel32.CloseHandle(_port);
            _port = 0;
        }
        _slots.Dispose();
    }
}
