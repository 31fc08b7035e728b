namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// A refusal or failure with a stable code. Codes are part of the contract with the module
/// (they become ErrorIds); categories are the names of PowerShell's ErrorCategory values.
/// </summary>
public sealed class EngineException : Exception
{
    public EngineException(string code, string category, string message, string? target = null, Exception? inner = null)
        : base(message, inner)
    {
        Code = code;
        Category = category;
        Target = target;
    }

    public string Code { get; }
    public string Category { get; }
    public string? Target { get; }

    public static EngineException InvalidArgument(string code, string message, string? target = null) =>
        new(code, ErrorCategories.InvalidArgument, message, target);
}

/// <summary>PowerShell ErrorCategory names the module maps engine errors to.</summary>
public static class ErrorCategories
{
    public const string InvalidArgument = "InvalidArgument";
    public const string InvalidData = "InvalidData";
    public const string ObjectNotFound = "ObjectNotFound";
    public const string PermissionDenied = "PermissionDenied";
    public const string ResourceUnavailable = "ResourceUnavailable";
    public const string ReadError = "ReadError";
    public const string WriteError = "WriteError";
    public const string OperationStopped = "OperationStopped";
    public const string NotImplemented = "NotImplemented";
    public const string InvalidOperation = "InvalidOperation";
}
