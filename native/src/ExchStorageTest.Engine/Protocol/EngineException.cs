namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// A refusal or failure with a stable code from the catalogue (<see cref="ErrorCodes"/>): codes become the
/// ErrorIds users see, and categories are the names of PowerShell's ErrorCategory values. A refusal
/// (<see cref="IsRefusal"/>) is raised before the command wrote anything; the engine's exit code follows
/// that kind (2 for a refusal, 1 for a failure), decided in one place (EngineExit.For).
/// </summary>
public sealed class EngineException : Exception
{
    /// <summary>A failure with the catalogue's category for <paramref name="code"/>.</summary>
    public EngineException(ErrorCode code, string message, string? target = null, Exception? inner = null)
        : this(code.Code, code.Category, message, target, inner, refusal: false)
    {
    }

    /// <summary>A failure by code name and category (a code of the catalogue; a test holds every name used against it).</summary>
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

    /// <summary>A request refused by a rule of the contract (<see cref="ProfileRules"/>, <see cref="RunRules"/> ...).</summary>
    public static EngineException Refused(Violation violation) =>
        new(violation.Code.Code, violation.Code.Category, violation.Message, violation.Target, null, refusal: true);

    /// <summary>A request refused with the catalogue's category for <paramref name="code"/>.</summary>
    public static EngineException Refused(ErrorCode code, string message, string? target = null) =>
        new(code.Code, code.Category, message, target, null, refusal: true);

    /// <summary>A bad value in the request: always a refusal.</summary>
    public static EngineException InvalidArgument(string code, string message, string? target = null) =>
        new(code, ErrorCategories.InvalidArgument, message, target, null, refusal: true);

    /// <summary>A request that cannot be carried out here (missing folder, no space, a file not ours ...), refused before anything was written.</summary>
    public static EngineException Refusal(string code, string category, string message, string? target = null) =>
        new(code, category, message, target, null, refusal: true);
}
