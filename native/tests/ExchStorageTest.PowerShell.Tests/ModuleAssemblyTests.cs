using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// Windows PowerShell 5.1 safety, read from the built assembly's metadata (never loaded): the module
/// DLL must load in .NET Framework 4.x beside whatever other modules brought into the session, so it
/// references nothing but netstandard and PowerShell itself and ships alone (docs/module.md).
/// </summary>
public class ModuleAssemblyTests
{
    private static readonly string Bin = Path.Combine(PowerShellSession.RepoRoot, "bin");
    private static readonly string ModuleDll = Path.Combine(Bin, "ExchStorageTest.dll");

    private static T Read<T>(Func<MetadataReader, T> read)
    {
        Assert.True(File.Exists(ModuleDll), $"{ModuleDll} is not built");
        using var pe = new PEReader(File.OpenRead(ModuleDll));
        return read(pe.GetMetadataReader());
    }

    [Fact]
    public void The_module_assembly_references_only_netstandard_and_PowerShell_5_1()
    {
        var references = Read(md => md.AssemblyReferences.Select(h => md.GetAssemblyReference(h))
            .Select(r => (Name: md.GetString(r.Name), r.Version)).OrderBy(r => r.Name, StringComparer.Ordinal).ToList());

        // No System.Text.Json, Newtonsoft.Json, System.Memory, System.Buffers ...: each would have to ship
        // beside the DLL and could clash with the version another module loaded into the same 5.1 session.
        Assert.Equal(new[] { "System.Management.Automation", "netstandard" }, references.Select(r => r.Name));
        // PowerShell Standard 5.1's reference: the 3.0.0.0 that Windows PowerShell 5.1 has (and 7.x unifies).
        Assert.Equal(new Version(3, 0, 0, 0), references.Single(r => r.Name == "System.Management.Automation").Version);
        Assert.Equal(new Version(2, 0, 0, 0), references.Single(r => r.Name == "netstandard").Version);
    }

    [Fact]
    public void The_module_assembly_targets_netstandard_2_0()
    {
        string? framework = Read(md =>
        {
            foreach (CustomAttributeHandle handle in md.GetAssemblyDefinition().GetCustomAttributes())
            {
                CustomAttribute attribute = md.GetCustomAttribute(handle);
                if (attribute.Constructor.Kind != HandleKind.MemberReference) continue;
                var type = md.GetTypeReference((TypeReferenceHandle)md.GetMemberReference((MemberReferenceHandle)attribute.Constructor).Parent);
                if (md.GetString(type.Name) != "TargetFrameworkAttribute") continue;
                // The blob: prolog 0x0001, then the constructor's string argument (length-prefixed UTF-8).
                BlobReader blob = md.GetBlobReader(attribute.Value);
                blob.ReadUInt16();
                return blob.ReadSerializedString();
            }
            return null;
        });
        Assert.Equal(".NETStandard,Version=v2.0", framework);
    }

    /// <summary>bin/ holds the module DLL (and its symbols) and the helpers' folders, nothing else: no
    /// dependency DLL beside the module that 5.1 would load into the shared session.</summary>
    [Fact]
    public void Bin_holds_the_module_assembly_and_the_helper_folders_only()
    {
        var strays = Directory.GetFiles(Bin)
            .Select(Path.GetFileName)
            .Where(f => f is not ("ExchStorageTest.dll" or "ExchStorageTest.pdb"))
            .ToList();
        Assert.True(strays.Count == 0, "unexpected files in bin/: " + string.Join(", ", strays));

        foreach (string folder in Directory.GetDirectories(Bin))
        {
            bool helper = File.Exists(Path.Combine(folder, "exchstoragetest-engine")) || File.Exists(Path.Combine(folder, "exchstoragetest-engine.exe"));
            Assert.True(helper, $"bin/{Path.GetFileName(folder)} is not a helper folder (no exchstoragetest-engine in it)");
        }
    }
}
