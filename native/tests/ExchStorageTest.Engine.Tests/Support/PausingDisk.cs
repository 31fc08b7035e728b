using System.Net.Sockets;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests;

/// <summary>
/// A disk that can be frozen and let go on demand: an nbdkit memory disk behind its pause filter, exposed by nbdfuse,
/// under an ext2 file system on a direct-I/O loop device. While paused every request to it hangs, as a disk does whose
/// controller is failing over. <see cref="Control"/> is the filter's socket: 'p' pauses, 'r' resumes (a fault script
/// can send them itself).
/// </summary>
public sealed class PausingDisk : IDisposable
{
    private readonly NbdFuseDisk _nbd;

    public PausingDisk(TestFolder dir, int sizeMiB = 160)
    {
        // A short socket path: a Unix socket's name is limited to 107 bytes, and test folders nest deep.
        Control = Path.Combine(Path.GetTempPath(), $"pause-{Guid.NewGuid():N}.sock"[..18]);
        _nbd = new NbdFuseDisk(dir, "--filter=pause", "memory", $"{sizeMiB}M", $"pause-control={Control}");
        try { FileSystem = new LoopFileSystem(dir, backingFile: _nbd.FilePath, name: "pausing", fileSystem: "ext2"); }
        catch
        {
            _nbd.Dispose();
            throw;
        }
    }

    public string Control { get; }
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
    /// A fault script (run by /bin/sh) that freezes the disk for <paramref name="seconds"/> and lets it go: one Python
    /// process holds the pause from the filter's answer to the resume, so no process start falls inside the freeze.
    /// </summary>
    public string FreezeScript(TestFolder dir, double seconds)
    {
        string path = dir.Combine("freeze.sh");
        string s = seconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        File.WriteAllText(path, $"""
            #!/bin/sh
            echo freezing
            python3 - <<'PY'
            import socket, time
            def send(c):
                s = socket.socket(socket.AF_UNIX); s.connect('{Control}'); s.send(c); return s.recv(1)
            send(b'p'); time.sleep({s}); send(b'r')
            PY
            echo resumed

            """);
        return path;
    }

    public void Dispose()
    {
        try { Send('r'); } catch (SocketException) { /* the filter is gone already */ }
        FileSystem.Dispose();
        _nbd.Dispose();
        try { File.Delete(Control); } catch (IOException) { }
    }
}
