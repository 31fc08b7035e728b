using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Runs;

internal static class SoftRecoveryRun
{
    public static void Run(RunContext ctx) => throw new EngineException("NotImplemented", ErrorCategories.NotImplemented, "Soft recovery is being built.");
}
