using System.Globalization;
using System;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// Start instants as users, files and remote sessions hand them over. A DateTime of kind Local (Get-Date, or
    /// '2024-06-01T02:00:00Z' bound by PowerShell, which parses to local time) is converted; Unspecified is taken
    /// as UTC, because the start file and the engine always write UTC.
    /// </summary>
    internal static class UtcTime
    {
        public static DateTime From(DateTime value) =>
            value.Kind == DateTimeKind.Local ? value.ToUniversalTime() : DateTime.SpecifyKind(value, DateTimeKind.Utc);

        /// <summary>To whole milliseconds: the precision the start file keeps, so the object and the file agree.</summary>
        public static DateTime ToMilliseconds(DateTime utc) => new DateTime(utc.Ticks - utc.Ticks % TimeSpan.TicksPerMillisecond, DateTimeKind.Utc);

        public static string Iso(DateTime value) => From(value).ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);

        /// <summary>An ISO 8601 text as UTC (an offset in the text is honoured), or null.</summary>
        public static DateTime? Parse(string? text)
        {
            if (string.IsNullOrWhiteSpace(text)) return null;
            return DateTime.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AdjustToUniversal | DateTimeStyles.AssumeUniversal, out DateTime parsed)
                ? DateTime.SpecifyKind(parsed, DateTimeKind.Utc)
                : (DateTime?)null;
        }
    }
}
