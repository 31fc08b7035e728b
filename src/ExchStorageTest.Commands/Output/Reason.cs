using ExchStorageTest.Contract;
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
            Code = fields.GetString(EventFields.Result.Reason.Code),
            Instance = fields.GetString(EventFields.Result.Reason.Instance),
            Message = fields.GetString(EventFields.Result.Reason.Message),
            Measured = fields.GetNumber(EventFields.Result.Reason.Measured),
            Limit = fields.GetNumber(EventFields.Result.Reason.Limit),
        };

        /// <summary>"Code (Instance): message", as the result views and a CSV cell show it.</summary>
        public override string ToString() => Instance == null ? $"{Code}: {Message}" : $"{Code} ({Instance}): {Message}";
    }
}
