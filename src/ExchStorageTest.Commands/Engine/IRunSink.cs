using System.Management.Automation;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// Where an engine run's records go: the command's own streams (on the pipeline thread), or a background
    /// job's collections (-AsJob), where Receive-Job finds them.
    /// </summary>
    internal interface IRunSink
    {
        /// <summary>False once the pipeline is stopping: PowerShell then accepts no records from the command.</summary>
        bool CanWrite { get; }

        void Verbose(string message);
        void Information(string message);
        void Warning(string message);
        void Progress(ProgressRecord record);

        /// <summary>A non-terminating error: the engine reported it and went on.</summary>
        void Error(ErrorRecord record);
    }
}
