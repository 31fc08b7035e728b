using System;
using System.IO;
using ExchStorageTest.Engine;

namespace ExchStorageTest.Tasks
{
    /// <summary>
    /// Where a scheduled storage test lives: its runner script, and on Linux its systemd unit pair. Register and
    /// Unregister both name them from here, so they agree on the defaults.
    /// </summary>
    internal sealed class TaskFiles
    {
        /// <summary>Task names: letters, digits, '.', '_', '-' (a file name, a task name and a unit name alike).</summary>
        public const string NamePattern = "^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$";

        public const string WindowsTaskPath = "\\ExchStorageTest\\";

        public const string DefaultUnitFolder = "/etc/systemd/system";

        public TaskFiles(string name, string scriptFolder, string unitFolder)
        {
            Name = name;
            ScriptFolder = scriptFolder;
            RunnerPath = Path.Combine(scriptFolder, name + ".ps1");
            UnitFolder = unitFolder;
            UnitName = "exchstoragetest-" + name;
            ServicePath = Path.Combine(unitFolder, UnitName + ".service");
            TimerPath = Path.Combine(unitFolder, UnitName + ".timer");
        }

        /// <summary>%ProgramData%\ExchStorageTest\Tasks on Windows, /var/lib/exchstoragetest/tasks elsewhere.</summary>
        public static string DefaultScriptFolder => EngineLocator.IsWindows
            ? Path.Combine(Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.CommonApplicationData), "ExchStorageTest"), "Tasks")
            : "/var/lib/exchstoragetest/tasks";

        public string Name { get; }
        public string ScriptFolder { get; }
        public string RunnerPath { get; }
        public string UnitFolder { get; }
        public string UnitName { get; }
        public string ServicePath { get; }
        public string TimerPath { get; }
        public string TimerUnit => UnitName + ".timer";

        public bool UnitsExist => File.Exists(ServicePath) || File.Exists(TimerPath);
    }
}
