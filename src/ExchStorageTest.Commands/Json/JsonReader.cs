using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace ExchStorageTest.Json
{
    /// <summary>
    /// A strict JSON (RFC 8259) reader for the engine's events, results summaries and profile files.
    /// </summary>
    /// <remarks>
    /// Why our own: the module must load beside any other module in Windows PowerShell 5.1, where
    /// System.Text.Json and Newtonsoft.Json come in versions that clash (one version of an assembly per
    /// session). Reading the protocol's small documents needs none of their features.
    /// </remarks>
    internal sealed class JsonReader
    {
        private readonly string _text;
        private int _at;

        private JsonReader(string text) => _text = text;

        /// <summary>Parses one JSON document. Throws <see cref="FormatException"/> naming the position of the problem.</summary>
        public static object? Parse(string text)
        {
            if (text is null) throw new ArgumentNullException(nameof(text));
            var reader = new JsonReader(text);
            // A UTF-8 byte order mark decoded as text (Windows PowerShell writes one).
            if (reader._text.Length > 0 && reader._text[0] == '\uFEFF') reader._at = 1;
            reader.SkipSpace();
            object? value = reader.ReadValue(0);
            reader.SkipSpace();
            if (reader._at != reader._text.Length) throw reader.Error("unexpected text after the end of the document");
            return value;
        }

        private const int MaxDepth = 128;

        private object? ReadValue(int depth)
        {
            if (depth > MaxDepth) throw Error("nesting is too deep");
            if (_at >= _text.Length) throw Error("the document ends where a value was expected");
            char c = _text[_at];
            switch (c)
            {
                case '{': return ReadObject(depth);
                case '[': return ReadArray(depth);
                case '"': return ReadString();
                case 't': Expect("true"); return true;
                case 'f': Expect("false"); return false;
                case 'n': Expect("null"); return null;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber();
                    throw Error($"unexpected character '{c}'");
            }
        }

        private JsonObject ReadObject(int depth)
        {
            var result = new JsonObject();
            _at++;
            SkipSpace();
            if (Peek() == '}') { _at++; return result; }
            while (true)
            {
                SkipSpace();
                if (Peek() != '"') throw Error("a member name in double quotes was expected");
                string name = ReadString();
                SkipSpace();
                if (Peek() != ':') throw Error("':' was expected after a member name");
                _at++;
                SkipSpace();
                result.Set(name, ReadValue(depth + 1));
                SkipSpace();
                char next = Peek();
                _at++;
                if (next == '}') return result;
                if (next != ',') { _at--; throw Error("',' or '}' was expected"); }
            }
        }

        private List<object?> ReadArray(int depth)
        {
            var result = new List<object?>();
            _at++;
            SkipSpace();
            if (Peek() == ']') { _at++; return result; }
            while (true)
            {
                SkipSpace();
                result.Add(ReadValue(depth + 1));
                SkipSpace();
                char next = Peek();
                _at++;
                if (next == ']') return result;
                if (next != ',') { _at--; throw Error("',' or ']' was expected"); }
            }
        }

        private string ReadString()
        {
            _at++; // opening quote
            var text = new StringBuilder();
            while (true)
            {
                if (_at >= _text.Length) throw Error("a string is not closed");
                char c = _text[_at++];
                if (c == '"') return text.ToString();
                if (c < ' ') { _at--; throw Error("a control character must be escaped in a string"); }
                if (c != '\\') { text.Append(c); continue; }
                if (_at >= _text.Length) throw Error("a string is not closed");
                char e = _text[_at++];
                switch (e)
                {
                    case '"': text.Append('"'); break;
                    case '\\': text.Append('\\'); break;
                    case '/': text.Append('/'); break;
                    case 'b': text.Append('\b'); break;
                    case 'f': text.Append('\f'); break;
                    case 'n': text.Append('\n'); break;
                    case 'r': text.Append('\r'); break;
                    case 't': text.Append('\t'); break;
                    case 'u':
                        if (_at + 4 > _text.Length || !int.TryParse(_text.Substring(_at, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out int code))
                            throw Error("\\u must be followed by four hexadecimal digits");
                        text.Append((char)code);
                        _at += 4;
                        break;
                    default:
                        _at--;
                        throw Error($"unknown escape '\\{e}'");
                }
            }
        }

        private object ReadNumber()
        {
            int start = _at;
            if (Peek() == '-') _at++;
            if (Peek() == '0') _at++;
            else if (IsDigit(Peek())) while (IsDigit(Peek())) _at++;
            else throw Error("a digit was expected");
            bool integral = true;
            if (Peek() == '.')
            {
                integral = false;
                _at++;
                if (!IsDigit(Peek())) throw Error("a digit was expected after '.'");
                while (IsDigit(Peek())) _at++;
            }
            if (Peek() == 'e' || Peek() == 'E')
            {
                integral = false;
                _at++;
                if (Peek() == '+' || Peek() == '-') _at++;
                if (!IsDigit(Peek())) throw Error("a digit was expected in the exponent");
                while (IsDigit(Peek())) _at++;
            }
            string literal = _text.Substring(start, _at - start);
            if (integral && long.TryParse(literal, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out long whole)) return whole;
            return double.Parse(literal, NumberStyles.Float, CultureInfo.InvariantCulture);
        }

        private void Expect(string word)
        {
            if (string.CompareOrdinal(_text, _at, word, 0, word.Length) != 0) throw Error($"'{word}' was expected");
            _at += word.Length;
        }

        private char Peek() => _at < _text.Length ? _text[_at] : '\0';

        private static bool IsDigit(char c) => c >= '0' && c <= '9';

        private void SkipSpace()
        {
            while (_at < _text.Length && (_text[_at] == ' ' || _text[_at] == '\t' || _text[_at] == '\r' || _text[_at] == '\n')) _at++;
        }

        private FormatException Error(string what)
        {
            int line = 1, column = 1;
            for (int i = 0; i < _at && i < _text.Length; i++)
            {
                if (_text[i] == '\n') { line++; column = 1; }
                else column++;
            }
            return new FormatException($"{what} (line {line}, column {column})");
        }
    }
}
