using System;
using System.Globalization;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// How far a host's clock is from this computer's: the host is asked for its UTC time a few times, and the sample
    /// with the shortest round trip is compared with the local instant half-way through that round trip, so the error
    /// is at most half that round trip (<see cref="Uncertainty"/>). Skew is remote minus local: a host whose clock runs
    /// 2 s ahead has a skew of +2 s, and the agreed instant on its own clock is the agreed instant plus 2 s.
    /// </summary>
    internal sealed class ClockSkew
    {
        /// <summary>The host's clock, read by a remote script.</summary>
        internal const string ReadClock = "[DateTime]::UtcNow.Ticks";

        internal ClockSkew(TimeSpan skew, TimeSpan roundTrip)
        {
            Skew = skew;
            RoundTrip = roundTrip;
        }

        public TimeSpan Skew { get; }
        public TimeSpan RoundTrip { get; }
        public TimeSpan Uncertainty => TimeSpan.FromTicks(RoundTrip.Ticks / 2);

        public static ClockSkew Measure(Func<long> readRemoteTicks, int samples = 3)
        {
            ClockSkew? best = null;
            for (int i = 0; i < samples; i++)
            {
                DateTime before = DateTime.UtcNow;
                long remote = readRemoteTicks();
                DateTime after = DateTime.UtcNow;
                TimeSpan roundTrip = after - before;
                DateTime middle = before.AddTicks(roundTrip.Ticks / 2);
                var sample = new ClockSkew(TimeSpan.FromTicks(remote - middle.Ticks), roundTrip);
                if (best == null || sample.RoundTrip < best.RoundTrip) best = sample;
            }
            return best!;
        }

        public override string ToString() =>
            string.Format(CultureInfo.InvariantCulture, "{0:+0;-0;0} ms (+/- {1:0} ms)", Skew.TotalMilliseconds, Uncertainty.TotalMilliseconds);
    }
}
