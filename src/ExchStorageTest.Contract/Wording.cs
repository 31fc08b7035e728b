using System;
using System.Globalization;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// Counts and percentages in sentences, written as a person writes them: "1 session", "2 sessions", "300% over".
    /// The one engine every report line, test-log line, message and view that states a count or a share builds it
    /// with, in both halves (the contract is compiled into the module and the engine), so no sentence
    /// says "1 sessions", "error(s)" or "300.000%". Invariant culture: the files are read by tools too.
    /// </summary>
    public static class Wording
    {
        /// <summary>"1 session", "2 sessions": a count with a noun that takes an "s" in the plural.</summary>
        public static string Count(long count, string noun) => Count(count, noun, noun + "s");

        /// <summary>"1 copy", "2 copies": a count with its noun in the right number.</summary>
        public static string Count(long count, string one, string many) =>
            count.ToString(CultureInfo.InvariantCulture) + " " + Noun(count, one, many);

        /// <summary>The noun alone in the number a count asks for ("database" for 1, "databases" otherwise).</summary>
        public static string Noun(long count, string one, string many) => count == 1 ? one : many;

        /// <summary>
        /// A percentage as a person writes it: at most <paramref name="decimals"/> decimals and none that are zero
        /// ("300%", "12.5%", "0.4%"), rounded half away from zero; never "-0%".
        /// </summary>
        public static string Percent(double percent, int decimals = 1)
        {
            if (double.IsNaN(percent) || double.IsInfinity(percent)) return "";
            int places = Math.Max(0, Math.Min(decimals, 15));
            double rounded = Math.Round(percent, places, MidpointRounding.AwayFromZero);
            if (rounded == 0) rounded = 0; // -0 prints as "-0"
            return rounded.ToString(places == 0 ? "0" : "0." + new string('#', places), CultureInfo.InvariantCulture) + "%";
        }
    }
}
