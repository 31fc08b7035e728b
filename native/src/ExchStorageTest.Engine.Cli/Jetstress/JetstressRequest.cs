using System.Globalization;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Jetstress;

/// <summary>
/// A JetstressConfig.xml and JetstressCmd's switches as the engine's request: the same request the module's
/// Invoke-StorageTest would send for the same settings, so the engine plans, refuses and reports it the same way.
/// What each element and switch becomes (and what is refused) is the table in docs/jetstress.md.
/// </summary>
internal static class JetstressRequest
{
    public static EngineRequest Build(JetstressConfig config, JetstressCommandLine line, string workingDirectory)
    {
        var profile = config.ToProfile(out var violation) ?? throw EngineException.Refused(violation!);
        var type = TestTypeOf(config);
        // The instances' folders as Jetstress takes them: each database's own, created when missing (docs/jetstress.md).
        var request = new EngineRequest { Command = EngineCommands.Run, TestType = type, Profile = profile, JetstressFolders = true };

        // Where the databases go: /dbpath and /logpath replace the configuration's instances, one a /dbpath.
        if (line.DatabasePaths.Count > 0)
        {
            profile.DatabaseCount = line.DatabasePaths.Count;
            profile.DatabasePaths = line.DatabasePaths.ToArray();
            profile.LogPaths = line.LogPaths.ToArray();
        }
        profile.DatabasePaths = profile.DatabasePaths.Select(p => Resolve(p, workingDirectory)).ToArray();
        profile.LogPaths = profile.LogPaths.Select(p => Resolve(p, workingDirectory)).ToArray();
        if (type == TestType.SoftRecovery && JetstressConfig.ParseBoolean(config.RunDatabaseMaintenanceSoftRecovery) is bool recoveryMaintenance)
            profile.BackgroundMaintenance = recoveryMaintenance;

        request.OutputPath = Resolve(line.Output ?? (string.IsNullOrWhiteSpace(config.OutputPath) ? "." : config.OutputPath!), workingDirectory);

        // The test's length: /timeout, else Duration; a backup or recovery ends when its work is done, as in Jetstress.
        if (type is TestType.Performance or TestType.Stress)
            request.DurationSeconds = line.TimeoutSeconds ?? Duration(config);
        if (line.Threads is int threads and > 0) request.ThreadCount = threads;

        request.DatabaseSource = line.New ? DatabaseSource.Create : line.Open ? DatabaseSource.Attach : Source(config);
        if (request.DatabaseSource == DatabaseSource.Restore) request.RestoreFromPath = Resolve(config.RestoreBackupPath!, workingDirectory);
        if (JetstressConfig.ParseBoolean(config.ContinueOnErrors) is bool continueOnErrors) request.ContinueOnError = continueOnErrors;
        else Boolean(config, "ContinueOnErrors", config.ContinueOnErrors);
        if (!string.IsNullOrWhiteSpace(config.LogFilesToReplay))
        {
            double logs = Number(config, "LogFilesToReplay", config.LogFilesToReplay!);
            request.LogFilesToReplay = logs == Math.Floor(logs) && logs is >= int.MinValue and <= int.MaxValue ? (int)logs
                : throw Malformed(config, $"has <LogFilesToReplay>{config.LogFilesToReplay}</LogFilesToReplay>: a whole number is needed");
        }
        request.Thresholds = Limits(config, type);
        Sizing(config, line, request);
        return request;
    }

    /// <summary>
    /// A path as Jetstress takes it: relative to the working directory (".", ".\Performance Results"), written with
    /// Windows separators on any OS. An absolute path is left for the plan to judge, as every path of a request is.
    /// </summary>
    public static string Resolve(string path, string workingDirectory)
    {
        string p = path.Trim();
        if (ProfileRules.IsAbsolute(p)) return p;
        if (!OperatingSystem.IsWindows()) p = p.Replace('\\', '/');
        return Path.GetFullPath(Path.Combine(workingDirectory, p));
    }

    private static TestType TestTypeOf(JetstressConfig config)
    {
        string type = (config.Type ?? "").Trim();
        foreach (var known in JetstressConfig.TestTypes)
            if (string.Equals(type, known, StringComparison.OrdinalIgnoreCase)) return Enum.Parse<TestType>(known);
        throw Malformed(config, type.Length == 0 ? "has no <Type>" : $"has <Type>{type}</Type>: the test type must be {string.Join(", ", JetstressConfig.TestTypes)}");
    }

    private static double Duration(JetstressConfig config)
    {
        if (string.IsNullOrWhiteSpace(config.Duration)) return RunDefaults.DurationSeconds(TestType.Performance);
        return JetstressDuration.ParseXsDuration(config.Duration)
            ?? throw Malformed(config, $"has <Duration>{config.Duration}</Duration>: a length like P0Y0M0DT2H0M0S (xs:duration) is needed");
    }

    /// <summary>Jetstress's New (create), Open (attach what is there) and Restore (copy the RestoreBackupPath set in, then attach).</summary>
    private static DatabaseSource Source(JetstressConfig config)
    {
        string source = (config.DatabaseSource ?? "").Trim();
        if (source.Length == 0 || source.Equals("New", StringComparison.OrdinalIgnoreCase)) return DatabaseSource.Create;
        if (source.Equals("Open", StringComparison.OrdinalIgnoreCase) || source.Equals("Attach", StringComparison.OrdinalIgnoreCase)) return DatabaseSource.Attach;
        if (source.Equals("Restore", StringComparison.OrdinalIgnoreCase) && !string.IsNullOrWhiteSpace(config.RestoreBackupPath)) return DatabaseSource.Restore;
        throw Malformed(config, source.Equals("Restore", StringComparison.OrdinalIgnoreCase)
            ? "has <DatabaseSource>Restore</DatabaseSource> without a <RestoreBackupPath>"
            : $"has <DatabaseSource>{source}</DatabaseSource>: New, Open or Restore is needed");
    }

