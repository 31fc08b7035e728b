namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// The state of Windows' scheduled volume optimisation (the task \Microsoft\Windows\Defrag\ScheduledDefrag, which
/// optimises every eligible volume on its schedule), from
/// <c>schtasks /query /tn \Microsoft\Windows\Defrag\ScheduledDefrag /fo csv /nh</c>: "TaskName","Next Run Time","Status".
/// </summary>
public static class DefragTask
{
    public const string TaskName = @"\Microsoft\Windows\Defrag\ScheduledDefrag";

    /// <summary>The status column ("Ready", "Disabled", "Running"); null when the output holds no such line.</summary>
    public static string? ParseStatus(string csv)
    {
        foreach (var line in csv.Split('\n'))
        {
            var fields = line.Trim().Split("\",\"");
            if (fields.Length < 3 || !fields[0].TrimStart('"').EndsWith("ScheduledDefrag", StringComparison.OrdinalIgnoreCase)) continue;
            return fields[^1].TrimEnd('"');
        }
        return null;
    }

    /// <summary>True when the task would run: any state but Disabled.</summary>
    public static bool IsScheduled(string status) => !string.Equals(status, "Disabled", StringComparison.OrdinalIgnoreCase);
}
