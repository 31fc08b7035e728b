using System.Management.Automation;
using System.Text.RegularExpressions;
using System.Xml.Linq;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// The module's format views and default property sets checked against real output: a view that names a property
/// the object lacks shows an empty column. (The hosted engine has no Format-Table or Out-String to render them.)
/// </summary>
public static class FormatViews
{
    /// <summary>The properties that the views and the default display set of a type name refer to.</summary>
    public static IReadOnlyList<string> PropertiesNamedFor(string typeName)
    {
        var names = new List<string>();
        var format = XDocument.Load(Path.Combine(PowerShellSession.RepoRoot, "src", "ExchStorageTest.Format.ps1xml"));
        foreach (var view in format.Descendants("View").Where(v => v.Element("ViewSelectedBy")?.Elements("TypeName").Any(t => t.Value == typeName) == true))
        {
            names.AddRange(view.Descendants("PropertyName").Select(p => p.Value));
            foreach (var script in view.Descendants("ScriptBlock"))
                names.AddRange(Regex.Matches(script.Value, @"\$_\.(\w+)").Select(m => m.Groups[1].Value));
        }
        var types = XDocument.Load(Path.Combine(PowerShellSession.RepoRoot, "src", "ExchStorageTest.Types.ps1xml"));
        foreach (var type in types.Descendants("Type").Where(t => t.Element("Name")?.Value == typeName))
            names.AddRange(type.Descendants("ReferencedProperties").Elements("Name").Select(n => n.Value));
        return names.Distinct().ToList();
    }

    public static void AssertMatch(PSObject item)
    {
        var named = PropertiesNamedFor(item.TypeNames[0]);
        Assert.NotEmpty(named);
        Assert.All(named, name => Assert.True(item.Properties[name] != null, $"{item.TypeNames[0]} has no property '{name}' that its view names."));
    }
}
