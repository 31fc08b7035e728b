using System;
using System.Globalization;
using System.Management.Automation;
using System.Management.Automation.Runspaces;

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
        private const string ReadClock = "[DateTime]::UtcNow.Ticks";

        private ClockSkew(TimeSpan skew, TimeSpan roundTrip)
        {
            Skew = skew;
            RoundTrip = roundTrip;
        }

        public TimeSpan Skew { get; }
        public TimeSpan RoundTrip { get; }
        public TimeSpan Uncertainty => TimeSpan.FromTicks(RoundTrip.Ticks / 2);

        public static ClockSkew Measure(Runspace runspace, Cmdlet cmdlet, int samples = 3)
        {
            ClockSkew? best = null;
            for (int i = 0; i < samples; i++)
            {
                DateTime before = DateTime.UtcNow;
                var answer = RemoteCall.Invoke(runspace, cmdlet, ReadClock, RemoteCall.DefaultTimeout);
                DateTime after = DateTime.UtcNow;
                if (answer.Count == 0) throw new InvalidOperationException("the host did not tell its time.");
                long remote = Convert.ToInt64(answer[0].BaseObject, CultureInfo.InvariantCulture);
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
