using System;
using System.Collections.Generic;

namespace ExchStorageTest
{
    /// <summary>
    /// What a PerfMon capture of the Exchange servers being replaced showed in its busiest hour (or the hour the admin
    /// named), and the target the test is sized to: that hour's database IOPS x <see cref="GrowthFactor"/>, or the
    /// sizing calculator's when it asks more (docs/capture.md). Kept on a <see cref="MailboxProfile"/> built from a
    /// capture (New-MailboxProfile -CapturePath) so a run is judged against the servers it replaces; the figures stay
    /// the capture's whatever the profile is changed to afterwards. All rates are the captured servers' sum; per
    /// server they are divided by <see cref="Servers"/>' count. Shared by module and engine (PSTypeName
    /// ExchStorageTest.CaptureTargets, hence this namespace).
    /// </summary>
    public sealed class CaptureTargets
    {
        /// <summary>The capture files' names (not their folders: a profile travels to other hosts).</summary>
        public string[] Captures { get; set; } = Array.Empty<string>();
        /// <summary>The servers captured, as their counter paths name them (\\EX01\...: EX01).</summary>
        public string[] Servers { get; set; } = Array.Empty<string>();
        /// <summary>The capture's clock, as its first header cell names it ("W. Europe Standard Time").</summary>
        public string TimeZone { get; set; } = "";
        /// <summary>The hour's start and end on the capture's clock, "yyyy-MM-dd HH:mm".</summary>
        public string WindowStart { get; set; } = "";
        public string WindowEnd { get; set; } = "";
        /// <summary>The admin named the window (-CaptureWindow) rather than the busiest hour being found.</summary>
        public bool WindowNamed { get; set; }
        public double GrowthFactor { get; set; }
        /// <summary>Attached database reads + writes per second, the window's average, all servers.</summary>
        public double DatabaseIops { get; set; }
        public double DatabaseReadsPerSecond { get; set; }
        public double DatabaseWritesPerSecond { get; set; }
        /// <summary>Passive copies' (recovery) database reads per second: apart, not in <see cref="DatabaseIops"/>.</summary>
        public double RecoveryReadsPerSecond { get; set; }
        /// <summary>The highest sample of attached database IOPS in the window (all servers at one instant).</summary>
        public double PeakDatabaseIops { get; set; }
        public double LogWritesPerSecond { get; set; }
        public double LogBytesPerSecond { get; set; }
        /// <summary>Database read latency as ESE saw it, weighted by reads; 0 when not captured.</summary>
        public double ReadLatencyMs { get; set; }
        public double LogWriteLatencyMs { get; set; }
        /// <summary>Average database read and write sizes; 0 when the capture has no Average Bytes counters.</summary>
        public double ReadBytes { get; set; }
        public double WriteBytes { get; set; }
        /// <summary>"MSExchangeIS Store(*)\Active mailboxes" in the window, all servers; 0 when not captured.</summary>
        public int ActiveMailboxes { get; set; }
        /// <summary><see cref="DatabaseIops"/> x <see cref="GrowthFactor"/>.</summary>
        public double TargetIops { get; set; }
        /// <summary>The calculator's database IOPS for as many servers, when its design was given too; 0 otherwise.</summary>
        public double CalculatorIops { get; set; }
        /// <summary>What the test aims at: the higher of <see cref="TargetIops"/> and <see cref="CalculatorIops"/>.</summary>
        public double TestedIops { get; set; }

