using System.Collections;
using System.Collections.ObjectModel;
using System.Management.Automation;
using System.Management.Automation.Runspaces;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>What one script produced on each stream, and the terminating error if there was one.</summary>
public sealed class Invocation
{
    public required Collection<PSObject> Output { get; init; }
    public required List<ErrorRecord> Errors { get; init; }
    public required List<WarningRecord> Warnings { get; init; }
    public required List<VerboseRecord> Verbose { get; init; }
    public required List<ProgressRecord> Progress { get; init; }
    public required List<InformationRecord> Information { get; init; }
    /// <summary>The terminating error (a thrown RuntimeException), or null.</summary>
    public Exception? Exception { get; init; }

    /// <summary>The ErrorRecord of the terminating error or of the first non-terminating one.</summary>
    public ErrorRecord? Error => (Exception as IContainsErrorRecord)?.ErrorRecord ?? Errors.FirstOrDefault();

    public PSObject Single() => Assert.Single(Output);
}

/// <summary>
/// A runspace of the real PowerShell engine with the built module imported from the repository root, as a
/// user imports it (the module loads from one folder per process: the same DLL from two paths fails).
/// </summary>
public sealed class PowerShellSession : IDisposable
{
    public static readonly string[] Commands =
    {
        "New-MailboxProfile", "Invoke-StorageTest", "Get-TestReport", "Test-StorageVolume", "Test-DatabaseChecksum", "New-StorageTestRun",
        "Register-StorageTestTask", "Unregister-StorageTestTask",
    };

    private readonly Runspace _runspace;

    public PowerShellSession()
    {
        var state = InitialSessionState.CreateDefault2();
        _runspace = RunspaceFactory.CreateRunspace(state);
        _runspace.Open();
        var import = Run("Import-Module -Name $args[0] -PassThru -ErrorAction Stop", ManifestPath);
        if (import.Exception != null || import.Errors.Count > 0)
            throw new InvalidOperationException($"Import-Module '{ManifestPath}' failed: {import.Error}");
        // A failed import does not always throw: the exports are the proof.
        var exported = Run("(Get-Module ExchStorageTest).ExportedCommands.Keys").Output.Select(o => o.ToString()).ToList();
        foreach (string command in Commands)
            if (!exported.Contains(command))
                throw new InvalidOperationException($"The module imported but does not export {command} (exports: {string.Join(", ", exported)}).");
    }

    public Runspace Runspace => _runspace;

    public static string RepoRoot { get; } = FindRepoRoot();

    public static string ManifestPath => Path.Combine(RepoRoot, "ExchStorageTest.psd1");

    /// <summary>Runs a script; <paramref name="args"/> arrive as $args.</summary>
    public Invocation Run(string script, params object?[] args)
    {
        using var ps = System.Management.Automation.PowerShell.Create();
        ps.Runspace = _runspace;
        ps.AddScript(script);
        foreach (object? a in args) ps.AddArgument(a);
        return Collect(ps, () => ps.Invoke());
    }

    /// <summary>Runs a command with named parameters (values keep their .NET types).</summary>
    public Invocation Command(string command, IDictionary parameters, object? pipelineInput = null)
    {
        using var ps = System.Management.Automation.PowerShell.Create();
        ps.Runspace = _runspace;
        ps.AddCommand(command).AddParameters(parameters);
        return Collect(ps, () => pipelineInput == null ? ps.Invoke() : ps.Invoke(new[] { pipelineInput }));
    }

    internal static Invocation Collect(System.Management.Automation.PowerShell ps, Func<Collection<PSObject>> invoke)
    {
        Collection<PSObject> output = new();
        Exception? exception = null;
        try
        {
            output = invoke();
        }
        catch (RuntimeException ex)
        {
            exception = ex;
        }
        return new Invocation
        {
            Output = output,
            Exception = exception,
            Errors = ps.Streams.Error.ToList(),
            Warnings = ps.Streams.Warning.ToList(),
            Verbose = ps.Streams.Verbose.ToList(),
            Progress = ps.Streams.Progress.ToList(),
            Information = ps.Streams.Information.ToList(),
        };
    }

    private static string FindRepoRoot()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir != null; dir = dir.Parent)
            if (File.Exists(Path.Combine(dir.FullName, "ExchStorageTest.psd1"))) return dir.FullName;
        throw new InvalidOperationException("ExchStorageTest.psd1 was not found above " + AppContext.BaseDirectory);
    }

    public void Dispose() => _runspace.Dispose();
}

/// <summary>One session per test class; classes run one after another (xunit.runner.json), so runs do not compete for the disk.</summary>
public sealed class SessionFixture : IDisposable
{
    public PowerShellSession Session { get; } = new();
    public void Dispose() => Session.Dispose();
}
