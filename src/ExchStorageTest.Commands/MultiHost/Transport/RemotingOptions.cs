using System.Collections;
using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// How -ComputerName reaches the hosts: WinRM with -Credential (and -Port), or SSH with -UseSSH and what
    /// New-PSSession -HostName takes: -UserName, -KeyFilePath, -Port and -SSHOptions (its -Options: ssh_config
    /// keywords such as UserKnownHostsFile), so a run depends on ~/.ssh/config only where the user leaves these out.
    /// </summary>
    internal sealed class RemotingOptions
    {
        public bool UseSsh { get; set; }
        public PSCredential? Credential { get; set; }
        public int? Port { get; set; }
        public string? UserName { get; set; }
        /// <summary>Absolute (resolved against the PowerShell location).</summary>
        public string? KeyFilePath { get; set; }
        public Hashtable? SshOptions { get; set; }

        /// <summary>Refuses options of the other transport, a port out of range and a key file that is not there, before any host is contacted.</summary>
        public void Validate()
        {
            if (!UseSsh)
            {
                string? sshOnly = UserName != null ? "UserName" : KeyFilePath != null ? "KeyFilePath" : SshOptions != null ? "SSHOptions" : null;
                if (sshOnly != null)
                    throw new StorageTestException(ErrorCodes.SshParameterWithoutUseSsh, $"-{sshOnly} is an SSH setting: add -UseSSH (WinRM takes -Credential).", sshOnly);
            }
            else if (Credential != null)
                throw new StorageTestException(ErrorCodes.CredentialWithSsh, "-Credential is for WinRM. Over SSH (-UseSSH) give -UserName and -KeyFilePath, or leave them to the SSH agent and ~/.ssh/config.", "Credential");
            if (Port is int port && (port < 1 || port > 65535))
                throw new StorageTestException(ErrorCodes.InvalidPort, $"Port {port} is not valid: it must be between 1 and 65535.", port);
            if (KeyFilePath != null && !File.Exists(KeyFilePath))
                throw new StorageTestException(ErrorCodes.KeyFileNotFound, $"The SSH key file '{KeyFilePath}' does not exist.", KeyFilePath);
        }

        /// <summary>New-PSSession's parameters over SSH for these hosts (it opens them all at once).</summary>
        public Hashtable NewPSSessionParameters(string[] hostNames)
        {
            var parameters = new Hashtable { ["HostName"] = hostNames };
            if (UserName != null) parameters["UserName"] = UserName;
            if (KeyFilePath != null) parameters["KeyFilePath"] = KeyFilePath;
            if (Port.HasValue) parameters["Port"] = Port.Value;
            if (SshOptions != null) parameters["Options"] = SshOptions;
            return parameters;
        }
    }
}
