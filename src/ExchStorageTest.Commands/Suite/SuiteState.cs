using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System.Text;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Suite
{
    /// <summary>
    /// The state file of an ESRP suite (<c>&lt;suite&gt;/suite.json</c>): the profile the suite runs, and per test
    /// (in ESRP order) its folder, state and outcome. It is written before each test starts and after it ends, so
    /// a suite stopped by Ctrl+C, a closed console or a lost host resumes with the first test that did not
    /// complete. The schema is documented in docs/esrp.md. A file of that name that is not ours is never
    /// replaced; one written for another profile is refused.
    /// </summary>
    internal sealed class SuiteState
    {
        public const string Schema = "exchstoragetest/suite";
        public const string FileName = "suite.json";
        private const string DocumentField = "document";

        /// <summary>The four ESRP tests, in the order they run on one database set.</summary>
        public static readonly string[] Order = EsrpTests.Order.Select(t => t.ToString()).ToArray();

        private SuiteState(string path, string suiteId, DateTime createdUtc, JsonObject profile, List<SuiteTest> tests)
        {
            Path = path;
            SuiteId = suiteId;
            CreatedUtc = createdUtc;
            Profile = profile;
            Tests = tests;
        }

        public string Path { get; }
        public string Folder => System.IO.Path.GetDirectoryName(Path) ?? "";
        public string SuiteId { get; }
        public DateTime CreatedUtc { get; }
        /// <summary>The profile as the engine gets it: a resumed suite must run the same one.</summary>
        public JsonObject Profile { get; }
        public List<SuiteTest> Tests { get; }

        /// <summary>The ESRP document written when the suite completed (its files as the engine named their kinds), or null.</summary>
        public SuiteDocument? Document { get; set; }

        /// <summary>The first test that did not complete (a failing verdict is complete: it measured), or null when all did.</summary>
        public SuiteTest? Next => Tests.FirstOrDefault(t => t.State != SuiteTest.Complete);

        public static SuiteState New(string folder, JsonObject profile) =>
            new SuiteState(System.IO.Path.Combine(folder, FileName), RunIds.New(DateTime.UtcNow), DateTime.UtcNow, profile,
                Order.Select((type, i) => new SuiteTest { Step = i + 1, TestType = type, Folder = $"{i + 1}-{type}", State = SuiteTest.NotRun }).ToList());

        /// <summary>The state in <paramref name="folder"/>, or null when the suite has not started there.</summary>
        public static SuiteState? Read(string folder)
        {
            string path = System.IO.Path.Combine(folder, FileName);
            if (!File.Exists(path)) return null;
            JsonObject? document;
            try
            {
                document = JsonReader.Parse(File.ReadAllText(path, Encoding.UTF8)) as JsonObject;
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException || ex is FormatException)
            {
                throw NotOurs(path, ex.Message);
            }
            if (document == null || document.GetString("schema") != Schema || !(document.GetObject("profile") is JsonObject profile))
                throw NotOurs(path, $"it has no \"schema\": \"{Schema}\" with the suite's profile");
            var tests = new List<SuiteTest>();
            foreach (JsonObject t in document.GetArray("tests").OfType<JsonObject>())
                tests.Add(SuiteTest.FromJson(t, folder));
            if (!tests.Select(t => t.TestType).SequenceEqual(Order))
                throw NotOurs(path, $"its tests are not {string.Join(", ", Order)}");
            return new SuiteState(path, document.GetString("suiteId") ?? "", UtcTime.Parse(document.GetString("createdUtc")) ?? DateTime.MinValue, profile, tests)
            {
                Document = SuiteDocument.FromJson(document.GetObject(DocumentField), folder),
            };
        }

        private static StorageTestException NotOurs(string path, string why) =>
            new StorageTestException(ErrorCodes.SuiteStateInvalid,
                $"'{path}' is not an ExchStorageTest suite state file ({why}). It is left untouched: move it away or give -OutputPath another folder.",
                path);

        /// <summary>Refuses to resume with another profile than the suite's: its tests must run on one database set.</summary>
        public void CheckProfile(JsonObject profile)
        {
            string mine = JsonWriter.Write(Profile), theirs = JsonWriter.Write(profile);
            if (mine == theirs) return;
            throw new StorageTestException(ErrorCodes.SuiteProfileMismatch,
                $"The suite in '{Folder}' was started with another profile ({Describe(Profile)}; now {Describe(profile)}). " +
                "Its tests must run on one database set: run it with the same profile, or give -OutputPath a new folder for another suite.",
                Folder);
        }

        private static string Describe(JsonObject p) =>
            $"'{p.GetString(ProfileFields.Name)}', {p.GetString(ProfileFields.MailboxCount)} mailboxes in {p.GetString(ProfileFields.DatabaseCount)} databases at {string.Join(", ", p.GetArray(ProfileFields.DatabasePaths))}";

        /// <summary>Writes the state through a temporary file, so a reader (or a crash) never sees half of it.</summary>
        public void Save()
        {
            var document = new JsonObject()
                .Set("schema", Schema)
                .Set("schemaVersion", 1)
                .Set("suiteId", SuiteId)
                .Set("createdUtc", UtcTime.Iso(CreatedUtc))
                .Set("updatedUtc", UtcTime.Iso(DateTime.UtcNow))
                .Set("profile", Profile)
                .Set("tests", Tests.Select(t => (object?)t.ToJson(Folder)).ToList());
            if (Document != null) document.Set(DocumentField, Document.ToJson(Folder));
            string temporary = Path + ".partial";
            try
            {
                File.WriteAllText(temporary, JsonWriter.Write(document, indented: true) + "\n", new UTF8Encoding(false));
                RetryingSharingViolations(() =>
                {
                    if (File.Exists(Path)) File.Replace(temporary, Path, null);
                    else File.Move(temporary, Path);
                }, SharingRetries, SharingRetryDelay);
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
            {
                throw new StorageTestException(ErrorCodes.SuiteStateNotWritable, $"The suite state file '{Path}' cannot be written: {ex.Message}", Path, ex);
            }
        }

        /// <summary>How often a replace Windows refused for another process's open handle is tried, and how long apart (2 s in all).</summary>
        internal const int SharingRetries = 20;
        internal static readonly TimeSpan SharingRetryDelay = TimeSpan.FromMilliseconds(100);

        /// <summary>
        /// Runs <paramref name="replace"/>, again after <paramref name="delay"/> while Windows refuses it because another
        /// process has the file open (a sharing or lock violation), up to <paramref name="tries"/> times in all. The state
        /// file is replaced after every test of a suite that runs for hours, while others may read it for a moment: an
        /// antivirus scanner, a search indexer, an admin's viewer or script (under Wine a reader was refused while the
        /// suite replaced it). Any other failure, and the last refusal, goes to the caller.
        /// </summary>
        internal static void RetryingSharingViolations(Action replace, int tries, TimeSpan delay) =>
            Transient.Retry(() => { replace(); return true; }, ex => ex is IOException io && IsSharingViolation(io), tries, delay);

        /// <summary>
        /// ERROR_SHARING_VIOLATION (32), ERROR_LOCK_VIOLATION (33) or ReplaceFile's ERROR_UNABLE_TO_REMOVE_REPLACED (1175,
        /// the old file is open without delete sharing; both files are left as they were), as .NET gives them on Windows
        /// (HRESULT_FROM_WIN32). Elsewhere an IOException's HResult is an errno, never one of these.
        /// </summary>
        internal static bool IsSharingViolation(IOException ex) =>
            ex.HResult == unchecked((int)0x80070020) || ex.HResult == unchecked((int)0x80070021) || ex.HResult == unchecked((int)0x80070497);
    }

    /// <summary>The ESRP document of a completed suite: its files (text and HTML) and the HTML page among them.</summary>
    internal sealed class SuiteDocument
    {
        public SuiteDocument(string[] files, string? html)
        {
            Files = files;
            Html = html;
        }

        public string[] Files { get; }
        public string? Html { get; }

        /// <summary>Relative to the suite folder, as the tests' results paths are.</summary>
        public JsonObject ToJson(string folder) => new JsonObject()
            .Set("files", Files.Select(f => (object?)SuiteTest.Relative(folder, f)).ToList())
            .Set("html", Html == null ? null : SuiteTest.Relative(folder, Html));

        public static SuiteDocument? FromJson(JsonObject? json, string folder)
        {
            if (json == null) return null;
            string Full(string p) => System.IO.Path.GetFullPath(System.IO.Path.Combine(folder, p));
            string? html = json.GetString("html");
            return new SuiteDocument(json.GetArray("files").OfType<string>().Select(Full).ToArray(), string.IsNullOrEmpty(html) ? null : Full(html!));
        }
    }
}