        /// <summary>The figures by their field names (<see cref="Contract.CaptureFields"/>).</summary>
        public IEnumerable<KeyValuePair<string, object?>> Settings()
        {
            yield return Setting(Contract.CaptureFields.Captures, Captures);
            yield return Setting(Contract.CaptureFields.Servers, Servers);
            yield return Setting(Contract.CaptureFields.TimeZone, TimeZone);
            yield return Setting(Contract.CaptureFields.WindowStart, WindowStart);
            yield return Setting(Contract.CaptureFields.WindowEnd, WindowEnd);
            yield return Setting(Contract.CaptureFields.WindowNamed, WindowNamed);
            yield return Setting(Contract.CaptureFields.GrowthFactor, GrowthFactor);
            yield return Setting(Contract.CaptureFields.DatabaseIops, DatabaseIops);
            yield return Setting(Contract.CaptureFields.DatabaseReadsPerSecond, DatabaseReadsPerSecond);
            yield return Setting(Contract.CaptureFields.DatabaseWritesPerSecond, DatabaseWritesPerSecond);
            yield return Setting(Contract.CaptureFields.RecoveryReadsPerSecond, RecoveryReadsPerSecond);
            yield return Setting(Contract.CaptureFields.PeakDatabaseIops, PeakDatabaseIops);
            yield return Setting(Contract.CaptureFields.LogWritesPerSecond, LogWritesPerSecond);
            yield return Setting(Contract.CaptureFields.LogBytesPerSecond, LogBytesPerSecond);
            yield return Setting(Contract.CaptureFields.ReadLatencyMs, ReadLatencyMs);
            yield return Setting(Contract.CaptureFields.LogWriteLatencyMs, LogWriteLatencyMs);
            yield return Setting(Contract.CaptureFields.ReadBytes, ReadBytes);
            yield return Setting(Contract.CaptureFields.WriteBytes, WriteBytes);
            yield return Setting(Contract.CaptureFields.ActiveMailboxes, ActiveMailboxes);
            yield return Setting(Contract.CaptureFields.TargetIops, TargetIops);
            yield return Setting(Contract.CaptureFields.CalculatorIops, CalculatorIops);
            yield return Setting(Contract.CaptureFields.TestedIops, TestedIops);
        }

        private static KeyValuePair<string, object?> Setting(string name, object? value) => new KeyValuePair<string, object?>(name, value);

        /// <summary>"EX01-EX04" for a run of names alike but their number, else "EX01, MBX7".</summary>
        public string ServerNames()
        {
            if (Servers.Length == 0) return "";
            if (Servers.Length == 1) return Servers[0];
            return Servers.Length > 2 ? Servers[0] + "-" + Servers[Servers.Length - 1] : string.Join(", ", Servers);
        }

        /// <summary>"10:00-11:00 on 2026-11-02" (the end's date too when the window crosses midnight).</summary>
        public string WindowText()
        {
            string startDate = WindowStart.Length >= 10 ? WindowStart.Substring(0, 10) : WindowStart;
            string endDate = WindowEnd.Length >= 10 ? WindowEnd.Substring(0, 10) : WindowEnd;
            string startTime = WindowStart.Length > 11 ? WindowStart.Substring(11) : WindowStart;
            string endTime = WindowEnd.Length > 11 ? WindowEnd.Substring(11) : WindowEnd;
            return startDate == endDate ? $"{startTime}-{endTime} on {startDate}" : $"{WindowStart} to {WindowEnd}";
        }

        public override string ToString() =>
            string.Format(System.Globalization.CultureInfo.InvariantCulture, "{0:0.##}x the {1} of {2} ({3}): {4:0.###} database IOPS",
                GrowthFactor, WindowNamed ? "named hour" : "busiest hour", ServerNames(), WindowText(), TestedIops);
    }

    /// <summary>The capture import's rules, one definition for module, engine and docs.</summary>
    public static class CaptureRules
    {
        /// <summary>
        /// The growth factor when none is given: 1.2, the 20% I/O overhead Microsoft's sizing calculator adds to a
        /// mailbox's IOPS by default (its database IOPS are mailboxes x IOPS per mailbox x 1.2, docs/calculator.md).
        /// </summary>
        public const double DefaultGrowthFactor = 1.2;
        /// <summary>The busiest hour is an hour.</summary>
        public const int DefaultWindowMinutes = 60;
    }
}
