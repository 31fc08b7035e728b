using ExchStorageTest.Engine.Io;

namespace ExchStorageTest.Engine.Load;

/// <summary>What a stream id measures: one instance's stream (e.g. Instance.1 DatabaseRead).</summary>
public readonly record struct StreamKey(int Instance, string Stream, IoOperation Operation);
