namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// A refusal or failure with a stable code. Codes are part of the contract with the module
/// (they become ErrorIds); categories are the names of PowerShell's ErrorCategory values.
/// A refusal (<see cref="IsRefusal"/>) is raised before the command wrote anything; the helper's
/// exit code follows that kind (2 for a refusal, 1 for a failure), decided in one place (Program).
/// </summary>
public sealed class EngineException : Exception
{
    public EngineException(string code, string category, string message, string? target = null, Exception? inner = null)
        : this(code, category, message, target, inner, refusal: false)
    {
    }

    private EngineException(string code, string category, string message, string? target, Exception? inner, bool refusal)
        : base(message, inner)
    {
        Code = code;
        Category = category;
        Target = target;
        IsRefusal = refusal;
    }

    public string Code { get; }
    public string Category { get; }
    public string? Target { get; }
    /// <summary>True when the request was refused before anything was written (exit code 2).</summary>
    public bool IsRefusal { get; }

    /// <summary>The same error, raised by a check made before anything was written.</summary>
    public EngineException AsRefusal() => IsRefusal ? this : new(Code, Category, Message, Target, InnerException, refusal: true);

    /// <summary>A bad value in the request: always a refusal.</summary>
    public static EngineException InvalidArgument(string code, string message, string? target = null) =>
        new(code, ErrorCategories.InvalidArgument, message, target, null, refusal: true);

    /// <summary>A request that cannot be carried out here (missing folder, no space, a file not ours ...), refused before anything was written.</summary>
    public static EngineException Refusal(string code, string category, string message, string? target = null) =>
        new(code, category, message, target, null, refusal: true);
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
