namespace ExchStorageTest.Engine.Io;

public enum IoOperation : byte
{
    Read,
    Write,
}
