using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace ExchStorageTest.Tasks
{
    /// <summary>
    /// What a registration wrote, so that a registration the scheduler refuses takes it all back: a file it
    /// created is deleted, a file it replaced (its own earlier runner or units, with -Force) gets its earlier
    /// content back, a folder it created is removed when empty. Nothing it did not write is touched, and a
    /// refused registration leaves the computer as it found it, so the next Register needs no -Force or Unregister.
    /// </summary>
    internal sealed class TaskWrites
    {
        private readonly List<Action> _undo = new List<Action>();
        private readonly StringBuilder _failures = new StringBuilder();

        /// <summary>Creates <paramref name="folder"/> and the folders above it that are missing.</summary>
        public void CreateFolder(string folder)
        {
            var missing = new List<string>();
            for (string? f = Path.GetFullPath(folder); !string.IsNullOrEmpty(f) && !Directory.Exists(f); f = Path.GetDirectoryName(f))
                missing.Add(f!);
            Directory.CreateDirectory(folder);
            // Deepest first when undone (the undo list runs backwards): each folder is empty once its files are gone.
            for (int i = missing.Count - 1; i >= 0; i--)
            {
                string created = missing[i];
                _undo.Add(() => { if (Directory.Exists(created) && Directory.GetFileSystemEntries(created).Length == 0) Directory.Delete(created); });
            }
        }

        public void WriteFile(string path, string text, Encoding encoding)
        {
            byte[]? before = File.Exists(path) ? File.ReadAllBytes(path) : null;
            _undo.Add(before == null ? () => { if (File.Exists(path)) File.Delete(path); } : () => File.WriteAllBytes(path, before));
            File.WriteAllText(path, text, encoding);
        }

        /// <summary>
        /// Takes back every write not taken back yet, latest first; what could not be, by this or an earlier call, is
        /// named in the result (empty when all was).
        /// </summary>
        public string Undo()
        {
            for (int i = _undo.Count - 1; i >= 0; i--)
            {
                try
                {
                    _undo[i]();
                }
                catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
                {
                    _failures.Append(' ').Append(ex.Message);
                }
            }
            _undo.Clear();
            return _failures.ToString().Trim();
        }
    }
}
