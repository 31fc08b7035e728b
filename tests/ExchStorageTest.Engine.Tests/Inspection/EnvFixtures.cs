namespace ExchStorageTest.Engine.Tests.Inspection;

/// <summary>Paths of the captured and hand-written fixtures copied next to the test assembly.</summary>
internal static class EnvFixtures
{
    public static string Dir => Path.Combine(AppContext.BaseDirectory, "Inspection", "Fixtures");
    public static string Path_(string name) => Path.Combine(Dir, name);
    public static string Text(string name) => File.ReadAllText(Path_(name));
    public static byte[] Bytes(string name) => File.ReadAllBytes(Path_(name));
}
