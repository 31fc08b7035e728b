using System.Text.Json;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// The calculator check's fields in the events (<see cref="EventFields.Result.CalculatorCheckFields"/>), written in one
/// place: the result event's (one host) and the report event's aggregate (the deployment's) cannot drift apart.
/// </summary>
public static class CalculatorCheckWriter
{
    public static void Write(Utf8JsonWriter w, string name, CalculatorCheck check)
    {
        w.WriteStartObject(name);
        w.WriteString(EventFields.Result.CalculatorCheckFields.Calculator, check.Calculator);
        w.WriteString(EventFields.Result.CalculatorCheckFields.Version, check.Version);
        w.WriteString(EventFields.Result.CalculatorCheckFields.Workbook, check.Workbook);
        w.WriteNumber(EventFields.Result.CalculatorCheckFields.Servers, check.Servers);
        w.WriteBoolean(EventFields.Result.CalculatorCheckFields.Met, check.Met);
        w.WriteBoolean(EventFields.Result.CalculatorCheckFields.MixMatched, check.MixMatched);
        w.WriteStartArray(EventFields.Result.CalculatorCheckFields.Rows);
        foreach (var row in check.Rows)
        {
            w.WriteStartObject();
            w.WriteString(EventFields.Result.CalculatorCheckFields.Row.Metric, row.Metric);
            w.WriteNumber(EventFields.Result.CalculatorCheckFields.Row.Target, row.Target);
            w.WriteNumber(EventFields.Result.CalculatorCheckFields.Row.Achieved, row.Achieved);
            w.WriteString(EventFields.Result.CalculatorCheckFields.Row.Verdict, row.Verdict);
            w.WriteBoolean(EventFields.Result.CalculatorCheckFields.Row.Met, row.Met);
            w.WriteString(EventFields.Result.CalculatorCheckFields.Row.Line, row.Line);
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteEndObject();
    }
}
