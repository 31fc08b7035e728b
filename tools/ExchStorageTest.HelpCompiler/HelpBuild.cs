using System.Text;
using System.Xml;
using System.Xml.Linq;
using ExchStorageTest.HelpCompiler.Markdown;

namespace ExchStorageTest.HelpCompiler;

/// <summary>
/// docs/ to help files: every command page (front matter "external help file") goes into the MAML file
/// its front matter names, every about_*.md becomes about_*.help.txt; other pages (protocol, schema,
/// design notes) are not help and are left alone.
/// </summary>
public static class HelpBuild
{
    /// <summary>Reads every page first, so a bad page fails the build before any file is written.</summary>
    public static IReadOnlyList<string> Compile(string docsFolder, string outputFolder)
    {
        var commands = new List<CommandHelp>();
        var abouts = new List<(string Topic, string Text)>();
        foreach (string path in Directory.GetFiles(docsFolder, "*.md").Order(StringComparer.Ordinal))
        {
            MarkdownDocument page = MarkdownDocument.Load(path);
            if (AboutTopicWriter.IsAboutPage(path)) abouts.Add(AboutTopicWriter.Write(page));
            else if (CommandPageReader.IsCommandPage(page)) commands.Add(CommandPageReader.Read(page));
        }

        var written = new List<string>();
        Directory.CreateDirectory(outputFolder);
        foreach (var file in commands.GroupBy(c => c.ExternalHelpFile, StringComparer.OrdinalIgnoreCase))
        {
            string target = Path.Combine(outputFolder, file.Key);
            WriteIfChanged(target, Xml(MamlWriter.Write(file)));
            written.Add($"{target} ({file.Count()} commands: {string.Join(", ", file.Select(c => c.Name))})");
        }
        foreach (var (topic, text) in abouts)
        {
            string target = Path.Combine(outputFolder, AboutTopicWriter.FileName(topic));
            WriteIfChanged(target, text);
            written.Add(target);
        }
        return written;
    }

    private static string Xml(XDocument document)
    {
        var settings = new XmlWriterSettings { Indent = true, IndentChars = "  ", NewLineChars = "\n", Encoding = new UTF8Encoding(false) };
        using var stream = new MemoryStream();
        using (var writer = XmlWriter.Create(stream, settings)) document.Save(writer);
        return Encoding.UTF8.GetString(stream.ToArray()) + "\n";
    }

    /// <summary>UTF-8 with a byte-order mark, which Windows PowerShell 5.1 reads as UTF-8 without being told.
    /// An unchanged file is not rewritten, so incremental builds see no change.</summary>
    private static void WriteIfChanged(string path, string content)
    {
        var utf8 = new UTF8Encoding(true);
        if (File.Exists(path) && File.ReadAllText(path, utf8) == content) return;
        File.WriteAllText(path, content, utf8);
    }
}
