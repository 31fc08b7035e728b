namespace ExchStorageTest.PowerShell.Tests;

/// <summary>A fact that needs Linux (systemd units, POSIX signals); skipped elsewhere with the reason.</summary>
public sealed class LinuxFactAttribute : FactAttribute
{
    public LinuxFactAttribute()
    {
        if (!OperatingSystem.IsLinux()) Skip = "Linux only: systemd units and POSIX signals.";
    }
}
