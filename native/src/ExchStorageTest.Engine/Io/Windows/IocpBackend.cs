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
/// A file handle is associated with the port the first time a request for it is submitted; a
/// handle can belong to only one port, so each worker must open its own handles (as DiskSpd does).
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
    private nint[] _associated = new nint[16];
    private int _associatedCount;

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
            int error = EnsureAssociated(r.FileHandle);
            if (error != 0)
            {
                _immediate[_immediateCount++] = new IoCompletion(r.UserData, -error);
                continue;
            }
            int slot = _freeSlots[--_freeCount];
            _slotUserData[slot] = r.UserData;
            Win32Overlapped* ov = _slots.Prepare(slot, r.Offset);
            bool ok = r.Operation == IoOperation.Read
                ? Kernel32.ReadFile(r.FileHandle, (void*)r.Buffer, (uint)r.Length, null, ov)
                : Kernel32.WriteFile(r.FileHandle, (void*)r.Buffer, (uint)r.Length, null, ov);
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

    private int EnsureAssociated(nint handle)
    {
        for (int i = 0; i < _associatedCount; i++)
        {
            if (_associated[i] == handle) return 0;
        }
        if (Kernel32.CreateIoCompletionPort(handle, _port, 0, 0) == 0)
        {
            return Marshal.GetLastPInvokeError();
        }
        if (_associatedCount == _associated.Length) Array.Resize(ref _associated, _associated.Length * 2); // once per new file, not per I/O
        _associated[_associatedCount++] = handle;
        return 0;
    }

    /// <summary>Closes the port. In-flight I/O should be reaped first; the OVERLAPPEDs are freed here.</summary>
    public void Dispose()
    {
        if (_port != 0)
        {
            Kernel32.CloseHandle(_port);
            _port = 0;
        }
        _slots.Dispose();
    }
}
