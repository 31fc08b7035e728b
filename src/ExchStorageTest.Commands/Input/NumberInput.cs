using System;
using System.Globalization;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Input
{
    /// <summary>
    /// Numbers as users hand them over — typed parameters, JSON, XML text (JetstressConfig.xml), hashtable values —
    /// read for a rule of the contract. Text is parsed with the invariant culture, so '0.12' means the same on every
    /// server; whatever is not a number the rule allows is refused with the rule's own code and message, the same
    /// the engine gives for the same value in a request.
    /// </summary>
    internal static class NumberInput
    {
        public static double Read(NumberRule rule, object? value)
        {
            value = SettingSource.Unwrap(value);
            if (TryParse(value, out double number) && rule.Allows(number)) return number;
            string shown = value == null ? "(none)" : Convert.ToString(value, CultureInfo.InvariantCulture) ?? "";
            throw StorageTestException.From(rule.Refuse(shown));
        }

        /// <summary>A number from a numeric value or its invariant text; false for anything else (booleans and characters are not numbers).</summary>
        public static bool TryParse(object? value, out double number)
        {
            value = SettingSource.Unwrap(value);
            number = double.NaN;
            if (value is string text)
                return double.TryParse(text.Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out number);
            if (value != null && ((value.GetType().IsPrimitive && !(value is bool) && !(value is char)) || value is decimal))
            {
                number = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                return true;
            }
            return false;
        }
    }
}
