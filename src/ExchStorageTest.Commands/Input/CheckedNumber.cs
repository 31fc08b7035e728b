using System;
using System.Globalization;
using System.Management.Automation;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Input
{
    /// <summary>
    /// One rule for every number a user gives, whether typed (parameters), from JSON, or as XML text
    /// (JetstressConfig.xml): the same range check and the same message naming the setting, the value and
    /// the rule. Text is parsed with the invariant culture, so '0.12' means the same on every server.
    /// </summary>
    internal readonly struct NumberRule
    {
        public NumberRule(string name, double minimum, double maximum, string errorId, bool integer = false, bool exclusiveMinimum = false, string hint = "")
        {
            Name = name;
            Minimum = minimum;
            Maximum = maximum;
            ErrorId = errorId;
            Integer = integer;
            ExclusiveMinimum = exclusiveMinimum;
            Hint = hint;
        }

        public string Name { get; }
        public double Minimum { get; }
        public double Maximum { get; }
        public string ErrorId { get; }
        public bool Integer { get; }
        public bool ExclusiveMinimum { get; }
        public string Hint { get; }

        public double Check(object? value)
        {
            value = SettingSource.Unwrap(value);
            double number = double.NaN;
            bool parsed = false;
            if (value is string text)
                parsed = double.TryParse(text.Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out number);
            else if (value != null && ((value.GetType().IsPrimitive && !(value is bool) && !(value is char)) || value is decimal))
            {
                number = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                parsed = true;
            }
            bool ok = parsed && !double.IsNaN(number) && !double.IsInfinity(number)
                      && (ExclusiveMinimum ? number > Minimum : number >= Minimum) && number <= Maximum
                      && (!Integer || Math.Floor(number) == number);
            if (ok) return number;

            string shown = value == null ? "(none)" : Convert.ToString(value, CultureInfo.InvariantCulture) ?? "";
            string rule = $"{Name} must be {(Integer ? "a whole number" : "a number")} {(ExclusiveMinimum ? "greater than" : "at least")} {Format(Minimum)} and at most {Format(Maximum)}";
            if (Hint.Length > 0) rule += $" ({Hint})";
            throw new StorageTestException(ErrorId, $"{Name} '{shown}' is not valid: {rule}.", ErrorCategory.InvalidArgument, value);
        }

        private static string Format(double x) => x.ToString("#,0.###", CultureInfo.InvariantCulture);
    }
}
