using System.Collections;
using System.Globalization;
using System.Reflection;
using System.Text.Json;
using ExchStorageTest.Engine.Load.StreamMix;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Requests;

/// <summary>
/// The request's fields against the contract, before any value is used: a field the command does not take is
/// refused by name (with the nearest known one), and a value of the wrong kind (a string where a number goes, a
/// null where a value is needed) is refused naming the field and the value. A number the contract has a rule for
/// (<see cref="ProfileRules"/>, <see cref="RunRules"/>) is refused with that rule's code whatever is wrong with it,
/// so a cmdlet and a request get the same code for the same bad value. The kinds come from the engine's request
/// types; the names from the contract (a test holds the two together).
/// </summary>
internal static class RequestFieldCheck
{
    /// <summary>The request's object types and the contract's names of their fields.</summary>
    private static readonly Dictionary<Type, string[]> ObjectFields = new()
    {
        [typeof(MailboxProfile)] = ProfileFields.All,
        [typeof(ServerLayout)] = ServerLayoutFields.All,
        [typeof(CalculatorTargets)] = CalculatorFields.All,
        [typeof(CaptureTargets)] = CaptureFields.All,
        [typeof(ThresholdOverrides)] = ThresholdFields.All,
        [typeof(StreamSpec)] = StreamFields.All,
        [typeof(LabelledRun)] = RunFields.All,
    };

    private static readonly Dictionary<string, NumberRule> Rules =
        ProfileRules.Numbers.Concat(RunRules.Numbers).ToDictionary(r => r.Field, StringComparer.OrdinalIgnoreCase);

    private static readonly NullabilityInfoContext Nullability = new();

    /// <summary>Every field of the request for <paramref name="command"/>; then the fields it needs.</summary>
    public static void Check(JsonElement root, CommandShape command)
    {
        foreach (var member in root.EnumerateObject())
        {
            if (!command.Takes(member.Name)) throw NotTaken(member.Name, command);
        }
        foreach (var requirement in command.Required)
        {
            if (!requirement.AnyOf.Any(f => Member(root, f) is { ValueKind: not JsonValueKind.Null }))
                throw EngineException.Refused(requirement.Code,
                    $"The {command.Name} command needs '{string.Join("' or '", requirement.AnyOf)}' in its request (see docs/protocol.md).");
        }
        CheckMembers(root, typeof(EngineRequest), command.Fields, "");
    }

    /// <summary>The member of <paramref name="element"/> named <paramref name="name"/> (case ignored), or null.</summary>
    public static JsonElement? Member(JsonElement element, string name)
    {
        foreach (var member in element.EnumerateObject())
            if (string.Equals(member.Name, name, StringComparison.OrdinalIgnoreCase)) return member.Value;
        return null;
    }

