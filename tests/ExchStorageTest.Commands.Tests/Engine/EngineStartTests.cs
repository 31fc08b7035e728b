using System;
using System.ComponentModel;
using ExchStorageTest.Engine;
using Xunit;

namespace ExchStorageTest.Commands.Tests.Engine
{
    public class EngineStartTests
    {
        [Fact]
        public void A_start_the_OS_failed_with_an_internal_error_is_tried_once_more()
        {
            int tries = 0;
            string started = EngineProcess.StartRetryingTransient(() =>
            {
                if (++tries == 1) throw new Win32Exception(EngineProcess.ErrorInternalError);
                return "started";
            }, TimeSpan.Zero);
            Assert.Equal("started", started);
            Assert.Equal(2, tries);
        }

        [Fact]
        public void A_second_internal_error_goes_to_the_caller()
        {
            int tries = 0;
            var ex = Assert.Throws<Win32Exception>(() => EngineProcess.StartRetryingTransient<string>(() => { tries++; throw new Win32Exception(EngineProcess.ErrorInternalError); }, TimeSpan.Zero));
            Assert.Equal(EngineProcess.ErrorInternalError, ex.NativeErrorCode);
            Assert.Equal(2, tries);
        }

        [Theory]
        [InlineData(2)]   // ERROR_FILE_NOT_FOUND: no engine there
        [InlineData(5)]   // ERROR_ACCESS_DENIED: blocked
        [InlineData(193)] // ERROR_BAD_EXE_FORMAT: the wrong engine
        public void Any_other_start_failure_is_not_retried(int error)
        {
            int tries = 0;
            var ex = Assert.Throws<Win32Exception>(() => EngineProcess.StartRetryingTransient<string>(() => { tries++; throw new Win32Exception(error); }, TimeSpan.Zero));
            Assert.Equal(error, ex.NativeErrorCode);
            Assert.Equal(1, tries);
        }
    }
}
