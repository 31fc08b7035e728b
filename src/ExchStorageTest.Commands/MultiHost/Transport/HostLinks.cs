using System;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using System.Management.Automation.Runspaces;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;
using ExchStorageTest.Runs;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The hosts of a multi-host run and their runspaces: WinRM runspaces opened here for -ComputerName (SSH with
    /// -UseSSH: one New-PSSession -HostName for every host through the caller's runspace, which opens them at once;
    /// PowerShell 7 only, with -UserName, -KeyFilePath, -Port and -SSHOptions as New-PSSession takes them), or the runspaces of the caller's -Session objects, which are
    /// left open. A host that cannot be reached is reported as HostFailed and kept as a failed host, so the run goes on
    /// with the others; a computer without a WSMan client (PowerShell on Linux and macOS) is refused at once, since no
    /// host could be reached. Disposing closes what was opened here.
    /// </summary>
    internal sealed class HostLinks : IDisposable
    {
        private const string ShellUri = "http://schemas.microsoft.com/powershell/Microsoft.PowerShell";
        private const int WsManPort = 5985;

        // New-PSSession's own parameters, splatted: what -HostName takes is exactly what the user can give. One call for
        // every host: New-PSSession opens its sessions at once (a session over SSH takes seconds: a process, a key
        // exchange, PowerShell starting on the host), and each host that cannot be reached is one error.
        private const string OpenSshScript = @"
param([hashtable] $Parameters)
$failures = $null
$sessions = @(New-PSSession @Parameters -ErrorAction SilentlyContinue -ErrorVariable failures)
@{ Sessions = $sessions; Errors = @($failures) }";

        private readonly PSCmdlet _cmdlet;
        private readonly List<HostTarget> _hosts = new List<HostTarget>();
        private readonly List<Runspace> _opened = new List<Runspace>();
        private readonly List<PSSession> _openedSessions = new List<PSSession>();
        private readonly RemotingOptions _options;

        private HostLinks(PSCmdlet cmdlet, RemotingOptions options)
        {
            _cmdlet = cmdlet;
            _options = options;
        }

        public IReadOnlyList<HostTarget> Hosts => _hosts;

        /// <summary>Adopts the caller's sessions; those not available are failed hosts.</summary>
        public static HostLinks Adopt(PSCmdlet cmdlet, IEnumerable<PSSession> sessions)
        {
            var connector = new HostLinks(cmdlet, new RemotingOptions());
            foreach (PSSession session in sessions)
            {
                if (session == null) continue;
                connector.Add(session.ComputerName ?? session.Name, session.Runspace, session.Availability == RunspaceAvailability.Available ? null
                    : $"its session is not available (state {session.Runspace?.RunspaceStateInfo.State}, availability {session.Availability}).", null);
            }
            return connector;
        }

        /// <summary>Opens a runspace to every computer (WinRM, or SSH with <see cref="RemotingOptions.UseSsh"/>).</summary>
        public static HostLinks Open(PSCmdlet cmdlet, IEnumerable<string> computerNames, RemotingOptions options)
        {
            if (options.UseSsh && PowerShellMajorVersion(cmdlet) < 6)
                throw new StorageTestException(ErrorCodes.SshRemotingUnavailable, "SSH remoting (New-PSSession -HostName) needs PowerShell 7; Windows PowerShell 5.1 remotes over WinRM only. Leave out -UseSSH, or run the command in PowerShell 7.",
                    "UseSSH");
            var connector = new HostLinks(cmdlet, options);
            var clock = System.Diagnostics.Stopwatch.StartNew();
            try
            {
                string[] names = computerNames.Where(n => !string.IsNullOrWhiteSpace(n)).ToArray();
                var ssh = options.UseSsh ? connector.OpenSsh(names) : null;
                for (int i = 0; i < names.Length; i++)
                {
                    string name = names[i];
                    Runspace? runspace = null;
                    Exception? failure = null;
                    try
                    {
                        if (ssh != null)
                        {
                            runspace = ssh[i].Runspace;
                            failure = ssh[i].Failure;
                        }
                        else runspace = connector.OpenWsMan(name);
                    }
                    catch (Exception ex) when (!(ex is PipelineStoppedException))
                    {
                        if (!options.UseSsh && WsManMissing(ex))
                            throw new StorageTestException(ErrorCodes.WsManUnavailable,
                                $"This computer cannot open WinRM (WSMan) sessions: {ex.Message} PowerShell on Linux and macOS has no WSMan client. Use -UseSSH (PowerShell remoting over SSH, with -UserName, -KeyFilePath, -Port), or -Session with sessions you opened with New-PSSession.",
                                name, ex);
                        // WinRM and SSH fail in many ways (transport, authentication, host keys): each is this host's failure only.
                        failure = ex;
                    }
                    connector.Add(name, runspace, failure == null ? null : $"no remoting session could be opened: {Unwrapped(failure).Message}", failure);
                }
                cmdlet.WriteVerbose(string.Format(System.Globalization.CultureInfo.InvariantCulture, "Opened {0} of {1} in {2:0.0} s.",
                    connector._hosts.Count(h => h.Link != null), Wording.Count(connector._hosts.Count, (options.UseSsh ? "SSH" : "WinRM") + " session"), clock.Elapsed.TotalSeconds));
            }
            catch
            {
                connector.Dispose();
                throw;
            }
            return connector;
        }

        public void Dispose()
        {
            foreach (PSSession session in _openedSessions)
            {
                try
                {
                    _cmdlet.InvokeCommand.InvokeScript("Remove-PSSession -Session $args[0] -ErrorAction SilentlyContinue", session);
                }
                catch (Exception)
                {
                    // A stopping pipeline runs no script, and a broken session may refuse: close its connection directly.
                    try { session.Runspace?.Dispose(); } catch (Exception) { /* gone already */ }
                }
            }
            foreach (Runspace runspace in _opened)
            {
                try
                {
                    runspace.Dispose();
                }
                catch (Exception ex) when (ex is InvalidOperationException || ex is RuntimeException)
                {
                    // Same: the connection may have dropped.
                }
            }
            _opened.Clear();
            _openedSessions.Clear();
        }

        /// <summary>A host given; one that could not be reached (<paramref name="unreachable"/>) is reported as HostFailed, a non-terminating error whose target is its address.</summary>
        private void Add(string address, Runspace? runspace, string? unreachable, Exception? inner)
        {
            _hosts.Add(new HostTarget(address, runspace == null ? null : new RunspaceHostLink(runspace, () => _cmdlet.Stopping), unreachable));
            if (unreachable != null) _cmdlet.WriteError(HostRoster.Failure(address, address, unreachable, inner));
        }

        private Runspace OpenWsMan(string name)
        {
            var connection = new WSManConnectionInfo(false, name, _options.Port ?? WsManPort, "/wsman", ShellUri, _options.Credential);
            Runspace runspace = RunspaceFactory.CreateRunspace(connection);
            _opened.Add(runspace);
            runspace.Open();
            return runspace;
        }

        /// <summary>
        /// Every host's SSH session from one New-PSSession call, in the order given: a session for each name (two sessions
        /// for a name given twice), or the error that names that host (New-PSSession starts each message with "[host]").
        /// </summary>
        private List<(Runspace? Runspace, Exception? Failure)> OpenSsh(string[] names)
        {
            // The SSH transport's types are PowerShell 7's own, absent from the 5.1 reference: New-PSSession opens it.
            var sessions = new List<PSSession>();
            var errors = new List<ErrorRecord>();
            foreach (PSObject item in _cmdlet.InvokeCommand.InvokeScript(OpenSshScript, _options.NewPSSessionParameters(names)))
            {
                if (!(SettingSource.Unwrap(item) is System.Collections.IDictionary answer)) continue;
                foreach (object? s in (answer["Sessions"] as System.Collections.IEnumerable) ?? new object[0])
                    if (SettingSource.Unwrap(s) is PSSession session) sessions.Add(session);
                foreach (object? e in (answer["Errors"] as System.Collections.IEnumerable) ?? new object[0])
                    if (SettingSource.Unwrap(e) is ErrorRecord error) errors.Add(error);
            }
            _openedSessions.AddRange(sessions);
            var opened = new List<(Runspace?, Exception?)>();
            foreach (string name in names)
            {
                PSSession? session = sessions.FirstOrDefault(s => string.Equals(s.ComputerName, name, StringComparison.OrdinalIgnoreCase));
                if (session != null)
                {
                    sessions.Remove(session);
                    opened.Add((session.Runspace, null));
                    continue;
                }
                ErrorRecord? error = errors.FirstOrDefault(e => Message(e).IndexOf("[" + name + "]", StringComparison.OrdinalIgnoreCase) >= 0);
                opened.Add((null, error?.Exception ?? new InvalidOperationException(errors.Count == 0
                    ? $"New-PSSession -HostName {name} returned no session."
                    : string.Join(" ", errors.Select(Message).Distinct()))));
            }
            return opened;
        }

        private static string Message(ErrorRecord error) => error.ErrorDetails?.Message ?? error.Exception?.Message ?? error.ToString();

        /// <summary>The error itself, not the "-ErrorAction Stop" wrapper New-PSSession's failure comes in.</summary>
        private static Exception Unwrapped(Exception ex) =>
            ex is ActionPreferenceStopException stop && stop.ErrorRecord?.Exception is Exception inner && !ReferenceEquals(inner, ex) ? inner : ex;

        /// <summary>No WSMan client library here (PowerShell on Linux and macOS): every WinRM connection fails alike.</summary>
        private static bool WsManMissing(Exception ex)
        {
            for (Exception? e = ex; e != null; e = e.InnerException)
                if (e is DllNotFoundException) return true;
            return false;
        }

        // PSVersion is a System.Version in 5.1 and a SemanticVersion in 7: both have Major.
        private static int PowerShellMajorVersion(PSCmdlet cmdlet) =>
            SettingSource.Unwrap(cmdlet.SessionState.PSVariable.GetValue("PSVersionTable")) is System.Collections.IDictionary table && table["PSVersion"] != null
                ? LanguagePrimitives.ConvertTo<int>(PSObject.AsPSObject(table["PSVersion"]).Properties["Major"]?.Value ?? 5)
                : 5;
    }
}