    /// <summary>
    /// A name given twice in one object: JSON readers keep one of the two silently, so the request would mean
    /// something its sender did not see. Names match without regard to case, as the engine reads them.
    /// </summary>
    public static void RefuseDuplicates(JsonElement element, string path)
    {
        if (element.ValueKind == JsonValueKind.Array)
        {
            int i = 0;
            foreach (var item in element.EnumerateArray()) RefuseDuplicates(item, $"{path}[{i++}]");
            return;
        }
        if (element.ValueKind != JsonValueKind.Object) return;
        var seen = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var member in element.EnumerateObject())
        {
            string at = Join(path, member.Name);
            if (!seen.Add(member.Name))
                throw EngineException.Refused(ErrorCodes.DuplicateField, $"The request gives the field '{at}' twice: give each field once.", at);
            RefuseDuplicates(member.Value, at);
        }
    }

    private static void CheckMembers(JsonElement element, Type type, IReadOnlyList<string> fields, string path)
    {
        foreach (var member in element.EnumerateObject())
        {
            string? name = fields.FirstOrDefault(f => string.Equals(f, member.Name, StringComparison.OrdinalIgnoreCase));
            if (name is null) throw Unknown(member.Name, path, fields);
            var property = type.GetProperties(BindingFlags.Public | BindingFlags.Instance)
                .FirstOrDefault(p => string.Equals(p.Name, name, StringComparison.OrdinalIgnoreCase));
            if (property is null && type == typeof(EngineRequest) && RunSettingTable.Find(name) is RunSettingEntry setting)
            {
                // A run setting without a property of its own (EngineRequest.OtherSettings): checked by its kind.
                CheckValue(member.Value, EngineRequest.TypeOf(setting.Kind), true, null, Join(path, name));
                continue;
            }
            if (property is null) throw new InvalidOperationException($"The contract names the field '{name}', which {type.Name} does not have.");
            var nullability = Nullability.Create(property);
            CheckValue(member.Value, property.PropertyType, nullability.WriteState != NullabilityState.NotNull, nullability, Join(path, name));
        }
    }

    private static void CheckValue(JsonElement value, Type type, bool nullable, NullabilityInfo? nullability, string path)
    {
        if (value.ValueKind == JsonValueKind.Null)
        {
            if (nullable || Nullable.GetUnderlyingType(type) is not null) return;
            throw Malformed(path, value, "a value (null is not one)");
        }
        type = Nullable.GetUnderlyingType(type) ?? type;
        Rules.TryGetValue(path, out var rule);
        if (type == typeof(bool))
        {
            if (value.ValueKind is not (JsonValueKind.True or JsonValueKind.False)) throw Malformed(path, value, "true or false");
        }
        else if (type == typeof(int) || type == typeof(long) || type == typeof(double))
            CheckNumber(value, type, rule, path);
        else if (type == typeof(string))
        {
            if (value.ValueKind != JsonValueKind.String) throw Malformed(path, value, "a string");
        }
        else if (type.IsEnum)
        {
            string names = string.Join(", ", Enum.GetNames(type));
            if (value.ValueKind != JsonValueKind.String || !Enum.GetNames(type).Any(n => string.Equals(n, value.GetString(), StringComparison.OrdinalIgnoreCase)))
                throw Malformed(path, value, $"one of {names}");
        }
        else if (type == typeof(DateTime))
        {
            if (value.ValueKind != JsonValueKind.String || !value.TryGetDateTime(out _)) throw Malformed(path, value, "a date and time in ISO 8601 (2024-06-01T02:00:00Z)");
        }
        else if (ElementType(type) is Type element)
        {
            if (value.ValueKind != JsonValueKind.Array) throw Malformed(path, value, "an array");
            var elementNullability = nullability?.ElementType ?? nullability?.GenericTypeArguments.FirstOrDefault();
            int i = 0;
            foreach (var item in value.EnumerateArray())
                CheckValue(item, element, elementNullability?.ReadState == NullabilityState.Nullable, elementNullability, $"{path}[{i++}]");
        }
        else if (ObjectFields.TryGetValue(type, out var fields))
        {
            if (value.ValueKind != JsonValueKind.Object) throw Malformed(path, value, "an object");
            CheckMembers(value, type, fields, path);
        }
        else throw new InvalidOperationException($"The request field '{path}' has a type ({type.Name}) the request gate does not check.");
    }

    /// <summary>A number that fits the field's type; for a field with a rule, anything else is that rule's refusal.</summary>
    private static void CheckNumber(JsonElement value, Type type, NumberRule? rule, string path)
    {
        bool fits = value.ValueKind == JsonValueKind.Number
            && (type == typeof(int) ? value.TryGetInt32(out _) : type == typeof(long) ? value.TryGetInt64(out _) : value.TryGetDouble(out _));
        if (fits) return;
        if (rule is not null) throw EngineException.Refused(rule.Refuse(value.ValueKind == JsonValueKind.String ? value.GetString()! : value.GetRawText()));
        throw Malformed(path, value, type == typeof(double) ? "a number" : "a whole number");
    }

    private static Type? ElementType(Type type) =>
        type.IsArray ? type.GetElementType()
        : type.IsGenericType && typeof(IEnumerable).IsAssignableFrom(type) ? type.GetGenericArguments()[0]
        // A list type of its own (a profile's PathList): the element of the IEnumerable<T> it implements.
        : typeof(IEnumerable).IsAssignableFrom(type)
            ? type.GetInterfaces().FirstOrDefault(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IEnumerable<>))?.GetGenericArguments()[0]
        : null;

    private static EngineException Malformed(string path, JsonElement value, string expected)
    {
        string shown = value.ValueKind == JsonValueKind.String ? $"'{value.GetString()}'" : value.GetRawText();
        if (shown.Length > 80) shown = shown[..77] + "...";
        return EngineException.Refused(ErrorCodes.RequestMalformed, $"The request's field '{path}' is {shown}: it must be {expected}.", path);
    }

    /// <summary>A top-level field this command does not take: unknown to the engine, or another command's.</summary>
    private static EngineException NotTaken(string name, CommandShape command)
    {
        if (RequestFields.All.FirstOrDefault(f => string.Equals(f, name, StringComparison.OrdinalIgnoreCase)) is string other)
            return EngineException.Refused(ErrorCodes.UnknownField,
                $"The {command.Name} command does not take the field '{other}': it takes {string.Join(", ", command.Fields)}.", other);
        return Unknown(name, "", command.Fields);
    }

    private static EngineException Unknown(string name, string path, IReadOnlyList<string> fields)
    {
        string near = Spelling.Nearest(name, fields) is string best ? $" (did you mean '{best}'?)" : "";
        string where = path.Length == 0 ? "the request" : path;
        return EngineException.Refused(ErrorCodes.UnknownField,
            $"'{name}' is not a field of {where}{near}: it takes {string.Join(", ", fields)} (docs/protocol.md).", Join(path, name));
    }

    private static string Join(string path, string name) => path.Length == 0 ? name : $"{path}.{name}";
}
