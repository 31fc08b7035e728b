using System;
using System.Globalization;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// Failure-mode windows (docs/failure-mode.md): the settings that declare one, their defaults and the grounds for them,
    /// and the checks of a request that declares one. Defined once for the module and the engine.
    /// </summary>
    public static class FaultRules
    {
        /// <summary>
        /// The longest a declared fault may take, recovery included, when the request does not say: Exchange's store flags
        /// a transaction that has not progressed in 60 seconds as timed out (events 10025-10027; a mailbox whose thread hangs
        /// that long counts towards quarantine). Storage that is not back within a minute has users waiting past that.
        /// </summary>
        public const double DefaultFaultLengthSeconds = 60;

        /// <summary>
        /// The longest a volume may go with I/O outstanding and nothing completing, when the request does not say: Windows
        /// MPIO's PDORemovePeriod (20 s by default, Get-MPIOSetting) is how long it holds a disk's I/O while every path is
        /// down before it removes the disk and fails that I/O, and the database with it. A failover that stalls longer only
        /// survives on hosts tuned past the default.
        /// </summary>
        public const double DefaultStallLimitSeconds = 20;

        /// <summary>
        /// The shortest stall that is found and named: a second with I/O outstanding on a volume and nothing completing.
        /// Healthy storage completes some I/O every few milliseconds under Exchange's load; a host too busy to reap
        /// completions can look like this too, so a stall shorter than the limit is named, not failed.
        /// </summary>
        public const double StallDetectSeconds = 1;

        /// <summary>Recovery: the first run of this many one-second samples whose mean is back within the pre-fault baseline and the rules.</summary>
        public const int RecoverySamples = 5;

        /// <summary>The pre-fault baseline: the measured window's last seconds before the fault, at most this many.</summary>
        public const double BaselineSeconds = 60;

        /// <summary>
        /// A recovered second: I/O per second at least this share of the baseline (storage back at its work, not still
        /// draining) — and latency no higher than <see cref="RecoveredLatencyFactor"/> times the baseline's.
        /// </summary>
        public const double RecoveredIopsShare = 0.8;
        public const double RecoveredLatencyFactor = 1.5;

        /// <summary>
        /// ESE's hung-I/O detection (Exchange 2010 SP1 and later): an I/O outstanding for about four minutes makes the
        /// replication service bugcheck the server so the database fails over. No window or limit may reach it.
        /// </summary>
        public const double HungIoSeconds = 240;

        public static readonly NumberRule FaultAt = new NumberRule("FaultAt", RequestFields.FaultAtSeconds, ErrorCodes.FaultAtOutOfRange, 0, 30 * 86400,
            exclusiveMinimum: true, seconds: true, hint: "the time into the measured window the fault starts, for example 00:01:00");
        public static readonly NumberRule FaultLength = new NumberRule("FaultLength", RequestFields.FaultLengthSeconds, ErrorCodes.FaultLengthOutOfRange, 0, 86400,
            exclusiveMinimum: true, seconds: true, hint: "omit it for the default: 60 seconds");
        public static readonly NumberRule StallLimit = new NumberRule("StallLimit", RequestFields.StallLimitSeconds, ErrorCodes.StallLimitOutOfRange, StallDetectSeconds, 3600,
            seconds: true, hint: "omit it for the default: 20 seconds");

        /// <summary>
        /// A fault window lies inside the measured window of a test that has one (Performance, Stress, Throughput), and
        /// FaultLength or FaultScript come only with FaultAt. Null when the request declares none or declares it well.
        /// </summary>
        public static Violation? Check(double? faultAtSeconds, double? faultLengthSeconds, string? faultScript, double durationSeconds, TestType testType)
        {
            bool script = !string.IsNullOrWhiteSpace(faultScript);
            if (!faultAtSeconds.HasValue)
            {
                if (faultLengthSeconds.HasValue || script)
                    return new Violation(ErrorCodes.FaultWindowInvalid, (script ? "FaultScript" : "FaultLength") + " needs FaultAt: the time into the measured window the fault starts.");
                return null;
            }
            if (!TestTypes.Of(testType).TakesFaultWindow)
                return new Violation(ErrorCodes.FaultWindowInvalid, $"A fault window needs a measured load window: a {testType} test has none (use {TestTypes.TransactionalNames}).", testType.ToString());
            double at = faultAtSeconds.Value, length = faultLengthSeconds ?? DefaultFaultLengthSeconds;
            if (at + length > durationSeconds)
                return new Violation(ErrorCodes.FaultWindowInvalid,
                    F($"The fault window ({at:0.###} s + {length:0.###} s) ends after the measured window ({durationSeconds:0.###} s): lengthen Duration or move FaultAt earlier."),
                    F($"{at:0.###}"));
            if (at < BaselineSeconds / 4)
                return new Violation(ErrorCodes.FaultWindowInvalid,
                    F($"FaultAt {at:0.###} s leaves no baseline before the fault: start it at least {BaselineSeconds / 4:0} s into the measured window, so recovery can be judged against the storage's own steady state."),
                    F($"{at:0.###}"));
            return null;
        }

        private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
    }

    /// <summary>What the fault window was judged (results <c>failureMode.fault.result</c>).</summary>
    public static class FaultOutcomes
    {
        /// <summary>No I/O error reached the application, the longest stall stayed within its limit, and the storage recovered inside the window.</summary>
        public const string Tolerated = "Tolerated";
        public const string NotTolerated = "NotTolerated";
        /// <summary>The run ended (stopped, failed) before the fault window did: not judged.</summary>
        public const string NotJudged = "NotJudged";
    }
}
