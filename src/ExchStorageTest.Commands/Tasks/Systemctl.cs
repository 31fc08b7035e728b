using System;
using System.Diagnostics;
using System.Management.Automation;
using System.Text;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Tasks
{
    /// <summary>
    /// systemctl, found on PATH when the command starts (so a missing systemd is reported before anything is
    /// written, and tests can put a recording stand-in first on PATH).
    /// </summary>
    internal sealed class Systemctl
    {
        private readonly string _path;

        private Systemctl(string path) => _path = path;

        public static Systemctl Find() => new Systemctl(ExecutableSearch.OnPath("systemctl")
            ?? throw new StorageTestException(ErrorCodes.SystemctlNotFound,
                "systemctl was not found on PATH: this host does not run systemd, so a timer cannot be registered. Nothing was written.",
                "systemctl"));

        /// <summary>Runs systemctl with <paramref name="arguments"/> (unit names: no quoting needed); throws SystemctlFailed on a non-zero exit.</summary>
        public void Run(params string[] arguments)
        {
            if (!TryRun(out string failure, arguments))
                throw new StorageTestException(ErrorCodes.SystemctlFailed, failure, "systemctl");
        }

        /// <summary>Runs systemctl; false (with what it said) on a non-zero exit. Throws SystemctlFailed only when it cannot start.</summary>
        public bool TryRun(out string failure, params string[] arguments)
        {
            string line = string.Join(" ", arguments);
            var info = new ProcessStartInfo(_path, line)
            {
                UseShellExecute = false,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                CreateNoWindow = true,
            };
            var output = new StringBuilder();
            int exit;
            try
            {
                using var process = Process.Start(info) ?? throw new InvalidOperationException("the process did not start");
                process.ErrorDataReceived += (_, e) => { if (e.Data != null) lock (output) output.AppendLine(e.Data); };
                process.BeginErrorReadLine();
                string stdout = process.StandardOutput.ReadToEnd();
                process.WaitForExit();
                exit = process.ExitCode;
                lock (output) output.Insert(0, stdout);
            }
            catch (Exception ex) when (ex is InvalidOperationException || ex is System.ComponentModel.Win32Exception)
            {
                throw new StorageTestException(ErrorCodes.SystemctlFailed, $"systemctl ('{_path}') could not be started: {ex.Message}", "systemctl", ex);
            }
            failure = exit == 0 ? "" : $"systemctl {line} failed (exit code {exit}): {output.ToString().Trim()}";
            return exit == 0;
        }

        /// <summary>A call whose failure changes nothing (tidying after a refusal): its failure is ignored.</summary>
        public void RunIgnoringFailure(params string[] arguments)
        {
            try
            {
                TryRun(out _, arguments);
            }
            catch (StorageTestException)
            {
            }
        }
    }
}
