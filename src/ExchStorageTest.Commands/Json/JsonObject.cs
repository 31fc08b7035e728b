using System;
using System.Collections;
using System.Collections.Generic;

namespace ExchStorageTest.Json
{
    /// <summary>
    /// A JSON object as read from the engine or a profile file: members in document order, looked up
    /// without regard to case (PowerShell users write <c>MailboxCount</c> where the file says <c>mailboxCount</c>).
    /// Values are <see cref="JsonObject"/>, <see cref="List{T}"/> of values, string, long, double, bool or null.
    /// </summary>
    internal sealed class JsonObject : IEnumerable<KeyValuePair<string, object?>>
    {
        private readonly List<KeyValuePair<string, object?>> _members = new List<KeyValuePair<string, object?>>();
        private readonly Dictionary<string, int> _index = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);

        public int Count => _members.Count;

        /// <summary>The value of a member, or null when it is absent (or null).</summary>
        public object? this[string name] => TryGetValue(name, out object? value) ? value : null;

        /// <summary>Adds a member, or replaces the value of one with the same name (any case).</summary>
        public JsonObject Set(string name, object? value)
        {
            if (_index.TryGetValue(name, out int at)) _members[at] = new KeyValuePair<string, object?>(_members[at].Key, value);
            else
            {
                _index[name] = _members.Count;
                _members.Add(new KeyValuePair<string, object?>(name, value));
            }
            return this;
        }

        public bool Contains(string name) => _index.ContainsKey(name);

        public bool TryGetValue(string name, out object? value)
        {
            if (_index.TryGetValue(name, out int at))
            {
                value = _members[at].Value;
                return true;
            }
            value = null;
            return false;
        }

        /// <summary>A member as text; numbers and booleans in their JSON spelling.</summary>
        public string? GetString(string name)
        {
            object? value = this[name];
            return value switch
            {
                null => null,
                string s => s,
                bool b => b ? "true" : "false",
                double d => d.ToString("R", System.Globalization.CultureInfo.InvariantCulture),
                long l => l.ToString(System.Globalization.CultureInfo.InvariantCulture),
                _ => value.ToString(),
            };
        }

        /// <summary>A member as a number, or null when it is absent or not a number.</summary>
        public double? GetNumber(string name) => this[name] switch
        {
            long l => l,
            double d => d,
            _ => null,
        };

        public JsonObject? GetObject(string name) => this[name] as JsonObject;

        /// <summary>A member that is an array, or an empty list.</summary>
        public IReadOnlyList<object?> GetArray(string name) => this[name] as List<object?> ?? (IReadOnlyList<object?>)Array.Empty<object?>();

        public IEnumerator<KeyValuePair<string, object?>> GetEnumerator() => _members.GetEnumerator();

        IEnumerator IEnumerable.GetEnumerator() => GetEnumerator();
    }
}
