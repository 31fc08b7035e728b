using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>One failing rule of a verdict, with its numbers (PSTypeName ExchStorageTest.Reason).</summary>
    public sealed class Reason
    {
        public string? Code { get; set; }
        /// <summary>The instance the rule failed on (Instance.1), or null for the whole run.</summary>
        public string? Instance { get; set; }
        public string? Message { get; set; }
        public double? Measured { get; set; }
        public double? Limit { get; set; }

        internal static Reason From(JsonObject fields) => new Reason
        {
            Code = fields.GetString("code"),
            Instance = fields.GetString("instance"),
            Message = fields.GetString("message"),
            Measured = fields.GetNumber("measured"),
            Limit = fields.GetNumber("limit"),
        };

        public override string ToString() => Message ?? Code ?? "";
    }
}
