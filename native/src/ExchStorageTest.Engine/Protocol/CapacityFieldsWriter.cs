using System.Text.Json;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// A capacity search's fields in the events (<see cref="EventFields.Result.CapacityFields"/>), written in one place: the
/// result event's <c>capacity</c>, the report event's aggregate <c>capacity</c> (the deployment's) and each
/// <see cref="EventTypes.CapacityStep"/> event carry a step with the same fields, so they cannot drift apart.
/// </summary>
public static class CapacityFieldsWriter
{
    /// <summary>The <c>capacity</c> object: the answer, why the search ended, and the load curve, one point a step.</summary>
    public static void Write(Utf8JsonWriter w, string name, CapacityResult c)
    {
        var a = c.Answer;
        w.WriteStartObject(name);
        w.WriteNumber(EventFields.Result.CapacityFields.Mailboxes, a.Mailboxes);
        w.WriteNumber(EventFields.Result.CapacityFields.MailboxesWithoutHeadroom, a.MailboxesWithoutHeadroom);
        if (a.LimitingMailboxes is int limiting) w.WriteNumber(EventFields.Result.CapacityFields.LimitingMailboxes, limiting);
        if (a.LimitingRule is string rule) w.WriteString(EventFields.Result.CapacityFields.LimitingRule, rule);
        w.WriteBoolean(EventFields.Result.CapacityFields.Resolved, a.Resolved);
        w.WriteBoolean(EventFields.Result.CapacityFields.LowerBound, a.LowerBound);
        if (a.LowerBoundReason is string cut) w.WriteString(EventFields.Result.CapacityFields.LowerBoundReason, cut);
        w.WriteNumber(EventFields.Result.CapacityFields.RequiredMailboxes, a.RequiredMailboxes);
        w.WriteNumber(EventFields.Result.CapacityFields.PercentOverRequirement, a.PercentOverRequirement);
        w.WriteNumber(EventFields.Result.CapacityFields.ReserveIops, a.ReserveIops);
        w.WriteString(EventFields.Result.CapacityFields.StopReason, c.StopReason);
        w.WriteString(EventFields.Result.CapacityFields.StopMessage, c.StopMessage);
        w.WriteStartArray(EventFields.Result.CapacityFields.Steps);
        foreach (var s in c.Steps)
        {
            w.WriteStartObject();
            WriteStep(w, s);
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteEndObject();
    }

    /// <summary>One step's fields, into the object the caller opened (a <c>steps</c> entry or a capacityStep event).</summary>
    public static void WriteStep(Utf8JsonWriter w, CapacityStep s)
    {
        w.WriteNumber(EventFields.Result.CapacityFields.Step.Number, s.Step);
        w.WriteNumber(EventFields.Result.CapacityFields.Step.Mailboxes, s.Mailboxes);
        w.WriteNumber(EventFields.Result.CapacityFields.Step.TargetIops, s.TargetIops);
        w.WriteNumber(EventFields.Result.CapacityFields.Step.AchievedIops, s.AchievedIops);
        w.WriteNumber(EventFields.Result.CapacityFields.Step.DbReadLatencyAvgMs, s.DatabaseReadLatencyAverageMs);
        w.WriteNumber(EventFields.Result.CapacityFields.Step.DbReadLatencyP99Ms, s.DatabaseReadLatencyP99Ms);
        w.WriteNumber(EventFields.Result.CapacityFields.Step.LogWriteLatencyAvgMs, s.LogWriteLatencyAverageMs);
        w.WriteNumber(EventFields.Result.CapacityFields.Step.LogWriteLatencyP99Ms, s.LogWriteLatencyP99Ms);
        w.WriteString(EventFields.Result.CapacityFields.Step.Result, s.Passed ? Verdicts.Pass : Verdicts.Fail);
        if (s.LimitingRule is string r) w.WriteString(EventFields.Result.CapacityFields.Step.LimitingRule, r);
        w.WriteString(EventFields.Result.CapacityFields.Step.MeasureStartUtc, DateTime.SpecifyKind(s.MeasureStartUtc, DateTimeKind.Utc));
        w.WriteNumber(EventFields.Result.CapacityFields.Step.WindowSeconds, s.WindowSeconds);
    }
}
