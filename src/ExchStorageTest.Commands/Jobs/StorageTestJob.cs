using System;
using System.Collections.Generic;
using System.Management.Automation;
using System.Threading;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;

namespace ExchStorageTest.Jobs
{
    /// <summary>
    /// -AsJob: a storage test in the background of this session, as a job Get-Job, Wait-Job, Receive-Job and
    /// Stop-Job know. It drives the engine from a thread of its own (the engine is a process already, so no
    /// second PowerShell process is needed, and no module has to be imported again). Stop-Job asks the engine
    /// to stop cleanly, and unlike a stopped pipeline a job can still deliver output: Receive-Job returns the
    /// partial result.
    /// </summary>
    internal sealed class StorageTestJob : Job, IRunSink
    {
        private readonly EngineRun _run = new EngineRun();
        private readonly Func<EngineRun, IRunSink, IEnumerable<object>> _work;
        private readonly ManualResetEvent _finished = new ManualResetEvent(false);
        private string _status = "";

        public StorageTestJob(string command, string name, Func<EngineRun, IRunSink, IEnumerable<object>> work)
            : base(command, name)
        {
            _work = work;
            PSJobTypeName = "ExchStorageTestJob";
        }

        public override string StatusMessage => _status;

        public override bool HasMoreData => Output.Count > 0 || Error.Count > 0 || Warning.Count > 0 || Verbose.Count > 0 || Progress.Count > 0 || Information.Count > 0;

        public override string Location => Environment.MachineName;

        public void Start()
        {
            SetJobState(JobState.Running);
            var thread = new Thread(Work) { IsBackground = true, Name = "ExchStorageTest job " + Name };
            thread.Start();
        }

        /// <summary>A control command for the job's engine (<see cref="ControlCommands"/>).</summary>
        public void Send(string command, Json.JsonObject? argument = null) => _run.Send(command, argument);

        public override void StopJob()
        {
            if (IsFinished(JobStateInfo.State)) return;
            SetJobState(JobState.Stopping);
            _run.Stop();
            _finished.WaitOne(EngineProcess.StopGrace + TimeSpan.FromSeconds(10));
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                if (!IsFinished(JobStateInfo.State)) StopJob();
                _finished.Dispose();
            }
            base.Dispose(disposing);
        }

        private void Work()
        {
            JobState final = JobState.Completed;
            try
            {
                foreach (object item in _work(_run, this)) Output.Add(PSObject.AsPSObject(item));
                if (_run.StopRequested) final = JobState.Stopped;
            }
            catch (StorageTestException ex)
            {
                Error.Add(ex.ErrorRecord);
                final = _run.StopRequested ? JobState.Stopped : JobState.Failed;
            }
            catch (Exception ex)
            {
                Error.Add(new ErrorRecord(ex, StorageTestException.IdPrefix + ErrorCodes.JobFailed.Code, ErrorCategory.NotSpecified, null));
                final = JobState.Failed;
            }
            _status = final.ToString();
            SetJobState(final);
            _finished.Set();
        }

        private static bool IsFinished(JobState state) =>
            state == JobState.Completed || state == JobState.Failed || state == JobState.Stopped;

        bool IRunSink.CanWrite => true;
        void IRunSink.Verbose(string message) => Verbose.Add(new VerboseRecord(message));
        void IRunSink.Information(string message) => Information.Add(new InformationRecord(message, "ExchStorageTest"));
        void IRunSink.Warning(string message) => Warning.Add(new WarningRecord(message));
        void IRunSink.Progress(ProgressRecord record) => Progress.Add(record);
        void IRunSink.Error(ErrorRecord record) => Error.Add(record);
    }
}
