using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Engine
{
    /// <summary>One line of the engine's JSON Lines output (docs/protocol.md): a type and its fields.</summary>
    internal sealed class EngineEvent
    {
        public EngineEvent(JsonObject fields) => Fields = fields;

        public JsonObject Fields { get; }

        public string Type => Fields.GetString(EventFields.Type) ?? "";

        public bool Is(string type) => string.Equals(Type, type, System.StringComparison.Ordinal);
    }
}
