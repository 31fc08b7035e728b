namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The engine's executables in <c>bin/&lt;rid&gt;/</c> (".exe" on Windows), as the build publishes them, the module
    /// starts and marks executable, and JetstressCmd recognises itself: one name each. ExchStorageTest.Engine.Cli's AssemblyName
    /// and its launcher copy target spell the same names for MSBuild.
    /// </summary>
    public static class EngineFiles
    {
        /// <summary>The engine the module starts.</summary>
        public const string Engine = "exchstoragetest-engine";
        /// <summary>The engine's launcher under the name Jetstress automation starts (docs/jetstress.md).</summary>
        public const string JetstressCmd = "JetstressCmd";
    }
}
