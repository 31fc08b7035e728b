using System;
using System.Threading;

namespace ExchStorageTest.Errors
{
    /// <summary>The module's one retry of an operation the OS refused for a passing reason (each caller names its reason).</summary>
    internal static class Transient
    {
        /// <summary>
        /// Runs <paramref name="action"/>, and again after <paramref name="delay"/> while it throws an exception
        /// <paramref name="isTransient"/> accepts, up to <paramref name="tries"/> times in all. Any other failure, and the
        /// last try's, goes to the caller as it came. The wait is on the caller's thread: keep tries x delay short.
        /// </summary>
        internal static T Retry<T>(Func<T> action, Func<Exception, bool> isTransient, int tries, TimeSpan delay)
        {
            for (int attempt = 1; ; attempt++)
            {
                try
                {
                    return action();
                }
                catch (Exception ex) when (attempt < tries && isTransient(ex))
                {
                    Thread.Sleep(delay);
                }
            }
        }
    }
}
