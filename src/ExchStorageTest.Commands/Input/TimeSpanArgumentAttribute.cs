using System;
using System.Globalization;
using System.Management.Automation;

namespace ExchStorageTest.Input
{
    /// <summary>
    /// Every TimeSpan parameter of the module: PowerShell binds a bare number to a TimeSpan as ticks (<c>-Duration 30</c>
    /// is 3 microseconds) and a string of digits as days (<c>-Duration '30'</c> is 30 days), so either is refused at
    /// binding, before anything is written, with the fix in the message. A time span between zero and one second is
    /// refused too: no window, warm-up or timeout of the tool is that short, so it is a typo. Zero (a bare 0 is zero
    /// in every unit) and negative values pass on to the command's own rules (a zero warm-up is meaningful).
    /// </summary>
    [AttributeUsage(AttributeTargets.Property | AttributeTargets.Field)]
    internal sealed class TimeSpanArgumentAttribute : ArgumentTransformationAttribute
    {
        private const string Fix = "Give a time span: 00:00:30 or (New-TimeSpan -Seconds 30) for 30 seconds, 00:30:00 or (New-TimeSpan -Minutes 30) for 30 minutes.";

        public override object Transform(EngineIntrinsics engineIntrinsics, object inputData)
        {
            object? value = inputData is PSObject wrapped ? wrapped.BaseObject : inputData;
            if (value == null || value is TimeSpan && IsPlausible((TimeSpan)value)) return inputData;

            string shown = Convert.ToString(value, CultureInfo.InvariantCulture) ?? "";
            if (NumberInput.TryParse(value, out double number) && number != 0)
            {
                string reading = LanguagePrimitives.TryConvertTo(inputData, out TimeSpan read)
                    ? $" PowerShell would read it as {read} ({(value is string ? $"{read.TotalDays:0.###} days" : $"{read.Ticks} ticks of 100 ns")}), not as seconds." : "";
                throw new ArgumentTransformationMetadataException($"'{shown}' is a bare number.{reading} {Fix}");
            }
            if (!LanguagePrimitives.TryConvertTo(inputData, CultureInfo.InvariantCulture, out TimeSpan span))
                throw new ArgumentTransformationMetadataException($"'{shown}' is not a time span. {Fix}");
            if (!IsPlausible(span))
                throw new ArgumentTransformationMetadataException($"{span} is under one second. {Fix}");
            return span;
        }

        private static bool IsPlausible(TimeSpan span) => span <= TimeSpan.Zero || span >= TimeSpan.FromSeconds(1);
    }
}
