using System;
using System.Collections;
using System.Globalization;
using System.Text;

namespace ExchStorageTest.Json
{
    /// <summary>
    /// Writes requests and profile files: <see cref="JsonObject"/>, dictionaries, lists, strings, numbers,
    /// booleans, enums (as their names), dates (ISO 8601 UTC) and null. Compact by default, because the
    /// engine reads the request from one line; indented for files people read.
    /// </summary>
    internal static class JsonWriter
    {
        public static string Write(object? value, bool indented = false)
        {
            var text = new StringBuilder();
            WriteValue(text, value, indented, 0);
            return text.ToString();
        }

        private static void WriteValue(StringBuilder text, object? value, bool indented, int depth)
        {
            switch (value)
            {
                case null: text.Append("null"); return;
                case string s: WriteString(text, s); return;
                case bool b: text.Append(b ? "true" : "false"); return;
                case char c: WriteString(text, c.ToString()); return;
                case Enum e: WriteString(text, e.ToString()); return;
                case DateTime t: WriteString(text, t.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture)); return;
                case DateTimeOffset o: WriteString(text, o.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fffffff'Z'", CultureInfo.InvariantCulture)); return;
                case double d: WriteDouble(text, d); return;
                case float f: WriteDouble(text, f); return;
                case decimal m: text.Append(m.ToString(CultureInfo.InvariantCulture)); return;
                case sbyte _: case byte _: case short _: case ushort _: case int _: case uint _: case long _: case ulong _:
                    text.Append(Convert.ToString(value, CultureInfo.InvariantCulture)); return;
                case JsonObject o:
                    WriteMembers(text, o, indented, depth);
                    return;
                case IDictionary d:
                    var copy = new JsonObject();
                    foreach (DictionaryEntry entry in d) copy.Set(Convert.ToString(entry.Key, CultureInfo.InvariantCulture) ?? "", entry.Value);
                    WriteMembers(text, copy, indented, depth);
                    return;
                case IEnumerable items:
                    text.Append('[');
                    bool first = true;
                    foreach (object? item in items)
                    {
                        if (!first) text.Append(',');
                        first = false;
                        NewLine(text, indented, depth + 1);
                        WriteValue(text, item, indented, depth + 1);
                    }
                    if (!first) NewLine(text, indented, depth);
                    text.Append(']');
                    return;
                default:
                    throw new ArgumentException($"A value of type {value.GetType().FullName} cannot be written as JSON.", nameof(value));
            }
        }

        private static void WriteMembers(StringBuilder text, JsonObject members, bool indented, int depth)
        {
            text.Append('{');
            bool first = true;
            foreach (var member in members)
            {
                if (!first) text.Append(',');
                first = false;
                NewLine(text, indented, depth + 1);
                WriteString(text, member.Key);
                text.Append(indented ? ": " : ":");
                WriteValue(text, member.Value, indented, depth + 1);
            }
            if (!first) NewLine(text, indented, depth);
            text.Append('}');
        }

        private static void WriteDouble(StringBuilder text, double d)
        {
            // JSON has no such numbers: written as their names, a request with one is refused naming the value.
            if (double.IsNaN(d) || double.IsInfinity(d))
            {
                WriteString(text, d.ToString(CultureInfo.InvariantCulture));
                return;
            }
            text.Append(d.ToString("R", CultureInfo.InvariantCulture));
        }

        private static void NewLine(StringBuilder text, bool indented, int depth)
        {
            if (!indented) return;
            text.Append('\n').Append(' ', depth * 2);
        }

        private static void WriteString(StringBuilder text, string s)
        {
            text.Append('"');
            foreach (char c in s)
            {
                switch (c)
                {
                    case '"': text.Append("\\\""); break;
                    case '\\': text.Append("\\\\"); break;
                    case '\n': text.Append("\\n"); break;
                    case '\r': text.Append("\\r"); break;
                    case '\t': text.Append("\\t"); break;
                    case '\b': text.Append("\\b"); break;
                    case '\f': text.Append("\\f"); break;
                    default:
                        // Line and paragraph separators break JavaScript readers of the file; escape them with the controls.
                        if (c < ' ' || c == '\u2028' || c == '\u2029') text.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else text.Append(c);
                        break;
                }
            }
            text.Append('"');
        }
    }
}
