namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// Windows' built-in power plans by their scheme GUID (powercfg /list); the plans that keep processors at full
/// speed are High performance and Ultimate Performance.
/// </summary>
public static class PowerSchemes
{
    public static readonly Guid HighPerformance = new("8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c");
    public static readonly Guid UltimatePerformance = new("e9a42b02-d5df-448d-aa00-03f14749eb61");
    public static readonly Guid Balanced = new("381b4222-f694-41f0-9685-ff5bb260df2e");
    public static readonly Guid PowerSaver = new("a1841308-3541-4fab-bc81-f71556f20b4a");

    public static string Name(Guid scheme) =>
        scheme == HighPerformance ? "High performance"
        : scheme == UltimatePerformance ? "Ultimate Performance"
        : scheme == Balanced ? "Balanced"
        : scheme == PowerSaver ? "Power saver"
        : $"custom plan {scheme}";

    /// <summary>True for the built-in full-speed plans; null for a custom plan (its settings are not read).</summary>
    public static bool? FullSpeed(Guid scheme) =>
        scheme == HighPerformance || scheme == UltimatePerformance ? true
        : scheme == Balanced || scheme == PowerSaver ? false
        : null;
}
