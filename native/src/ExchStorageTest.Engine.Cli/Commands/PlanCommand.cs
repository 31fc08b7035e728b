using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// Validates a request and reports what a run would do, writing nothing: the -WhatIf view (every
/// file and size it would create, the results, reports and locks it would write, and the load it would apply).
/// </summary>
internal sealed class PlanCommand : IEngineCommand
{
    public string Name => EngineCommands.Plan;

    public CommandWork Check(EngineRequest request, EventWriter events)
    {
        var plan = TestPlanner.Plan(request);
        return _ =>
        {
            Write(events, plan);
            return EngineExit.Ran;
        };
    }

    private static void Write(EventWriter events, TestPlan plan) => events.Emit(EventTypes.Plan, w =>
    {
        w.WriteString(EventFields.Plan.TestType, plan.TestType.ToString());
        w.WriteNumber(EventFields.Plan.TargetIops, plan.TargetIops);
        if (plan.ThreadCount is int t) w.WriteNumber(EventFields.Plan.ThreadCount, t); else w.WriteNull(EventFields.Plan.ThreadCount);
        if (plan.Request.TargetRateIops is double r) w.WriteNumber(EventFields.Plan.TargetRateIops, r);
        w.WriteNumber(EventFields.Plan.DurationSeconds, plan.DurationSeconds);
        w.WriteNumber(EventFields.Plan.SampleIntervalSeconds, plan.SampleIntervalSeconds);
        w.WriteNumber(EventFields.Plan.DatabaseSizeBytes, plan.Instances[0].DatabaseSizeBytes);
        w.WriteNumber(EventFields.Plan.TotalBytes, plan.TotalBytes);
        w.WriteString(EventFields.Plan.OutputPath, plan.OutputPath);
        w.WriteString(EventFields.Plan.Thresholds, plan.Thresholds.Name);
        var schedule = plan.Schedule;
        w.WriteStartObject(EventFields.Plan.Schedule);
        w.WriteNumber(EventFields.Plan.ScheduleFields.TuningSeconds, schedule.TuningSeconds);
        w.WriteNumber(EventFields.Plan.ScheduleFields.WarmupSeconds, schedule.WarmupSeconds);
        w.WriteNumber(EventFields.Plan.ScheduleFields.SettleSeconds, schedule.SettleSeconds);
        w.WriteNumber(EventFields.Plan.ScheduleFields.LeadSeconds, schedule.LeadSeconds);
        if (schedule.LoadStartUtc is DateTime start) w.WriteString(EventFields.Plan.ScheduleFields.StartAtUtc, start);
        if (schedule.MeasureStartUtc is DateTime measure) w.WriteString(EventFields.Plan.ScheduleFields.MeasureAtUtc, measure);
        w.WriteEndObject();
        if (plan.TestType == TestType.Capacity) CapacityPlan(w, plan);
        w.WriteStartArray(EventFields.Plan.Files);
        foreach (var f in plan.Files())
        {
            w.WriteStartObject();
            w.WriteString(EventFields.Plan.File.Path, f.Path);
            w.WriteNumber(EventFields.Plan.File.SizeBytes, f.SizeBytes);
            w.WriteString(EventFields.Plan.File.Kind, f.Kind);
            w.WriteBoolean(EventFields.Plan.File.Exists, File.Exists(f.Path));
            w.WriteEndObject();
        }
        w.WriteEndArray();
        w.WriteStartArray(EventFields.Plan.Outputs);
        foreach (var (kind, path) in ReportFiles.Planned(plan))
        {
            w.WriteStartObject();
            w.WriteString(EventFields.Plan.Output.Kind, kind);
            w.WriteString(EventFields.Plan.Output.Path, path);
            w.WriteEndObject();
        }
        w.WriteEndArray();
    });

    /// <summary>How a capacity search spends its bound (the planner refused a bound too short for it).</summary>
    private static void CapacityPlan(System.Text.Json.Utf8JsonWriter w, TestPlan plan)
    {
        var t = Engine.Capacity.CapacityTiming.For(plan.DurationSeconds, plan.SampleIntervalSeconds, plan.Schedule.WarmupSeconds)!;
        w.WriteStartObject(EventFields.Plan.Capacity);
        w.WriteNumber(EventFields.Plan.CapacityPlan.StartMailboxes, plan.Profile.MailboxCount);
        w.WriteNumber(EventFields.Plan.CapacityPlan.BoundSeconds, t.BoundSeconds);
        w.WriteNumber(EventFields.Plan.CapacityPlan.WarmupSeconds, t.WarmupSeconds);
        w.WriteNumber(EventFields.Plan.CapacityPlan.SettleSeconds, t.SettleSeconds);
        w.WriteNumber(EventFields.Plan.CapacityPlan.StepSeconds, t.WindowSeconds);
        w.WriteNumber(EventFields.Plan.CapacityPlan.MaximumSteps, t.StepsThatFit);
        w.WriteNumber(EventFields.Plan.CapacityPlan.ResolutionPercent, CapacitySequence.ResolutionPercent);
        w.WriteNumber(EventFields.Plan.CapacityPlan.PaceFactor, Engine.Runs.CapacityRun.PaceFactor);
        w.WriteEndObject();
    }
}
