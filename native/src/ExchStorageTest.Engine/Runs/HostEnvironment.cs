using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Counters;
using ExchStorageTest.Engine.Inspection.Linux;
using ExchStorageTest.Engine.Inspection.Multipath;
using ExchStorageTest.Engine.Inspection.SystemLog;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// What a run learns about its host (issue: environment and counters): the volumes under every
/// database and log path with their findings (warned about before the load starts), host and disk
/// counters over the measured window, and the system log of the test window.
/// </summary>
internal static class HostEnvironment
{
    /// <summary>Inspects every database and log folder once and warns about each Warning/Error finding.</summary>
    public static void InspectVolumes(RunContext ctx)
    {
        var folders = ctx.Plan.Instances.SelectMany(i => new[] { i.DatabaseFolder, i.LogFolder }).Distinct(StringComparer.Ordinal).ToList();
        // Called after preparation: the files exist, so the space they take is no longer "planned"
        // (the planner already refused a plan that did not fit). Files opened unbuffered prove direct
        // I/O, so the findings say so; when some were buffered, a probe tells which volume refuses it.
        var volumes = InspectCommand.Run(folders, new VolumeCheckOptions { PlannedBytes = 0, ProbeDirectIo = !ctx.DirectIo, DirectIoInUse = ctx.DirectIo });
        ctx.Results.Environment.Volumes = volumes;
        ctx.Results.Environment.StorageSoftware = StorageSoftware.Discover(volumes);
        foreach (var v in volumes)
            foreach (var f in v.Findings.Where(f => f.Severity is "Warning" or "Error"))
                ctx.Events.Log(EventFields.Log.Warning, $"{v.Path}: {f.Message}{(f.Advice is null ? "" : " " + f.Advice)}");
        if (ctx.Plan.Request.AllowUnsupportedPlatform && volumes.Any(v => v.Findings.Any(SupportRules.Refuses)))
            ctx.Events.Log(EventFields.Log.Warning, "This run was allowed on storage Microsoft does not support for Exchange (-AllowUnsupportedPlatform): its results describe that configuration, not a supported one.");
        // The host and the layout against the modelled version's guidance: doubts only, never a refusal.
        var platform = HostInspector.Inspect(ctx.Plan.Exchange, volumes);
        ctx.Results.Environment.Platform = platform;
        foreach (var f in platform.Findings.Where(f => f.Severity is "Warning" or "Error"))
            ctx.Events.Log(EventFields.Log.Warning, $"Host: {f.Message}{(f.Advice is null ? "" : " " + f.Advice)}");
    }

    /// <summary>Starts host and disk counters for the measured window at the run's sample interval; <paramref name="warn"/> false leaves out the warning a capacity search gave at its first step.</summary>
    public static HostCounterLoop? StartCounters(RunContext ctx, bool warn = true)
    {
        try
        {
            var disks = ctx.Results.Environment.Volumes
                .Select(v => OperatingSystem.IsWindows() ? (v.MountPoint is null ? null : PathNames.WithoutExtendedPrefix(v.MountPoint).TrimEnd('\\')) : v.Device is null ? null : Path.GetFileName(v.Device))
                .Where(d => !string.IsNullOrEmpty(d)).Select(d => d!).Distinct().ToList();
            return new HostCounterLoop(HostCounterSamplers.Create(disks), TimeSpan.FromSeconds(ctx.Plan.SampleIntervalSeconds));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException or PlatformNotSupportedException
                                   or EngineException or DllNotFoundException or EntryPointNotFoundException)
        {
            // PDH (or /proc) refused outright: the run goes on without host counters and says so.
            if (warn) ctx.Warn($"Host counters are not available: {ex.Message}");
            return null;
        }
    }

    /// <summary>Stops the counters into the results; <paramref name="warn"/> false leaves out the warning a capacity search gave at its first step.</summary>
    public static void StopCounters(RunContext ctx, HostCounterLoop? loop, bool warn = true)
    {
        if (loop is null) return;
        ctx.Results.HostCounters = loop.Stop();
        var missing = loop.Unavailable;
        loop.Dispose();
        if (missing.Count == 0 || !warn) return;
        string message = $"{Wording.Count(missing.Count, "host counter")} could not be read and {Wording.Noun(missing.Count, "is", "are")} left out of the report: {string.Join(", ", missing)}.";
        ctx.Warn(message);
    }

    /// <summary>
    /// Reads the system log for the test window; storage errors there fail the verdict when they are on the devices
    /// under the test's folders (or name no device). Another device's errors are listed as information: a failing
    /// disk elsewhere in the machine says nothing about the storage under test.
    /// </summary>
    public static void CheckSystemLog(RunContext ctx)
    {
        var r = ctx.Results;
        var from = r.Timeline.TestStartUtc;
        var to = DateTime.UtcNow;
        var report = new SystemLogReport { FromUtc = from, ToUtc = to };
        List<SystemLogEvent>? events = null;
        IReadOnlySet<string> devices = new HashSet<string>();
        var fileSystems = r.Environment.Volumes.Select(v => v.FileSystem).OfType<string>().ToHashSet(StringComparer.OrdinalIgnoreCase);
        if (OperatingSystem.IsLinux())
        {
            events = SystemLogCheck.CollectLinux(from, to);
            report.Source = "kernel log (journalctl -k or /dev/kmsg)";
            devices = StorageDevices.Of(r.Environment.Volumes.Select(v => v.Device));
        }
        else if (OperatingSystem.IsWindows())
        {
            events = SystemLogCheck.CollectWindows(from, to);
            report.Source = "Windows System and Application logs";
        }
        report.Checked = events is not null;
        foreach (var e in events ?? new List<SystemLogEvent>())
        {
            if (!e.IsStorageError && !SystemLogLevels.IsErrorOrWorse(e.Level)) continue;
            report.Events.Add(Entry(e, devices, fileSystems));
        }
        report.Devices = devices.Order(StringComparer.Ordinal).ToList();
        r.SystemLog = report;
        if (!report.Checked) ctx.Warn("The system log could not be read for the test window; the reliability check was not possible.");
        else ctx.Log($"System log check: {Wording.Count(report.StorageErrorCount, "storage error")} on the test's devices ({string.Join(", ", report.Devices.Where(d => !d.Contains(':')))}), " +
            $"{report.OtherDeviceStorageErrorCount} on other devices (not judged), {report.Events.Count} error entries in the test window.");
    }

    /// <summary>
    /// An entry of the report. It is another device's when it names a device that is none of <paramref name="devices"/>,
    /// or names no device but a file system none of the test's volumes (<paramref name="fileSystems"/>) uses; one that
    /// names neither, or when the test's devices are not known, may be the test's and counts.
    /// </summary>
    internal static SystemLogEntry Entry(SystemLogEvent e, IReadOnlySet<string> devices, IReadOnlySet<string> fileSystems) => new()
    {
        TimeUtc = e.TimeUtc, Provider = e.Provider, EventId = e.EventId, Level = e.Level,
        Message = e.Message, IsStorageError = e.IsStorageError, Device = e.Device, Reason = e.Reason,
        OtherDevice = devices.Count > 0 && (e.Device is not null ? !devices.Contains(e.Device)
                                            : e.FileSystem is not null && fileSystems.Count > 0 && !fileSystems.Contains(e.FileSystem)),
    };
}
