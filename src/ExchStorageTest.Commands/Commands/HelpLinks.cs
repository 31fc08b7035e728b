namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Where each command's online help lives (Get-Help -Online): its docs/&lt;Command&gt;.md page under the project's
    /// address. The one definition: the cmdlets' HelpUri and the help compiler's "Online Version" link (it compiles
    /// this file in) both come from here. The address is the manifest's ProjectUri, a placeholder
    /// (example.invalid never resolves) until the project has a public home; change it here and in the manifest.
    /// </summary>
    internal static class HelpLinks
    {
        /// <summary>The folder of the help pages, ending in '/'.</summary>
        public const string DocsBase = "https://example.invalid/ExchStorageTest/docs/";

        public const string InvokeStorageTest = DocsBase + "Invoke-StorageTest.md";
        public const string NewMailboxProfile = DocsBase + "New-MailboxProfile.md";
        public const string GetTestReport = DocsBase + "Get-TestReport.md";
        public const string TestStorageVolume = DocsBase + "Test-StorageVolume.md";
        public const string TestDatabaseChecksum = DocsBase + "Test-DatabaseChecksum.md";
        public const string NewStorageTestRun = DocsBase + "New-StorageTestRun.md";
        public const string RegisterStorageTestTask = DocsBase + "Register-StorageTestTask.md";
        public const string UnregisterStorageTestTask = DocsBase + "Unregister-StorageTestTask.md";

        /// <summary>The DSC resource's engine command has no page of its own: the DSC page describes it.</summary>
        public const string Dsc = DocsBase + "dsc.md";

        /// <summary>The page of a command (a constant above is this, for a cmdlet attribute).</summary>
        public static string Page(string commandName) => DocsBase + commandName + ".md";
    }
}
