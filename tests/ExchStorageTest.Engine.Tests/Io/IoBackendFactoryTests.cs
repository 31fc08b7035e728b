using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Io;

public class IoBackendFactoryTests
{
    [LinuxFact]
    public void LinuxPrefersIoUringAndUsesSyncAtQueueDepthOne()
    {
        using IIoBackend deep = IoBackendFactory.Create(16);
        Assert.Equal(Prerequisites.NoIoUring is null ? "io_uring" : "pread-threads", deep.Name);
        using IIoBackend qd1 = IoBackendFactory.Create(1);
        Assert.Equal("sync", qd1.Name);
    }

    [LinuxTheory]
    [InlineData("io_uring")]
    [InlineData("pread-threads")]
    [InlineData("sync")]
    [InlineData("SYNC")]
    public void PreferredBackendIsHonoured(string name)
    {
        if (name == "io_uring" && Prerequisites.NoIoUring is not null) return;
        using IIoBackend b = IoBackendFactory.Create(4, name);
        Assert.Equal(name.ToLowerInvariant(), b.Name);
    }

    [LinuxFact]
    public void IocpOnLinuxIsBackendUnavailable()
    {
        EngineException e = Assert.Throws<EngineException>(() => IoBackendFactory.Create(4, "iocp"));
        Assert.Equal("BackendUnavailable", e.Code);
        Assert.Equal(ErrorCategories.ResourceUnavailable, e.Category);
    }

    [Fact]
    public void UnknownBackendIsAnInvalidArgument()
    {
        EngineException e = Assert.Throws<EngineException>(() => IoBackendFactory.Create(4, "libaio2"));
        Assert.Equal("UnknownBackend", e.Code);
        Assert.Equal(ErrorCategories.InvalidArgument, e.Category);
    }

    [Fact]
    public void DepthMustBePositive() => Assert.Throws<ArgumentOutOfRangeException>(() => IoBackendFactory.Create(0));
}