    /// <summary>
    /// The latency limits of the configuration's set for the test type (Lenient for Stress, Strict otherwise), where they
    /// differ from the engine's preset of the same name; the set keeps its name.
    /// </summary>
    private static ThresholdOverrides? Limits(JetstressConfig config, TestType type)
    {
        var preset = Thresholds.For(type);
        if (!config.Thresholds.TryGetValue(preset.Name, out var set)) return null;
        double? Limit(string element, double current)
        {
            if (!set.TryGetValue(element, out var text) || string.IsNullOrWhiteSpace(text)) return null;
            double value = Number(config, element, text);
            return value == current ? null : value;
        }
        var overrides = new ThresholdOverrides
        {
            Name = preset.Name,
            AverageDatabaseReadLatencyMs = Limit("AverageDatabaseReadLatency", preset.AverageDatabaseReadLatencyMs),
            MaximumDatabaseReadLatencyMs = Limit("MaximumDatabaseReadLatency", preset.MaximumDatabaseReadLatencyMs),
            AverageLogWriteLatencyMs = Limit("AverageLogWriteLatency", preset.AverageLogWriteLatencyMs),
            MaximumLogWriteLatencyMs = Limit("MaximumLogWriteLatency", preset.MaximumLogWriteLatencyMs),
        };
        return overrides.Limits().Any(l => l.Value is not null) ? overrides : null;
    }

    /// <summary>
    /// Jetstress's database sizing. A mailbox profile test (Profile) sizes the databases by the profile at 100% of its
    /// capacity and throughput, as the engine does. Jetstress's disk subsystem throughput test (Capacity with Type
    /// Performance: databases sized by CapacityPercentage of the volumes' free space, the most load that passes) is the
    /// engine's Throughput test, named as Jetstress names it: Performance (request reportedAs). Refused by name: a
    /// ThroughputPercentage other than 100 (the engine drives a test's whole load, never a share of it), a Profile test at
    /// another CapacityPercentage, and Capacity sizing for Stress, DatabaseBackup or SoftRecovery (the engine sizes those by
    /// the profile, and its Throughput test is a performance run).
    /// </summary>
    private static void Sizing(JetstressConfig config, JetstressCommandLine line, EngineRequest request)
    {
        string sizing = string.IsNullOrWhiteSpace(config.DatabaseSizing) ? "Profile" : config.DatabaseSizing!.Trim();
        double capacity = line.CapacityPercentage ?? Percentage(config, "CapacityPercentage", config.CapacityPercentage);
        double throughput = line.ThroughputPercentage ?? Percentage(config, "ThroughputPercentage", config.ThroughputPercentage);
        if (throughput != 100)
            throw Unsupported(FormattableString.Invariant($"ThroughputPercentage {throughput}: the engine drives a test's whole load (the profile's target IOPS, or with DatabaseSizing Capacity the most sessions that pass), never a share of it; use 100."), "ThroughputPercentage");
        if (sizing.Equals("Profile", StringComparison.OrdinalIgnoreCase))
        {
            if (capacity != 100)
                throw Unsupported(FormattableString.Invariant($"CapacityPercentage {capacity} with DatabaseSizing Profile: a mailbox profile test sizes the databases for every mailbox at its quota (100); for databases sized by the volumes' capacity use DatabaseSizing Capacity."), "CapacityPercentage");
            return;
        }
        if (!sizing.Equals("Capacity", StringComparison.OrdinalIgnoreCase))
            throw Malformed(config, $"has <DatabaseSizing>{sizing}</DatabaseSizing>: Profile or Capacity is needed");
        if (request.TestType != TestType.Performance)
            throw Unsupported($"DatabaseSizing Capacity with Type {request.TestType}: the engine sizes a {request.TestType} test's databases by the profile; Capacity sizing runs with Type Performance (Jetstress's disk subsystem throughput test). Use DatabaseSizing Profile for {request.TestType}.", "DatabaseSizing");
        request.TestType = TestType.Throughput;
        request.ReportedAs = TestType.Performance;
        request.CapacityPercent = capacity;
    }

    private static double Percentage(JetstressConfig config, string element, string? text) =>
        string.IsNullOrWhiteSpace(text) ? 100 : Number(config, element, text!);

    private static double Number(JetstressConfig config, string element, string text) =>
        double.TryParse(text.Trim(), NumberStyles.Float, CultureInfo.InvariantCulture, out double value)
            ? value : throw Malformed(config, $"has <{element}>{text.Trim()}</{element}>: a number is needed");

    private static void Boolean(JetstressConfig config, string element, string? text)
    {
        if (!string.IsNullOrWhiteSpace(text)) throw Malformed(config, $"has <{element}>{text!.Trim()}</{element}>: true or false is needed");
    }

    private static EngineException Malformed(JetstressConfig config, string what) => EngineException.Refused(JetstressConfig.Malformed(config.FilePath, what));

    private static EngineException Unsupported(string message, string target) =>
        EngineException.Refused(ErrorCodes.JetstressSettingUnsupported, message, target);
}
