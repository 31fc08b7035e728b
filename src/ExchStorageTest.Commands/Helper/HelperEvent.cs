using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Helper
{
    /// <summary>One line of the helper's JSON Lines output (docs/protocol.md): a type and its fields.</summary>
    internal sealed class HelperEvent
    {
        public HelperEvent(JsonObject fields) => Fields = fields;

        public JsonObject Fields { get; }

        public string Type => Fields.GetString(EventFields.Type) ?? "";

        public bool Is(string type) => string.Equals(Type, type, System.StringComparison.Ordinal);
    }
}
