using System.Management.Automation;

namespace ExchStorageTest.Engine
{
    /// <summary>What importing the module does before any command runs: an installed copy's engine and JetstressCmd get
    /// back the execute bits its package could not carry (<see cref="ExecuteBit"/>), so that JetstressCmd, which the
    /// module never starts, runs too once the module has been imported.</summary>
    public sealed class ModuleImport : IModuleAssemblyInitializer
    {
        public void OnImport() => EngineLocator.MarkExecutables();
    }
}
