using System.Text;
using ExchStorageTest.Tasks;

namespace ExchStorageTest.Tests.Tasks;

/// <summary>
/// What a scheduled task depends on outliving the command: the pwsh it starts is an installed one, never a package
/// cache's, and a registration the scheduler refuses takes back exactly what it wrote.
/// </summary>
public sealed class TaskInstallationTests : IDisposable
{
    private const string ToolCache = "/home/admin/.nuget/packages/powershell/7.4.6/tools/net8.0/any";
    private readonly string _folder = Path.Combine(Path.GetTempPath(), "exst-task-" + Guid.NewGuid().ToString("N")[..8]);

    public void Dispose()
    {
        if (Directory.Exists(_folder)) Directory.Delete(_folder, recursive: true);
    }

    [Fact]
    public void The_running_pwsh_is_chosen_when_it_is_installed()
    {
        var exists = new HashSet<string> { "/opt/microsoft/powershell/7/pwsh", "/usr/bin/pwsh" };
        Assert.Equal("/opt/microsoft/powershell/7/pwsh", TaskPowerShell.FindInstalled("/opt/microsoft/powershell/7/", "/usr/bin:/bin", exists.Contains));
    }

    [Fact]
    public void A_pwsh_in_a_package_cache_is_passed_over_for_one_on_PATH_then_a_standard_location()
    {
        var exists = new HashSet<string> { ToolCache + "/pwsh", "/home/admin/.dotnet/tools/.store/powershell/7.4.6/pwsh", "/usr/local/bin/pwsh", "/opt/microsoft/powershell/7/pwsh" };
        Assert.Equal("/usr/local/bin/pwsh", TaskPowerShell.FindInstalled(ToolCache, "/home/admin/.dotnet/tools/.store/powershell/7.4.6:relative:/usr/local/bin", exists.Contains));
        exists.Remove("/usr/local/bin/pwsh");
        Assert.Equal("/opt/microsoft/powershell/7/pwsh", TaskPowerShell.FindInstalled(ToolCache, "/usr/local/bin:/bin", exists.Contains));
    }

    [Fact]
    public void Without_an_installed_pwsh_the_error_names_every_place_looked()
    {
        var exists = new HashSet<string> { ToolCache + "/pwsh" };
        Assert.Null(TaskPowerShell.FindInstalled(ToolCache, "/bin", exists.Contains));
        string message = TaskPowerShell.NotFoundMessage(ToolCache, "/bin");
        Assert.Contains($"'{ToolCache}', skipped: a package cache", message);
        Assert.Contains("PATH ('/bin')", message);
        foreach (string location in TaskPowerShell.StandardLocations) Assert.Contains(location, message);
        Assert.Contains("-PowerShellPath", message);
        Assert.Contains("Nothing was written.", message);
    }

    [Fact]
    public void Undo_deletes_what_was_created_restores_what_was_replaced_and_keeps_the_rest()
    {
        Directory.CreateDirectory(_folder);
        string kept = Path.Combine(_folder, "someone-elses.txt");
        File.WriteAllText(kept, "not ours");
        string replaced = Path.Combine(_folder, "earlier.service");
        File.WriteAllText(replaced, "the earlier registration");
        string units = Path.Combine(_folder, "units", "deeper");

        var writes = new TaskWrites();
        writes.CreateFolder(units);
        writes.WriteFile(Path.Combine(units, "new.timer"), "[Timer]", Encoding.UTF8);
        writes.WriteFile(replaced, "replaced with -Force", Encoding.UTF8);
        Assert.Equal("", writes.Undo());

        Assert.False(Directory.Exists(Path.Combine(_folder, "units")), "the folders it created, emptied, are gone");
        Assert.Equal("the earlier registration", File.ReadAllText(replaced));
        Assert.Equal("not ours", File.ReadAllText(kept));
        Assert.Equal(new[] { "earlier.service", "someone-elses.txt" }, Directory.GetFileSystemEntries(_folder).Select(Path.GetFileName).Order());
    }

    [Fact]
    public void A_created_folder_that_holds_another_file_stays()
    {
        string units = Path.Combine(_folder, "units");
        var writes = new TaskWrites();
        writes.CreateFolder(units);
        writes.WriteFile(Path.Combine(units, "ours.timer"), "[Timer]", Encoding.UTF8);
        File.WriteAllText(Path.Combine(units, "arrived-meanwhile"), "x");
        writes.Undo();
        Assert.Equal(new[] { "arrived-meanwhile" }, Directory.GetFileSystemEntries(units).Select(Path.GetFileName));
    }
}
