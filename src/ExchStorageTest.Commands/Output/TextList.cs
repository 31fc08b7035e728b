using System;
using System.Collections.Generic;
using System.Collections.ObjectModel;

namespace ExchStorageTest
{
    /// <summary>
    /// A list property of a result (reasons, report paths) that reads as its items where PowerShell turns a value into
    /// text: Export-Csv and ConvertTo-Csv write a property with its ToString(), which for an array is
    /// "ExchStorageTest.Reason[]" or "System.String[]". Here it is the items, one a line (a CSV cell holds them quoted);
    /// indexing, Count, foreach and ConvertTo-Json still see a list of the items themselves.
    /// </summary>
    public sealed class TextList<T> : ReadOnlyCollection<T>
    {
        public static readonly TextList<T> Empty = new TextList<T>(Array.Empty<T>());

        public TextList(IList<T> items) : base(items) { }

        public static implicit operator TextList<T>(T[] items) => items.Length == 0 ? Empty : new TextList<T>(items);

        public override string ToString() => string.Join(Environment.NewLine, this);
    }
}
