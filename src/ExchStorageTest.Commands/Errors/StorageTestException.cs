using System;
using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;

namespace ExchStorageTest.Errors
{
    /// <summary>
    /// An error the module raises, carrying its ErrorRecord: ErrorId <c>ExchStorageTest.&lt;Code&gt;</c> from the one
    /// catalogue (<see cref="ErrorCodes"/>, which the engine's error events use too), its category, the bad value as
    /// target, and a message that names it. Commands turn it into a terminating or non-terminating error; scripts
    /// match on the ErrorId (docs/about_ExchStorageTest.md lists them), never on text.
    /// </summary>
    public sealed class StorageTestException : Exception, IContainsErrorRecord
    {
        public const string IdPrefix = "ExchStorageTest.";

        internal StorageTestException(ErrorCode code, string message, object? target, Exception? inner = null)
            : this(code.Code, message, CategoryOf(code.Category), target, inner)
        {
        }

        /// <summary>A code of the catalogue raised with another category than its usual one (a failure that carries its cause's category).</summary>
        internal StorageTestException(ErrorCode code, string message, ErrorCategory category, object? target, Exception? inner = null)
            : this(code.Code, message, category, target, inner)
        {
        }

        // Every code is typed (ErrorCodes) except an engine error event's, which is relayed as the engine names it.
        private StorageTestException(string id, string message, ErrorCategory category, object? target, Exception? inner)
            : base(message, inner)
        {
            ErrorRecord = new ErrorRecord(ExceptionFor(category, message, inner), id.StartsWith(IdPrefix, StringComparison.Ordinal) ? id : IdPrefix + id, category, target);
        }

        /// <summary>An engine's error event as a module error: its code and category as the engine gives them (a newer engine's may be new).</summary>
        internal static StorageTestException FromEngine(string code, string message, string? category, object? target) =>
            new StorageTestException(code, message, CategoryOf(category), target, null);

        public ErrorRecord ErrorRecord { get; }

        /// <summary>The same error (ErrorId, category, target) with a sentence added: what the command did about it.</summary>
        internal StorageTestException With(string sentence) =>
            new StorageTestException(ErrorRecord.FullyQualifiedErrorId, EndSentence(Message) + " " + sentence, ErrorRecord.CategoryInfo.Category, ErrorRecord.TargetObject, InnerException);

        /// <summary>A message ended as a sentence before another is added: a tool's quoted answer often ends without one.</summary>
        private static string EndSentence(string message)
        {
            string trimmed = message.TrimEnd();
            return trimmed.Length == 0 || ".!?".IndexOf(trimmed[trimmed.Length - 1]) >= 0 ? trimmed : trimmed + ".";
        }

        /// <summary>A rule of the contract broken (<see cref="ProfileRules"/>, <see cref="RunRules"/>): the same code the engine gives.</summary>
        internal static StorageTestException From(Violation violation) => new StorageTestException(violation.Code, violation.Message, violation.Target);

        /// <summary>A category by the name the catalogue and the engine's error events give; an unknown name (a newer engine) reads as NotSpecified.</summary>
        internal static ErrorCategory CategoryOf(string? name) =>
            name != null && Enum.IsDefined(typeof(ErrorCategory), name) ? (ErrorCategory)Enum.Parse(typeof(ErrorCategory), name) : ErrorCategory.NotSpecified;

        // The exception type follows the category, so catch blocks typed on .NET exceptions still work.
        private static Exception ExceptionFor(ErrorCategory category, string message, Exception? inner) => category switch
        {
            ErrorCategory.InvalidArgument => new ArgumentException(message, inner),
            ErrorCategory.ObjectNotFound => new FileNotFoundException(message, inner),
            ErrorCategory.InvalidData => new InvalidDataException(message, inner),
            ErrorCategory.PermissionDenied => new UnauthorizedAccessException(message, inner),
            _ => new InvalidOperationException(message, inner),
        };
    }
}
