using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Reports
{
    /// <summary>
    /// The results files a path stands for: the file itself, or every results document in a folder tree (a run
    /// folder per host, a share of runs). The helper only looks directly inside a folder, so the module walks
    /// the tree and hands it the files.
    /// </summary>
    internal static class ResultsFiles
    {
        /// <summary>The schema name every results document carries near its top (docs/results-schema.md).</summary>
        public const string SchemaName = "exchstoragetest/results";

        // A folder of runs holds other JSON too (profiles, run.json, start files): only its head is read, which
        // keeps this fast on multi-megabyte results.
        private const int HeadChars = 4096;

        /// <summary>The results files of one absolute path, sorted; ResultsNotFound when there are none.</summary>
        public static IReadOnlyList<string> Resolve(string path)
        {
            if (File.Exists(path)) return new[] { path };
            if (!Directory.Exists(path))
                throw new StorageTestException(ErrorCodes.ResultsNotFound, $"The results file or folder '{path}' does not exist.", path);
            var found = JsonFiles(path).Where(IsResultsDocument).OrderBy(f => f, StringComparer.Ordinal).ToList();
            if (found.Count == 0)
                throw new StorageTestException("ResultsNotFound",
                    $"The folder '{path}' holds no ExchStorageTest results files (JSON with schema '{SchemaName}').", ErrorCategory.ObjectNotFound, path);
            return found;
        }

        private static IEnumerable<string> JsonFiles(string folder)
        {
            var pending = new Stack<string>();
            pending.Push(folder);
            while (pending.Count > 0)
            {
                string current = pending.Pop();
                string[] files, folders;
                try
                {
                    files = Directory.GetFiles(current, "*.json");
                    folders = Directory.GetDirectories(current);
                }
                catch (Exception ex) when (ex is UnauthorizedAccessException || ex is IOException)
                {
                    continue; // a subfolder we may not read holds nothing we can render
                }
                foreach (string file in files) yield return file;
                foreach (string sub in folders) pending.Push(sub);
            }
        }

        private static bool IsResultsDocument(string file)
        {
            try
            {
                using (var reader = new StreamReader(file))
                {
                    var head = new char[HeadChars];
                    int count = reader.ReadBlock(head, 0, head.Length);
                    return new string(head, 0, count).IndexOf(SchemaName, StringComparison.Ordinal) >= 0;
                }
            }
            catch (Exception ex) when (ex is UnauthorizedAccessException || ex is IOException)
            {
                return false;
            }
        }
    }
}
