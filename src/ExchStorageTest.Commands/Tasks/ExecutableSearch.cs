using System;
using System.IO;
using System.Linq;

namespace ExchStorageTest.Tasks
{
    /// <summary>Finds a program the way a shell does: the first file of that name in a folder on PATH.</summary>
    internal static class ExecutableSearch
    {
        public static string? OnPath(string name)
        {
            string path = Environment.GetEnvironmentVariable("PATH") ?? "";
            return path.Split(new[] { Path.PathSeparator }, StringSplitOptions.RemoveEmptyEntries)
                .Select(folder => Path.Combine(folder.Trim(), name))
                .FirstOrDefault(File.Exists);
        }
    }
}
