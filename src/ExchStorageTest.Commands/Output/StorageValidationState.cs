using System.Globalization;
using System.Linq;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// What the ExchStorageValidation DSC class resource observes (PSTypeName ExchStorageTest.StorageValidationState):
    /// the engine's "validation" event, which is the state <c>exchstoragetest-engine dsc test</c> reports.
    /// </summary>
    public sealed class StorageValidationState
    {
        public string? ProfilePath { get; set; }
        /// <summary>The folder searched for results: the one given, or &lt;first database path&gt;/Results.</summary>
        public string? OutputPath { get; set; }
        public string? TestType { get; set; }
        public double MaxResultAgeHours { get; set; }
        /// <summary>Pass, Fail or NotRun.</summary>
        public string LastResult { get; set; } = Verdicts.NotRun;
        /// <summary>When the newest matching test ended (UTC), or null.</summary>
        public DateTime? LastRunUtc { get; set; }
        public string? ResultsPath { get; set; }
        public bool InDesiredState { get; set; }
        /// <summary>Why it is not in the desired state; empty when it is.</summary>
        public StorageValidationReason[] Reasons { get; set; } = Array.Empty<StorageValidationReason>();

        internal static StorageValidationState FromEvent(JsonObject state)
        {
            string? lastRun = state.GetString(EventFields.Validation.LastRunUtc);
            return new StorageValidationState
            {
                ProfilePath = state.GetString(EventFields.Validation.ProfilePath),
                OutputPath = state.GetString(EventFields.Validation.OutputPath),
                TestType = state.GetString(EventFields.Validation.TestType),
                MaxResultAgeHours = state.GetNumber(EventFields.Validation.MaxResultAgeHours) ?? 24,
                LastResult = state.GetString(EventFields.Validation.LastResult) ?? Verdicts.NotRun,
                LastRunUtc = string.IsNullOrEmpty(lastRun) ? (DateTime?)null
                    : DateTime.Parse(lastRun, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal),
                ResultsPath = state.GetString(EventFields.Validation.LastResultsPath),
                InDesiredState = state[EventFields.Validation.InDesiredState] is bool inState && inState,
                Reasons = state.GetArray(EventFields.Validation.Reasons).OfType<JsonObject>()
                    .Select(r => new StorageValidationReason { Code = r.GetString(EventFields.Validation.Reason.Code) ?? "", Phrase = r.GetString(EventFields.Validation.Reason.Phrase) ?? "" }).ToArray(),
            };
        }

        public override string ToString() => InDesiredState ? $"{LastResult} (in desired state)" : $"{LastResult} ({string.Join(", ", Reasons.Select(r => r.Code))})";
    }

    /// <summary>One reason a validation is out of its desired state: ProfileNotFound, NoResult, ResultFailed, ResultIncomplete or ResultTooOld.</summary>
    public sealed class StorageValidationReason
    {
        public string Code { get; set; } = "";
        public string Phrase { get; set; } = "";

        public override string ToString() => $"{Code}: {Phrase}";
    }
}
