using System;
using System.IO;
using System.Management.Automation;

namespace ExchStorageTest.Errors
{
    /// <summary>
    /// An error the module raises, carrying its ErrorRecord: ErrorId <c>ExchStorageTest.&lt;Id&gt;</c>, a category,
    /// the bad value as target, and a message that names it. Commands turn it into a terminating or
    /// non-terminating error; scripts match on the ErrorId (docs/about_ExchStorageTest.md lists them), never on text.
    /// </summary>
    public sealed class StorageTestException : Exception, IContainsErrorRecord
    {
        public const string IdPrefix = "ExchStorageTest.";

        public StorageTestException(string id, string message, ErrorCategory category, object? target, Exception? inner = null)
            : base(message, inner)
        {
            ErrorRecord = new ErrorRecord(ExceptionFor(category, message, inner), id.StartsWith(IdPrefix, StringComparison.Ordinal) ? id : IdPrefix + id, category, target);
        }

        public ErrorRecord ErrorRecord { get; }

        /// <summary>An invalid argument: the most common refusal.</summary>
        public static StorageTestException InvalidArgument(string id, string message, object? target) =>
            new StorageTestException(id, message, ErrorCategory.InvalidArgument, target);

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
