using ExchStorageTest.HelpCompiler;

// exchstoragetest-helpc <docs folder> <output folder>: compiles the help (HelpBuild). Errors use
// MSBuild's canonical format (file(line): error CODE: text), so the build names the page and line.
if (args.Length != 2)
{
    Console.Error.WriteLine("usage: exchstoragetest-helpc <docs folder> <output folder>");
    return 2;
}
if (!Directory.Exists(args[0]))
{
    Console.Error.WriteLine($"error HELP002: the docs folder '{args[0]}' does not exist");
    return 1;
}
try
{
    foreach (string file in HelpBuild.Compile(args[0], args[1])) Console.WriteLine($"help: {file}");
    return 0;
}
catch (HelpSchemaException e)
{
    Console.Error.WriteLine($"{e.PagePath}({e.PageLine}): error HELP001: {e.Problem}");
    return 1;
}
