using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Host.Commands;

/// <summary>
/// Validates a request and reports what a run would do, writing nothing: the -WhatIf view (every
/// file and size it would create, and the load it would apply).
/// </summary>
internal static class PlanCommand
{
    public static int Execute(EngineRequest request, EventWriter events)
    {
        var plan = TestPlanner.Plan(request);
        events.Emit("plan", w =>
        {
            w.WriteString("testType", plan.TestType.ToString());
            w.WriteNumber("targetIops", Math.Round(plan.TargetIops, 3));
            if (plan.ThreadCount is int t) w.WriteNumber("threadCount", t); else w.WriteNull("threadCount");
            if (request.TargetRateIops is double r) w.WriteNumber("targetRateIops", r);
            w.WriteNumber("durationSeconds", plan.DurationSeconds);
            w.WriteNumber("sampleIntervalSeconds", plan.SampleIntervalSeconds);
            w.WriteNumber("databaseSizeBytes", plan.Instances[0].DatabaseSizeBytes);
            w.WriteNumber("totalBytes", plan.TotalBytes);
            w.WriteString("outputPath", plan.OutputPath);
            w.WriteString("thresholds", plan.Thresholds.Name);
            var schedule = plan.Schedule;
            w.WriteStartObject("schedule");
            w.WriteNumber("tuningSeconds", schedule.TuningSeconds);
            w.WriteNumber("warmupSeconds", schedule.WarmupSeconds);
            w.WriteNumber("settleSeconds", schedule.SettleSeconds);
            w.WriteNumber("leadSeconds", schedule.LeadSeconds);
            if (schedule.LoadStartUtc is DateTime start) w.WriteString("startAtUtc", start);
            if (schedule.MeasureStartUtc is DateTime measure) w.WriteString("measureAtUtc", measure);
            w.WriteEndObject();
            w.WriteStartArray("files");
            foreach (var f in plan.Files())
            {
                w.WriteStartObject();
                w.WriteString("path", f.Path);
                w.WriteNumber("sizeBytes", f.SizeBytes);
                w.WriteString("kind", f.Kind);
                w.WriteBoolean("exists", File.Exists(f.Path));
                w.WriteEndObject();
            }
            w.WriteEndArray();
        });
        return ExitCodes.Ran;
    }
}
