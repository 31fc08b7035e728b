using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Management.Automation;
using System.Threading;
using ExchStorageTest.Contract;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The orchestrator's work on every host at once: each host's step on a thread of its own (remote calls wait on the
    /// network, not the CPU), while the command's thread writes what they have to say and the progress. A failure fails its
    /// host only (<see cref="HostRoster.Fail"/>); a stop stops the command once every host's step has returned.
    /// </summary>
    internal sealed class EveryHost
    {
        private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);

        private readonly IRunOutput _output;
        private readonly HostRoster _roster;

        public EveryHost(IRunOutput output, HostRoster roster)
        {
            _output = output;
            _roster = roster;
        }

        /// <summary>Runs <paramref name="step"/> on every host at once; returns the next phase of each host that did not fail, in order.</summary>
        public List<TNext> Run<THost, TNext>(IReadOnlyList<THost> hosts, Func<THost, HostTarget> target, string activity, string doing, Func<THost, Action<string>, TNext> step)
        {
            var next = new TNext[hosts.Count];
            var failures = new Exception?[hosts.Count];
            if (hosts.Count == 0) return new List<TNext>();
            var said = new ConcurrentQueue<string>();
            int left = hosts.Count;
            using (var done = new ManualResetEvent(false))
            {
                for (int i = 0; i < hosts.Count; i++)
                {
                    int index = i;
                    var thread = new Thread(() =>
                    {
                        try
                        {
                            next[index] = step(hosts[index], said.Enqueue);
                        }
                        catch (Exception ex)
                        {
                            failures[index] = ex;
                        }
                        finally
                        {
                            if (Interlocked.Decrement(ref left) == 0) done.Set();
                        }
                    }) { IsBackground = true, Name = "ExchStorageTest host " + target(hosts[i]).Address };
                    thread.Start();
                }
                while (true)
                {
                    bool all = done.WaitOne(Poll);
                    while (said.TryDequeue(out string? message)) if (!_output.Stopping) _output.Verbose(message);
                    if (all) break;
                    if (!_output.Stopping)
                        _output.Progress(new ProgressRecord(1, activity, $"{doing} {Wording.Count(hosts.Count, "host")}: {hosts.Count - Volatile.Read(ref left)} done") { CurrentOperation = doing });
                }
            }
            if (_output.Stopping) throw new PipelineStoppedException();
            var passed = new List<TNext>();
            for (int i = 0; i < hosts.Count; i++)
            {
                if (failures[i] is Exception failure) _output.Error(_roster.Fail(target(hosts[i]), Unwrapped(failure).Message, failure));
                else passed.Add(next[i]);
            }
            return passed;
        }

        /// <summary>Runs <paramref name="step"/> for one host on the command's thread; any failure but a stop fails that host only. True when it passed.</summary>
        public bool Attempt(HostTarget target, Action step)
        {
            try
            {
                step();
                return true;
            }
            catch (Exception ex) when (!(ex is PipelineStoppedException) && !_output.Stopping)
            {
                _output.Error(_roster.Fail(target, ex.Message, ex));
                return false;
            }
        }

        /// <summary>The error itself, not the wrapper a remote call or a thread put around it.</summary>
        private static Exception Unwrapped(Exception ex) =>
            ex is InvalidOperationException && ex.InnerException is IContainsErrorRecord && ex.Message == ex.InnerException.Message ? ex.InnerException : ex;
    }
}
