using System;
using System.IO;
using System.Management.Automation;
using System.Text;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Profiles
{
    /// <summary>
    /// A profile saved by New-MailboxProfile -SaveTo and read by Invoke-StorageTest -ProfilePath: UTF-8 JSON
    /// without a byte order mark, the engine's camelCase profile plus a schema marker, so the engine and other
    /// tools can read it too.
    /// </summary>
    internal static class ProfileFile
    {
        public const string Schema = "exchstoragetest/profile";

        public static MailboxProfile Load(string path)
        {
            if (!File.Exists(path))
                throw new StorageTestException(ErrorCodes.ProfileNotFound, $"The profile file '{path}' does not exist. Create one with: New-MailboxProfile ... -SaveTo '{path}'", path);
            object? parsed;
            try
            {
                parsed = JsonReader.Parse(File.ReadAllText(path));
            }
            catch (FormatException ex)
            {
                throw new StorageTestException(ErrorCodes.ProfileMalformed, $"The profile file '{path}' is not valid JSON: {ex.Message}", path, ex);
            }
            if (!(parsed is JsonObject settings))
                throw new StorageTestException(ErrorCodes.ProfileMalformed, $"The profile file '{path}' does not hold a JSON object with profile settings.", path);
            return ProfileReader.Read(settings);
        }

        /// <summary>Checks that <paramref name="path"/> can take the profile, before ShouldProcess is asked.</summary>
        public static void CheckTarget(string path, bool force)
        {
            string? folder = Path.GetDirectoryName(path);
            if (!string.IsNullOrEmpty(folder) && !Directory.Exists(folder))
                throw new StorageTestException(ErrorCodes.SaveFolderNotFound, $"Cannot save the profile to '{path}': the folder '{folder}' does not exist.", path);
            if (Directory.Exists(path))
                throw new StorageTestException(ErrorCodes.ProfileExists, $"Cannot save the profile to '{path}': it is a folder. Give a file name, for example '{Path.Combine(path, "profile.json")}'.", path);
            if (File.Exists(path) && !force)
                throw new StorageTestException(ErrorCodes.ProfileExists, $"The profile file '{path}' already exists. Use -Force to overwrite it.", path);
        }

        public static void Save(MailboxProfile profile, string path)
        {
            var document = new JsonObject().Set("schema", Schema).Set("schemaVersion", 1);
            foreach (var member in profile.ToJson()) document.Set(member.Key, member.Value);
            File.WriteAllText(path, JsonWriter.Write(document, indented: true) + "\n", new UTF8Encoding(false));
        }
    }
}
