using System;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using System.Management.Automation.Runspaces;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// One short script on a host's runspace (a check, a clock reading, a plan, a file chunk), waited for with a
    /// time limit and a stop: a host that hangs or a Ctrl+C never holds the command. Any thread may call it (hosts are
    /// checked in parallel). The scripts use only the core
    /// language and .NET, so they run in Windows PowerShell 5.1, PowerShell 7 and a hosted engine alike.
    /// </summary>
    internal static class RemoteScript
    {
        public static readonly TimeSpan DefaultTimeout = TimeSpan.FromMinutes(2);
        private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(100);

        /// <summary>The script's output; its first error (terminating or not) is thrown as an InvalidOperationException with the host's message.</summary>
        public static IList<PSObject> Invoke(Runspace runspace, Func<bool> stopping, string script, TimeSpan timeout, params object?[] args)
        {
            using (var ps = PowerShell.Create())
            {
                ps.Runspace = runspace;
                ps.AddScript(script);
                foreach (object? arg in args) ps.AddArgument(arg);
                var output = new PSDataCollection<PSObject>();
                IAsyncResult pending = ps.BeginInvoke<PSObject, PSObject>(null, output, StreamsOnlyHost.Settings(), null, null);
                DateTime deadline = DateTime.UtcNow + timeout;
                while (!pending.AsyncWaitHandle.WaitOne(Poll))
                {
                    if (stopping())
                    {
                        ps.Stop();
                        throw new PipelineStoppedException();
                    }
                    if (DateTime.UtcNow > deadline)
                    {
                        ps.Stop();
                        throw new TimeoutException($"the host did not answer within {timeout}.");
                    }
                }
                try
                {
                    ps.EndInvoke(pending);
                }
                catch (RuntimeException ex) when (!(ex is PipelineStoppedException))
                {
                    throw new InvalidOperationException(ex.Message, ex);
                }
                ErrorRecord? error = ps.Streams.Error.FirstOrDefault();
                if (error != null) throw new InvalidOperationException(error.Exception?.Message ?? error.ToString(), error.Exception);
                return output.ToList();
            }
        }
    }
}
