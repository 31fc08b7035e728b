using System;
using System.Globalization;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The range of one number a user or a request gives: the one definition both halves check it with, and the one
    /// message (naming the setting, the value as given and the rule). The module reads the value from whatever a user
    /// hands over and the engine from the request; both then ask <see cref="Check(double)"/>, and a value that is not
    /// a number at all is refused with the same code through <see cref="Refuse"/>.
    /// </summary>
    public sealed class NumberRule
    {
        public NumberRule(string name, string field, ErrorCode code, double minimum, double maximum,
            bool integer = false, bool exclusiveMinimum = false, bool seconds = false, string hint = "")
        {
            Name = name;
            Field = field;
            Code = code;
            Minimum = minimum;
            Maximum = maximum;
            Integer = integer;
            ExclusiveMinimum = exclusiveMinimum;
            Seconds = seconds;
            Hint = hint;
        }

        /// <summary>The name users know the setting by (the parameter or property): MailboxCount.</summary>
        public string Name { get; }
        /// <summary>The request field it checks, as a path: profile.mailboxCount.</summary>
        public string Field { get; }
        public ErrorCode Code { get; }
        public double Minimum { get; }
        public double Maximum { get; }
        public bool Integer { get; }
        public bool ExclusiveMinimum { get; }
        /// <summary>A length in seconds that users give as a TimeSpan: shown as both.</summary>
        public bool Seconds { get; }
        public string Hint { get; }

        public bool Allows(double value) =>
            !double.IsNaN(value) && !double.IsInfinity(value)
            && (ExclusiveMinimum ? value > Minimum : value >= Minimum) && value <= Maximum
            && (!Integer || Math.Floor(value) == value);

        /// <summary>Null when <paramref name="value"/> keeps the rule.</summary>
        public Violation? Check(double value) => Allows(value) ? null : Refuse(Show(value));

        /// <summary>Null when absent or kept.</summary>
        public Violation? Check(double? value) => value.HasValue ? Check(value.Value) : null;

        /// <summary>The refusal of a value, shown as the user gave it ('abc', '1.5', '00:00:00' ...).</summary>
        public Violation Refuse(string shown)
        {
            string kind = Integer ? "a whole number" : "a number";
            string range = ExclusiveMinimum
                ? $"greater than {Format(Minimum)} and at most {Format(Maximum)}"
                : $"from {Format(Minimum)} to {Format(Maximum)}";
            string rule = Seconds ? $"a length greater than {Format(Minimum)} seconds and at most {Length(Maximum)}" : $"{kind} {range}";
            if (Seconds && !ExclusiveMinimum) rule = $"a length from {Format(Minimum)} seconds to {Length(Maximum)}";
            if (Hint.Length > 0) rule += $" ({Hint})";
            return new Violation(Code, $"{Name} '{shown}' is not valid: it must be {rule}.", shown);
        }

        /// <summary>A number as the rule's messages show it; a length as the TimeSpan users give (00:30:00).</summary>
        public string Show(double value)
        {
            bool span = Seconds && !double.IsNaN(value) && !double.IsInfinity(value) && Math.Abs(value) < TimeSpan.MaxValue.TotalSeconds;
            return span ? TimeSpan.FromSeconds(value).ToString() : value.ToString("R", CultureInfo.InvariantCulture);
        }

        private static string Format(double x) => x.ToString("#,0.###", CultureInfo.InvariantCulture);

        private static string Length(double seconds)
        {
            var span = TimeSpan.FromSeconds(seconds);
            if (span.TotalDays >= 1 && span.TotalDays == Math.Floor(span.TotalDays)) return span.TotalDays == 1 ? "one day" : $"{span.TotalDays:0} days";
            return $"{Format(seconds)} seconds";
        }

        /// <summary>The same range and code for a setting of another name (StressDuration is checked as Duration is).</summary>
        public NumberRule Named(string name, string field) => new NumberRule(name, field, Code, Minimum, Maximum, Integer, ExclusiveMinimum, Seconds, Hint);

        public override string ToString() => Name;
    }
}
