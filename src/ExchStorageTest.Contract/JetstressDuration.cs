using System;
using System.Globalization;
using System.Text.RegularExpressions;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// Jetstress's two ways of writing a test's length: the configuration's <c>Duration</c>, an xs:duration as .NET's
    /// SoapDuration writes it ("P0Y0M0DT2H0M0S"), and JetstressCmd's <c>/timeout</c> ("2H0M0S"). Both are read leniently,
    /// as scripts write them: fields may be left out or unnormalised ("PT90M", "P0Y0M0DT25H0M0S", "0H90M0S"), letters in
    /// either case, a fraction on the seconds; a year counts 365 days and a month 30, as SoapDuration reads them.
    /// </summary>
    public static class JetstressDuration
    {
        private static readonly Regex XsDuration = new Regex(
            @"^P(?:(?<y>\d+)Y)?(?:(?<mo>\d+)M)?(?:(?<d>\d+)D)?(?:T(?:(?<h>\d+)H)?(?:(?<mi>\d+)M)?(?:(?<s>\d+(?:\.\d+)?)S)?)?$",
            RegexOptions.CultureInvariant | RegexOptions.IgnoreCase);

        private static readonly Regex Timeout = new Regex(
            @"^(?:(?<h>\d+)H)?(?:(?<mi>\d+)M)?(?:(?<s>\d+(?:\.\d+)?)S)?$",
            RegexOptions.CultureInvariant | RegexOptions.IgnoreCase);

        /// <summary>The seconds of an xs:duration, or null when <paramref name="text"/> is not one (a negative one is not).</summary>
        public static double? ParseXsDuration(string? text) => Seconds(XsDuration.Match((text ?? "").Trim()), requireTime: true);

        /// <summary>The seconds of a <c>/timeout</c> value ("2H0M0S", "0H40M0S", "90M"), or null when it is not one.</summary>
        public static double? ParseTimeout(string? text) => Seconds(Timeout.Match((text ?? "").Trim()), requireTime: false);

        /// <summary>xs:duration as Jetstress writes it: "P0Y0M{d}DT{h}H{m}M{s}S", normalised.</summary>
        public static string ToXsDuration(double seconds)
        {
            var t = TimeSpan.FromSeconds(Math.Round(seconds));
            return string.Format(CultureInfo.InvariantCulture, "P0Y0M{0}DT{1}H{2}M{3}S", t.Days, t.Hours, t.Minutes, t.Seconds);
        }

        private static double? Seconds(Match m, bool requireTime)
        {
            if (!m.Success) return null;
            bool any = false;
            double total = 0;
            foreach (var (group, unit) in new[] { ("y", 365 * 86400.0), ("mo", 30 * 86400.0), ("d", 86400.0), ("h", 3600.0), ("mi", 60.0), ("s", 1.0) })
            {
                var g = m.Groups[group];
                if (!g.Success) continue;
                any = true;
                total += double.Parse(g.Value, NumberStyles.Float, CultureInfo.InvariantCulture) * unit;
            }
            // "P" or "PT" alone, and "" for a timeout, name no length at all.
            if (!any) return null;
            if (requireTime && m.Value.EndsWith("T", StringComparison.OrdinalIgnoreCase)) return null;
            return total;
        }
    }
}
