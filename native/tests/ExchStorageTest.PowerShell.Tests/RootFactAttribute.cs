namespace ExchStorageTest.PowerShell.Tests;

/// <summary>A test that needs root (bind mounts, read-only remounts); skipped with the reason elsewhere.</summary>
public sealed class RootFactAttribute : FactAttribute
{
    public RootFactAttribute()
    {
        if (OperatingSystem.IsWindows() || !Environment.IsPrivilegedProcess) Skip = "needs root on Linux (bind mounts)";
    }
}
