using System;
using System.Collections;
using System.IO;
using System.IO.Compression;
using System.Management.Automation;
using System.Management.Automation.Runspaces;
using ExchStorageTest.Input;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// Files to and from a host through its runspace, in base64 chunks: the module and its engine when a host lacks
    /// them, and each host's results JSON back to this computer. It needs no Copy-Item -ToSession/-FromSession (a
    /// PSSession object, not a bare runspace) and works over WinRM and SSH alike.
    /// </summary>
    internal static class RemoteFiles
    {
        // Well under WinRM's default 10 MB per received object, as base64.
        private const int ChunkBytes = 1024 * 1024;

        private const string WriteChunk = @"
param([string] $Path, [string] $Data, [bool] $Append)
if (-not $Append) { $null = [IO.Directory]::CreateDirectory([IO.Path]::GetDirectoryName($Path)) }
$bytes = [Convert]::FromBase64String($Data)
$mode = [IO.FileMode]::Create
if ($Append) { $mode = [IO.FileMode]::Append }
$stream = [IO.File]::Open($Path, $mode, [IO.FileAccess]::Write, [IO.FileShare]::None)
try { $stream.Write($bytes, 0, $bytes.Length) } finally { $stream.Dispose() }
";

        // The packed copy becomes the file on the host, and goes: a file that exists is whole.
        private const string Unpack = @"
param([string] $Packed, [string] $Path)
$in = [IO.File]::OpenRead($Packed)
try {
    $gzip = New-Object IO.Compression.GZipStream($in, [IO.Compression.CompressionMode]::Decompress)
    try {
        $out = [IO.File]::Open($Path, [IO.FileMode]::Create, [IO.FileAccess]::Write, [IO.FileShare]::None)
        try { $gzip.CopyTo($out) } finally { $out.Dispose() }
    }
    finally { $gzip.Dispose() }
}
finally { $in.Dispose() }
[IO.File]::Delete($Packed)
";

        private const string ReadChunk = @"
param([string] $Path, [long] $Offset, [int] $Count)
$stream = [IO.File]::Open($Path, [IO.FileMode]::Open, [IO.FileAccess]::Read, [IO.FileShare]::ReadWrite)
try {
    $null = $stream.Seek($Offset, [IO.SeekOrigin]::Begin)
    $buffer = [byte[]]::new($Count)
    $read = $stream.Read($buffer, 0, $Count)
    @{ Length = $stream.Length; Data = [Convert]::ToBase64String($buffer, 0, $read) }
}
finally { $stream.Dispose() }
";

        /// <summary>
        /// Writes a local file to the host (replacing a file of that name there), gzip-compressed on the way: the module's
        /// engine is a self-contained .NET runtime of about 73 MB that packs to about a third, and every byte sent costs
        /// base64, the transport's encryption and the remoting layer's serialization on both computers. The packed bytes
        /// go to &lt;path&gt;.gz.partial in chunks, then the host unpacks them into the file and deletes the partial.
        /// </summary>
        public static void Send(Runspace runspace, Func<bool> stopping, string localPath, string remotePath)
        {
            byte[] packed;
            using (var memory = new MemoryStream())
            {
                using (var gzip = new GZipStream(memory, CompressionLevel.Fastest, leaveOpen: true))
                using (var source = File.OpenRead(localPath))
                    source.CopyTo(gzip);
                packed = memory.ToArray();
            }
            string partial = remotePath + ".gz.partial";
            for (int offset = 0; ; offset += ChunkBytes)
            {
                int count = Math.Min(ChunkBytes, packed.Length - offset);
                RemoteScript.Invoke(runspace, stopping, WriteChunk, RemoteScript.DefaultTimeout, partial, Convert.ToBase64String(packed, offset, count), offset > 0);
                if (offset + count >= packed.Length) break;
            }
            RemoteScript.Invoke(runspace, stopping, Unpack, RemoteScript.DefaultTimeout, partial, remotePath);
        }

        /// <summary>Copies a file of the host to a new local file; never replaces one (the local file is created new).</summary>
        public static void Fetch(Runspace runspace, Func<bool> stopping, string remotePath, string localPath)
        {
            using (var target = new FileStream(localPath, FileMode.CreateNew, FileAccess.Write, FileShare.None))
            {
                try
                {
                    long offset = 0, length;
                    do
                    {
                        var answer = RemoteScript.Invoke(runspace, stopping, ReadChunk, RemoteScript.DefaultTimeout, remotePath, offset, ChunkBytes);
                        if (answer.Count == 0 || !(SettingSource.Unwrap(answer[0]) is IDictionary chunk))
                            throw new InvalidOperationException($"the host returned nothing for '{remotePath}'.");
                        length = LanguagePrimitives.ConvertTo<long>(chunk["Length"]);
                        byte[] bytes = Convert.FromBase64String(SettingSource.Unwrap(chunk["Data"])?.ToString() ?? "");
                        if (bytes.Length == 0 && offset < length) throw new IOException($"'{remotePath}' ended early on the host.");
                        target.Write(bytes, 0, bytes.Length);
                        offset += bytes.Length;
                    }
                    while (offset < length);
                }
                catch
                {
                    // Only the partial copy made here is removed.
                    target.Dispose();
                    File.Delete(localPath);
                    throw;
                }
            }
        }
    }
}
