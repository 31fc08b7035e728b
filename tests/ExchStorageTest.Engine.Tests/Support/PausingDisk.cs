using System.Net.Sockets;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests;

/// <summary>
/// A disk that can be frozen and let go, and whose writes can be made to fail, on demand: an nbdkit memory disk behind
/// its pause and error filters, exposed by nbdfuse, under an ext2 file system on a direct-I/O loop device. While paused
/// every request to it hangs, as a disk does whose controller is failing over; while <see cref="WriteFailTrigger"/>
/// exists every write fails with EIO, as on a path that errors out. <see cref="Control"/> is the pause filter's socket:
/// 'p' pauses, 'r' resumes. A fault script can do either itself.
/// </summary>
public sealed class PausingDisk : IDisposable
{
    private readonly NbdFuseDisk _nbd;

    public PausingDisk(TestFolder dir, int sizeMiB = 160)
    {
        // A short socket path: a Unix socket's name is limited to 107 bytes, and test folders nest deep.
        Control = Path.Combine(Path.GetTempPath(), $"pause-{Guid.NewGuid():N}.sock"[..18]);
        WriteFailTrigger = dir.Combine("fail-writes");
        _nbd = new NbdFuseDisk(dir, "--filter=error", "--filter=pause", "memory", $"{sizeMiB}M", $"pause-control={Control}",
            "error-pwrite-rate=100%", $"error-pwrite-file={WriteFailTrigger}", "error=EIO");
        try { FileSystem = new LoopFileSystem(dir, backingFile: _nbd.FilePath, name: "pausing", fileSystem: "ext2"); }
        catch
        {
            _nbd.Dispose();
            throw;
        }
    }

    public string Control { get; }
    /// <summary>While this file exists, every write to the disk fails with EIO.</summary>
    public string WriteFailTrigger { get; }
    public LoopFileSystem FileSystem { get; }

    /// <summary>Sends one command to the filter and waits for its answer (a pause answers once the requests before it are done).</summary>
    public void Send(char command)
    {
        using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        socket.Connect(new UnixDomainSocketEndPoint(Control));
        socket.Send(new[] { (byte)command });
        var answer = new byte[1];
        socket.ReceiveTimeout = 30_000;
        socket.Receive(answer);
    }

    /// <summary>
    /// A fault script (run by /bin/sh): writes fail for <paramref name="failSeconds"/>, then after <paramref name="quietSeconds"/>
    /// more the disk freezes for <paramref name="freezeSeconds"/> (0: no freeze).
    /// </summary>
    public string FailThenFreezeScript(TestFolder dir, double failSeconds, double quietSeconds, double freezeSeconds)
    {
        string path = dir.Combine("fail.sh");
        string N(double x) => x.ToString(System.Globalization.CultureInfo.InvariantCulture);
        File.WriteAllText(path, $"""
            #!/bin/sh
            touch '{WriteFailTrigger}'; echo writes failing
            sleep {N(failSeconds)}; rm -f '{WriteFailTrigger}'; echo writes healed
            sleep {N(quietSeconds)}
            python3 - <<'PY'
            import socket, time
            def send(c):
                s = socket.socket(socket.AF_UNIX); s.connect('{Control}'); s.send(c); return s.recv(1)
            if {N(freezeSeconds)} > 0:
                send(b'p'); time.sleep({N(freezeSeconds)}); send(b'r')
            PY
            echo done

            """);
        return path;
    }

    /// <summary>
    /// A fault script (run by /bin/sh) that freezes the disk for <paramref name="seconds"/> and lets it go: one Python
    /// process holds the pause from the filter's answer to the resume, so no process start falls inside the freeze.
    /// <paramref name="uncacheFolder"/>: the files under it leave the page cache once the disk is frozen (under Wine,
    /// which does not honour unbuffered I/O, reads then reach the frozen disk as they would on Windows).
    /// </summary>
    public string FreezeScript(TestFolder dir, double seconds, string? uncacheFolder = null)
    {
        string path = dir.Combine("freeze.sh");
        string s = seconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        File.WriteAllText(path, $"""
            #!/bin/sh
            echo freezing
            python3 - <<'PY'
            import os, socket, threading, time
            def send(c):
                s = socket.socket(socket.AF_UNIX); s.connect('{Control}'); s.send(c); return s.recv(1)
            send(b'p')
            def uncache(folder):
                for root, _, files in os.walk(folder):
                    for f in files:
                        fd = os.open(os.path.join(root, f), os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED); os.close(fd)
            # Apart from the pause's clock: dropping a file's dirty pages starts their writeback, which waits for the frozen disk.
            if '{uncacheFolder ?? ""}': threading.Thread(target=uncache, args=('{uncacheFolder ?? ""}',), daemon=True).start()
            time.sleep({s}); send(b'r')
            PY
            echo resumed

            """);
        return path;
    }

    public void Dispose()
    {
        try { File.Delete(WriteFailTrigger); } catch (IOException) { }
        try { Send('r'); } catch (SocketException) { /* the filter is gone already */ }
        FileSystem.Dispose();
        _nbd.Dispose();
        try { File.Delete(Control); } catch (IOException) { }
    }
}
