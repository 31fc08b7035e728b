using System;
using System.Management.Automation;

namespace ExchStorageTest.Helper
{
    internal static class ErrorCategories
    {
        /// <summary>The helper names PowerShell's categories; an unknown name (a newer helper) reads as NotSpecified.</summary>
        public static ErrorCategory Parse(string? name) =>
            name != null && Enum.IsDefined(typeof(ErrorCategory), name) ? (ErrorCategory)Enum.Parse(typeof(ErrorCategory), name) : ErrorCategory.NotSpecified;
    }
}
