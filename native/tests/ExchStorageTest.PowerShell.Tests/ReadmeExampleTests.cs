using System.Text.RegularExpressions;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>The README's PowerShell example, word for word, in a fresh runspace started at the repository root.</summary>
public class ReadmeExampleTests
{
    [Fact]
    public void The_readme_example_runs_and_writes_its_reports()
    {
        string readme = File.ReadAllText(Path.Combine(PowerShellSession.RepoRoot, "README.md"));
        string example = Regex.Match(readme, "```powershell\\n(.*?)```", RegexOptions.Singleline).Groups[1].Value;
        Assert.Contains("Import-Module ./ExchStorageTest.psd1", example);
        Assert.Contains("-Path ./lab", example);

        // The example's ./lab, made a scratch folder on a real disk through a link at the repository root.
        using var scratch = new ScratchFolder("readme");
        string lab = Path.Combine(PowerShellSession.RepoRoot, "lab");
        Assert.False(Path.Exists(lab), $"'{lab}' exists already: the test will not touch it");
        Directory.CreateSymbolicLink(lab, scratch.Path);
        try
        {
            using var session = new PowerShellSession();
            var run = session.Run("$null = $ExecutionContext.SessionState.Path.SetLocation($args[0]); " + example, PowerShellSession.RepoRoot);
            Assert.True(run.Errors.Count == 0 && run.Exception == null, string.Join("\n", run.Errors));
            var report = run.Single();
            Assert.Equal("ExchStorageTest.TestReport", report.TypeNames[0]);
            Assert.Contains((string)report.Properties["Result"].Value, new[] { "Pass", "Fail" });
            // The run's own reports, beside the results file in the profile's default Results folder: the example
            // asks for no report files, so Get-TestReport writes none (docs/files.md: a second copy would be _2).
            string results = Assert.Single((string[])report.Properties["ResultsPath"].Value);
            Assert.Equal(Path.Combine(lab, "Results"), Path.GetDirectoryName(results));
            Assert.Empty((string[])report.Properties["Files"].Value);
            string stem = Path.Combine(lab, "Results", Path.GetFileNameWithoutExtension(results));
            foreach (string extension in new[] { ".txt", ".html", ".xml", ".timeseries.csv", ".perfmon.csv", ".esrp.txt" })
                Assert.True(File.Exists(stem + extension), stem + extension);
            Assert.Empty(Directory.GetFiles(Path.Combine(lab, "Results"), "*_2.*"));
        }
        finally
        {
            File.Delete(lab);
        }
    }
}
