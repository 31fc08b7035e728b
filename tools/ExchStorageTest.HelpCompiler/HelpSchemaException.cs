namespace ExchStorageTest.HelpCompiler;

/// <summary>A page that does not follow the platyPS schema: the message names the file, the line and what is wrong.</summary>
public sealed class HelpSchemaException(string path, int line, string problem)
    : Exception($"{path}:{line}: {problem}")
{
    public string PagePath { get; } = path;
    public int PageLine { get; } = line;
    public string Problem { get; } = problem;
}
