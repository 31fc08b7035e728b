namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// Names the hypervisor from the firmware's system vendor and product (SMBIOS: Linux /sys/class/dmi/id, Windows
/// HKLM\HARDWARE\DESCRIPTION\System\BIOS), the strings each hypervisor's virtual firmware reports.
/// </summary>
public static class Hypervisors
{
    private static readonly (string Marker, string Name)[] Known =
    {
        ("VMware", "VMware"),
        ("Virtual Machine", "Hyper-V"), // Microsoft Corporation / Virtual Machine
        ("QEMU", "KVM/QEMU"),
        ("KVM", "KVM/QEMU"),
        ("Xen", "Xen"),
        ("VirtualBox", "VirtualBox"),
        ("innotek", "VirtualBox"),
        ("Nutanix", "Nutanix AHV"),
        ("Amazon EC2", "Amazon EC2 (Nitro)"),
        ("Google Compute Engine", "Google Compute Engine"),
        ("OpenStack", "OpenStack (KVM)"),
        ("Parallels", "Parallels"),
    };

    /// <summary>The hypervisor's name, or null when the vendor and product name none.</summary>
    public static string? FromFirmware(string? vendor, string? product)
    {
        string text = $"{vendor} {product}";
        foreach (var (marker, name) in Known)
            if (text.Contains(marker, StringComparison.OrdinalIgnoreCase)) return name;
        return null;
    }
}
