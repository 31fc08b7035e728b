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
/// FILE_SKIP_COMPLETION_PORT_ON_SUCCESS is not set: every I/O, even one that finished inline, is
/// reaped from the port, so latency accounting has one path. Not executed on the Linux build hosts:
/// only its pure parts (layouts, NTSTATUS mapping, slot arithmetic) are tested there.
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
    private readonly Dictionary<nint, nint> _portHandles = new(); // request's handle -> the handle associated with _port
    private readonly List<Microsoft.Win32.SafeHandles.SafeFileHandle> _opened = new();

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
    public void Attach(IReadOnlyList<IoFile> files) => _files = files;

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
            int error = PortHandle(r.FileHandle, out nint handle);
            if (error != 0)
            {
                _immediate[_immediateCount++] = new IoCompletion(r.UserData, -error);
                continue;
            }
            int slot = _freeSlots[--_freeCount];
            _slotUserData[slot] = r.UserData;
            Win32Overlapped* ov = _slots.Prepare(slot, r.Offset);
            bool ok = r.Operation == IoOperation.Read
                ? Kernel32.ReadFile(handle, (void*)r.Buffer, (uint)r.Length, null, ov)
                : Kernel32.WriteFile(handle, (void*)r.Buffer, (uint)r.Length, null, ov);
            if (!ok)
            {
                error = Marshal.GetLastPInvokeError();
                if (error != Kernel32.ERROR_IO_PENDING)
                {
                    // Failed before it was queued (misaligned, EOF, bad handle): no packet will arrive.
                    _freeSlots[_freeCount++] = slot;
                    _immediate[_immediateCount++] = new IoCompletion(r.UserData, error == Kernel32.ERROR_HANDLE_EOF ? 0 : -error);
                    continue;
                }
            }
            _outstanding++; // pending, or done inline: either way a packet is queued to the port
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
    private int PortHandle(nint requestHandle, out nint handle)
    {
        if (_portHandles.TryGetValue(requestHandle, out handle)) return 0;
        handle = requestHandle;
        foreach (var file in _files)
        {
            if (file.RawHandle != requestHandle) continue;
            var own = WindowsFileOpener.OpenForPort(file, out int openError);
            if (own is null) return openError;
            _opened.Add(own);
            handle = own.DangerousGetHandle();
            break;
        }
        if (Kernel32.CreateIoCompletionPort(handle, _port, 0, 0) == 0) return Marshal.GetLastPInvokeError();
        _portHandles.Add(requestHandle, handle); // once per file, not per I/O
        return 0;
    }

    /// <summary>Closes this backend's file handles and the port. In-flight I/O should be reaped first; the OVERLAPPEDs are freed here.</summary>
    public void Dispose()
    {
        foreach (var h in _opened) h.Dispose();
        _opened.Clear();
        _portHandles.Clear();
        if (_port != 0)
        {
            Kernel32.CloseHandle(_port);
            _port = 0;
        }
        _slots.Dispose();
    }
}
