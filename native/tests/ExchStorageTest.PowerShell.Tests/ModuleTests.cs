namespace ExchStorageTest.PowerShell.Tests;

/// <summary>The module as a user imports it: the manifest at the repository root, every command exported.</summary>
public class ModuleTests : IClassFixture<SessionFixture>
{
    private readonly PowerShellSession _ps;

    public ModuleTests(SessionFixture fixture) => _ps = fixture.Session;

    [Fact]
    public void Import_exports_exactly_the_documented_commands()
    {
        var exported = _ps.Run("(Get-Module ExchStorageTest).ExportedCommands.Keys").Output.Select(o => o.ToString()).ToList();
        Assert.Equal(PowerShellSession.Commands.OrderBy(c => c, StringComparer.Ordinal), exported.OrderBy(c => c, StringComparer.Ordinal));
    }

    [Fact]
    public void Commands_are_binary_cmdlets_from_one_assembly()
    {
        var types = _ps.Run("Get-Command -Module ExchStorageTest | ForEach-Object { $_.CommandType.ToString() + ' ' + $_.ImplementingType.Assembly.GetName().Name }").Output
            .Select(o => o.ToString()).Distinct().ToList();
        Assert.Equal(new[] { "Cmdlet ExchStorageTest" }, types);
    }
}
