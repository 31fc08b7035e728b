using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Tasks
{
    /// <summary>
    /// When a scheduled storage test runs: daily or weekly at a local time, or once at a local date and time.
    /// Task Scheduler and systemd both read the time as the host's local time.
    /// </summary>
    internal sealed class TaskSchedule
    {
        public const string Daily = "Daily";
        public const string Weekly = "Weekly";
        public const string Once = "Once";

        public TaskSchedule(string kind, DateTime at, IEnumerable<DayOfWeek>? daysOfWeek)
        {
            Kind = kind;
            At = at;
            // Sunday first, as DayOfWeek and both schedulers count; each day once.
            Days = (daysOfWeek ?? Enumerable.Empty<DayOfWeek>()).Distinct().OrderBy(d => d).ToArray();
            if (kind == Weekly && Days.Count == 0)
                throw new StorageTestException(ErrorCodes.DaysOfWeekMissing, "A weekly schedule needs at least one day: give -DaysOfWeek, for example -DaysOfWeek Saturday.", null);
        }

        public string Kind { get; }
        public DateTime At { get; }
        public IReadOnlyList<DayOfWeek> Days { get; }

        /// <summary>"Daily at 01:00", "Weekly on Sunday, Saturday at 20:00", "Once at 2024-06-01 02:00".</summary>
        public string Describe() => Kind switch
        {
            Weekly => $"Weekly on {string.Join(", ", Days)} at {Format("HH:mm")}",
            Once => $"Once at {Format("yyyy-MM-dd HH:mm")}",
            _ => $"Daily at {Format("HH:mm")}",
        };

        /// <summary>systemd's OnCalendar: '*-*-* 01:30:00', 'Sun,Sat *-*-* 20:00:00', '2024-06-01 02:00:00'.</summary>
        public string ToSystemdCalendar() => Kind switch
        {
            Weekly => $"{string.Join(",", Days.Select(d => d.ToString().Substring(0, 3)))} *-*-* {Format("HH:mm:ss")}",
            Once => $"{Format("yyyy-MM-dd")} {Format("HH:mm:ss")}",
            _ => $"*-*-* {Format("HH:mm:ss")}",
        };

        private string Format(string pattern) => At.ToString(pattern, CultureInfo.InvariantCulture);
    }
}
