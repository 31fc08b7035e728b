using System.Management.Automation;
using System.Management.Automation.Runspaces;

// exchstoragetest-console <manifest> <script> [args...]: runs the script with the module imported; each output
// object and warning is printed as a line, and each new progress phase as "PROGRESS <phase>".
if (args.Length < 2)
{
    Console.Error.WriteLine("usage: exchstoragetest-console <manifest> <script> [args...]");
    return 2;
}
using var runspace = RunspaceFactory.CreateRunspace(InitialSessionState.CreateDefault2());
runspace.Open();
using var ps = PowerShell.Create();
ps.Runspace = runspace;
ps.AddScript("Import-Module -Name $args[0] -ErrorAction Stop").AddArgument(args[0]);
ps.Invoke();
ps.Commands.Clear();
ps.AddScript(args[1]);
foreach (string a in args.Skip(2)) ps.AddArgument(a);
string lastPhase = "";
ps.Streams.Progress.DataAdded += (_, e) =>
{
    string phase = ps.Streams.Progress[e.Index].CurrentOperation ?? "";
    if (phase != lastPhase) Console.WriteLine("PROGRESS " + (lastPhase = phase));
};
ps.Streams.Warning.DataAdded += (_, e) => Console.WriteLine("WARNING " + ps.Streams.Warning[e.Index].Message);
ps.Streams.Error.DataAdded += (_, e) => Console.WriteLine("ERROR " + ps.Streams.Error[e.Index]);
var output = new PSDataCollection<PSObject>();
output.DataAdded += (_, e) => Console.WriteLine("OUTPUT " + output[e.Index]);
try
{
    ps.Invoke(null, output);
}
catch (RuntimeException ex)
{
    Console.WriteLine("TERMINATED " + ex.ErrorRecord.FullyQualifiedErrorId);
    return 1;
}
return 0;
