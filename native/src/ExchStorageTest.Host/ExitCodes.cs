namespace ExchStorageTest.Host;

/// <summary>Process exit codes (docs/protocol.md). A failing verdict is a result, not an error: it exits 0.</summary>
internal static class ExitCodes
{
    public const int Ran = 0;
    public const int Error = 1;
    public const int InvalidRequest = 2;
    public const int Stopped = 3;

    /// <summary>The one rule for errors: a refusal (nothing written) exits 2, any other error 1.</summary>
    public static int For(Engine.Protocol.EngineException ex) => ex.IsRefusal ? InvalidRequest : Error;
}
