using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// The start of every request the module sends (docs/protocol.md): the protocol this module speaks and the
    /// command. Every other field is set by its contract name (<see cref="RequestFields"/>); the engine's request
    /// gate refuses a field the command does not take.
    /// </summary>
    internal static class EngineRequest
    {
        public static JsonObject For(string command) => new JsonObject()
            .Set(RequestFields.Protocol, EngineProtocol.Version)
            .Set(RequestFields.Command, command);
    }
}
