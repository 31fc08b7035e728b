using System.Collections;
using System.Management.Automation;
using ExchStorageTest.Json;

namespace ExchStorageTest.Input
{
    /// <summary>
    /// Named settings read from whatever a user hands over: a hashtable, a parsed JSON file, a
    /// PSCustomObject, a .NET object, or one deserialized from a job or a remote session (a property bag
    /// that keeps only the properties). Names match without regard to case.
    /// </summary>
    internal sealed class SettingSource
    {
        private readonly object _source;

        private SettingSource(object source) => _source = source;

        public static SettingSource From(object source) => new SettingSource(source is PSObject ps && ps.BaseObject is IDictionary d ? d : source);

        /// <summary>The first of <paramref name="names"/> present (even when its value is null).</summary>
        public bool TryGet(out object? value, params string[] names)
        {
            foreach (string name in names)
            {
                switch (_source)
                {
                    case JsonObject json:
                        if (json.TryGetValue(name, out value)) return true;
                        break;
                    case IDictionary dictionary:
                        foreach (DictionaryEntry entry in dictionary)
                        {
                            if (entry.Key is string key && string.Equals(key, name, System.StringComparison.OrdinalIgnoreCase))
                            {
                                value = Unwrap(entry.Value);
                                return true;
                            }
                        }
                        break;
                    default:
                        var property = PSObject.AsPSObject(_source).Properties[name];
                        if (property != null)
                        {
                            value = Unwrap(property.Value);
                            return true;
                        }
                        break;
                }
            }
            value = null;
            return false;
        }

        /// <summary>The value, or <paramref name="fallback"/> when absent or null.</summary>
        public object? Get(object? fallback, params string[] names) => TryGet(out object? value, names) && value != null ? value : fallback;

        /// <summary>A PSObject wrapper hides the value's real type from conversions; a PSCustomObject stays a bag.</summary>
        public static object? Unwrap(object? value) =>
            value is PSObject ps && !(ps.BaseObject is PSCustomObject) ? ps.BaseObject : value;
    }
}
