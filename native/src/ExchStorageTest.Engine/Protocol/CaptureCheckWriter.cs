using System.Text.Json;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Protocol;

/// <summary>The capture check's fields in the events (<see cref="EventFields.Result.CaptureCheckFields"/>), written in one place.</summary>
public static class CaptureCheckWriter
{
    public static void Write(Utf8JsonWriter w, string name, CaptureCheck check)
    {
        w.WriteStartObject(name);
        w.WriteString(EventFields.Result.CaptureCheckFields.Servers, check.Servers);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.Hosts, check.Hosts);
        w.WriteString(EventFields.Result.CaptureCheckFields.Window, check.Window);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.GrowthFactor, check.GrowthFactor);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.BusiestHourIops, check.BusiestHourIops);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.TargetIops, check.TargetIops);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.CalculatorIops, check.CalculatorIops);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.TestedIops, check.TestedIops);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.AchievedIops, check.AchievedIops);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.ReadLatencyMs, check.ReadLatencyMs);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.CaptureReadShare, check.CaptureReadShare);
        w.WriteNumber(EventFields.Result.CaptureCheckFields.TestReadShare, check.TestReadShare);
        w.WriteBoolean(EventFields.Result.CaptureCheckFields.Met, check.Met);
        w.WriteString(EventFields.Result.CaptureCheckFields.Line, check.Line);
        w.WriteEndObject();
    }
}
