using System.Globalization;
using System.Text;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// Number and time formatting shared by every report, always in the invariant culture.
/// Numbers are rounded the way Jetstress (.NET Framework) and the spreadsheets behind ESRP
/// documents round them: to 15 significant digits first, then half away from zero. That is why
/// the mean of 2.125, 2.065, 2.083 and 2.029 prints 2.076 (as published), not 2.075 (the exact
/// binary value 2.07549999...).
/// A number a run does not have (NaN) prints as nothing: an empty cell or attribute, never 0 and never text,
/// so every reader that parses a cell as a number (Jetstress automation: docs/jetstress.md) finds either a
/// plain invariant number or no number at all.
/// </summary>
public static class JetFormat
{
    public static readonly CultureInfo Culture = CultureInfo.InvariantCulture;

    private static readonly string[] FixedFormats = Enumerable.Range(0, 16).Select(d => "F" + d.ToString(CultureInfo.InvariantCulture)).ToArray();

    /// <summary>Fixed decimals (3 like Jetstress unless told), no thousands separators; "" for a number that does not exist (NaN).</summary>
    public static string Number(double value, int decimals = 3)
    {
        Span<char> buffer = stackalloc char[64];
        return TryFormat(value, decimals, buffer, out int n) ? new string(buffer[..n]) : Slow(value, decimals);
    }

    /// <summary>Appends <see cref="Number"/>'s text without allocating a string (large CSV files).</summary>
    public static StringBuilder AppendNumber(StringBuilder sb, double value, int decimals = 3)
    {
        Span<char> buffer = stackalloc char[64];
        return TryFormat(value, decimals, buffer, out int n) ? sb.Append(buffer[..n]) : sb.Append(Slow(value, decimals));
    }

    private static bool TryFormat(double value, int decimals, Span<char> buffer, out int written)
    {
        written = 0;
        if (double.IsNaN(value) || double.IsInfinity(value) || Math.Abs(value) >= 1e27 || (uint)decimals >= FixedFormats.Length) return false;
        decimal d = Math.Round((decimal)value, decimals, MidpointRounding.AwayFromZero);
        return d.TryFormat(buffer, out written, FixedFormats[decimals], Culture);
    }

    private static string Slow(double value, int decimals) =>
        double.IsNaN(value) || double.IsInfinity(value) ? "" : value.ToString("F" + decimals.ToString(Culture), Culture);

    /// <summary>Appends <see cref="Iso"/>'s text without allocating.</summary>
    public static StringBuilder AppendIso(StringBuilder sb, DateTime utc)
    {
        Span<char> buffer = stackalloc char[32];
        DateTime.SpecifyKind(utc, DateTimeKind.Utc).TryFormat(buffer, out int n, "yyyy-MM-ddTHH:mm:ss.fffZ", Culture);
        return sb.Append(buffer[..n]);
    }

    /// <summary>Rounds as <see cref="Number"/> prints, for derived figures that must agree with printed ones.</summary>
    public static double Round(double value, int decimals)
    {
        if (double.IsNaN(value) || double.IsInfinity(value) || Math.Abs(value) >= 1e27) return value;
        return (double)Math.Round((decimal)value, decimals, MidpointRounding.AwayFromZero);
    }

    /// <summary>An integer count, no separators.</summary>
    public static string Integer(long value) => value.ToString(Culture);

    /// <summary>A percentage as Jetstress prints operation mixes: "40%".</summary>
    public static string Percent(int value) => Wording.Percent(value, 0);

    /// <summary>Jetstress report time: "3/3/2014 1:44:08 PM", in the given zone (UTC unless told).</summary>
    public static string Time(DateTime utc, TimeZoneInfo? zone = null)
    {
        var t = ToZone(utc, zone);
        return t.ToString("M/d/yyyy h:mm:ss tt", Culture);
    }

    /// <summary>ISO 8601 with offset for machine-readable outputs.</summary>
    public static string Iso(DateTime utc) =>
        DateTime.SpecifyKind(utc, DateTimeKind.Utc).ToString("yyyy-MM-ddTHH:mm:ss.fffZ", Culture);

    /// <summary>Elapsed time as Jetstress prints backup times: "01:23:21".</summary>
    public static string Elapsed(double seconds)
    {
        if (double.IsNaN(seconds) || seconds < 0) seconds = 0;
        long s = (long)Math.Round(seconds, MidpointRounding.AwayFromZero);
        return string.Format(Culture, "{0:00}:{1:00}:{2:00}", s / 3600, s / 60 % 60, s % 60);
    }

    public const long KiB = 1024, MiB = 1024 * KiB, GiB = 1024 * MiB, TiB = 1024 * GiB;

    /// <summary>
    /// Sizes are binary (as Windows, Jetstress and ESRP documents count them) and printed with the IEC
    /// symbol of the unit they are computed in, so none reads as decimal: "128.0 MiB".
    /// </summary>
    public static string Mebibytes(long bytes) => Number(bytes / (double)MiB, 1) + " MiB";

    /// <summary>"252 GiB", "0.98 GiB": gibibytes with the given decimals.</summary>
    public static string Gibibytes(double bytes, int decimals) => Number(bytes / GiB, decimals) + " GiB";

    /// <summary>Whole kibibytes ("64 KiB"), or bytes when not a whole number of them.</summary>
    public static string Kibibytes(long bytes) => bytes % KiB == 0 ? Integer(bytes / KiB) + " KiB" : Integer(bytes) + " bytes";

    public static DateTime ToZone(DateTime utc, TimeZoneInfo? zone)
    {
        var u = DateTime.SpecifyKind(utc, DateTimeKind.Utc);
        return zone is null || zone == TimeZoneInfo.Utc ? u : TimeZoneInfo.ConvertTimeFromUtc(u, zone);
    }

    /// <summary>The zone label printed next to times.</summary>
    public static string ZoneLabel(TimeZoneInfo? zone) => zone is null || zone == TimeZoneInfo.Utc ? "UTC" : zone.Id;
}
