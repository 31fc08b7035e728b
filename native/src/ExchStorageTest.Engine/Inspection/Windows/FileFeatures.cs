namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// What a file's or folder's attributes say of the features Exchange does not support under its data
/// (FILE_ATTRIBUTE_COMPRESSED, _ENCRYPTED, _INTEGRITY_STREAM, as GetFileAttributesW returns them); a folder's are
/// inherited by the files created in it.
/// </summary>
public sealed record FileFeatures(string? Compression, string? FileEncryption, string? IntegrityStreams)
{
    public static FileFeatures Of(string path, FileAttributes a) => new(
        a.HasFlag(FileAttributes.Compressed) ? $"NTFS compression on {path}" : null,
        a.HasFlag(FileAttributes.Encrypted) ? $"EFS encryption on {path}" : null,
        a.HasFlag(FileAttributes.IntegrityStream) ? $"ReFS integrity streams on {path}" : null);
}
