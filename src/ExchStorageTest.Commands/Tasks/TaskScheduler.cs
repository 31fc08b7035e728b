using System;
using System.Management.Automation;
using ExchStorageTest.Engine;

namespace ExchStorageTest.Tasks
{
    /// <summary>
    /// The scheduler of this computer behind Register-StorageTestTask and Unregister-StorageTestTask, so the commands say
    /// what to schedule and never which platform they are on: Task Scheduler on Windows (<see cref="WindowsTaskScheduler"/>),
    /// a systemd service and timer elsewhere (<see cref="SystemdTimers"/>). Every check a scheduler makes (the scheduler
    /// is there, the values fit its files) comes before the command's ShouldProcess, so nothing is written when one fails.
    /// </summary>
    internal interface ITaskScheduler
    {
        /// <summary>Windows or Linux, as the ScheduledTest reports it.</summary>
        string Platform { get; }

        /// <summary>The account a task runs as when no -Credential is given.</summary>
        string DefaultAccount { get; }

        /// <summary>Where the scheduler's own files go (systemd's unit folder; unused by Task Scheduler).</summary>
        string UnitFolder { get; }

        /// <summary>Whether the task (or its units) is registered already, and how to say so.</summary>
        bool Exists(TaskFiles files);
        string ExistsMessage(TaskFiles files);
        string NotFoundMessage(TaskFiles files);

        /// <summary>
        /// Checks and builds the task for the question; <see cref="TaskChange.Apply"/> registers it, writing its files
        /// through <paramref name="writes"/>, and when the scheduler refuses, takes back what it wrote before it throws.
        /// </summary>
        TaskChange Registration(TaskFiles files, string powerShell, TaskSchedule schedule, PSCredential? credential, string description, ScheduledTest task, TaskWrites writes);

        /// <summary>
        /// Checks and describes the removal for the question; <see cref="TaskChange.Apply"/> removes the task (the runner
        /// script is the command's), also what a refused registration left; <paramref name="warn"/> says what it could not do.
        /// </summary>
        TaskChange Removal(TaskFiles files, Action<string> warn);
    }

    /// <summary>A change a scheduler is ready to make: what it touches (for ShouldProcess) and the change itself.</summary>
    internal sealed class TaskChange
    {
        public TaskChange(string what, string question, Action apply)
        {
            What = what;
            Question = question;
            Apply = apply;
        }

        /// <summary>What the change writes or removes, in the words of the scheduler.</summary>
        public string What { get; }

        /// <summary>ShouldProcess's question.</summary>
        public string Question { get; }

        public Action Apply { get; }
    }

    internal static class TaskSchedulers
    {
        /// <summary>This computer's scheduler; <paramref name="unitFolder"/> is systemd's (-UnitPath).</summary>
        public static ITaskScheduler ForThisComputer(string unitFolder) =>
            EngineLocator.IsWindows ? new WindowsTaskScheduler() : (ITaskScheduler)new SystemdTimers(unitFolder);
    }
}
