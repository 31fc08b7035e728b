using ExchStorageTest.Json;

namespace ExchStorageTest.Tests.Output;

/// <summary>
/// The failure mode in one line on the module's objects: the result event's faultSummary and stallCount on a TestResult,
/// the report event's faultSummary on a TestReport; null where the engine wrote none (older results, no window and no stall).
/// </summary>
public sealed class FailureModeTests
{
    private const string Line = "Storage stalled 5.0 s on /mnt/db at 60.2 s (no fault declared)";

    [Fact]
    public void A_result_carries_the_engines_line_and_stall_count()
    {
        var r = TestResult.FromEvent(new JsonObject()
            .Set(EventFields.Result.TestType, "Performance")
            .Set(EventFields.Result.FaultSummary, Line)
            .Set(EventFields.Result.StallCount, 1L), "Lab");
        Assert.Equal(Line, r.FailureMode);
        Assert.Equal(1, r.StallCount);
    }

    [Fact]
    public void A_result_without_them_has_neither()
    {
        var r = TestResult.FromEvent(new JsonObject().Set(EventFields.Result.TestType, "Performance"), "Lab");
        Assert.Null(r.FailureMode);
        Assert.Null(r.StallCount);
        var quiet = TestResult.FromEvent(new JsonObject().Set(EventFields.Result.TestType, "Performance").Set(EventFields.Result.StallCount, 0L), "Lab");
        Assert.Null(quiet.FailureMode);
        Assert.Equal(0, quiet.StallCount);
    }

    [Fact]
    public void A_report_carries_the_line_of_its_run()
    {
        var report = TestReport.FromEvent(new JsonObject().Set(EventFields.Report.Result, "Pass").Set(EventFields.Report.FaultSummary, "LAB01: " + Line));
        Assert.Equal("LAB01: " + Line, report.FailureMode);
        Assert.Null(TestReport.FromEvent(new JsonObject().Set(EventFields.Report.Result, "Pass")).FailureMode);
    }
}
