namespace ExchStorageTest
{
    /// <summary>
    /// Which Exchange a run's load models: the version whose I/O and guidance it follows and the layout of
    /// database copies it puts on the storage. Spelled once here; the engine stamps it into every results file
    /// (<c>exchange</c>), the reports and the ESRP tables print <see cref="Description"/>, and the platform
    /// pre-flight judges processors against its guidance.
    /// </summary>
    public sealed class ModelledExchange
    {
        /// <summary>
        /// Jetstress 2013's model, which ExchStorageTest follows by default: each database's own reads, writes and
        /// log, plus the log reads that ship it to its copies. The passive copies' own I/O is not on the storage.
        /// </summary>
        public static readonly ModelledExchange Jetstress = new ModelledExchange(
            "Exchange 2013/2016", "Jetstress-compatible: active databases only", maximumLogicalProcessors: 24);

        /// <summary>
        /// Exchange 2019 and Subscription Edition laid out as Microsoft's Preferred Architecture (JBOD, several
        /// copies per disk, at most one active): the model of a run whose profile puts passive copies on its volumes
        /// (PassiveCopyModel.Modelled), whose load carries the passive copies' I/O beside the active ones'.
        /// </summary>
        public static readonly ModelledExchange PreferredArchitecture2019 = new ModelledExchange(
            "Exchange 2019/SE", "Preferred Architecture: active and passive copies per disk", maximumLogicalProcessors: 48);

        public static readonly ModelledExchange[] All = { Jetstress, PreferredArchitecture2019 };

        private ModelledExchange(string version, string layout, int maximumLogicalProcessors)
        {
            Version = version;
            Layout = layout;
            MaximumLogicalProcessors = maximumLogicalProcessors;
        }

        /// <summary>"Exchange 2013/2016", "Exchange 2019/SE".</summary>
        public string Version { get; }

        /// <summary>What of the database copies the load puts on the storage.</summary>
        public string Layout { get; }

        /// <summary>
        /// The most logical processors the version's sizing guidance recommends for a Mailbox server (24 for
        /// Exchange 2016, 48 for Exchange 2019 and SE: Microsoft's CSS-Exchange Health Checker, "Processor check").
        /// </summary>
        public int MaximumLogicalProcessors { get; }

        /// <summary>Two sockets at most for every version since Exchange 2013 (the same Health Checker rule).</summary>
        public int MaximumSockets => 2;

        /// <summary>"Exchange 2013/2016, Jetstress-compatible: active databases only": what a reader is told was tested.</summary>
        public string Description => Describe(Version, Layout);

        /// <summary>The one wording of a version and layout, also for one read back from a results file.</summary>
        public static string Describe(string version, string layout) => version + ", " + layout;

        /// <summary>The model whose <see cref="Version"/> and <see cref="Layout"/> these are; null for none (a results file of another tool).</summary>
        public static ModelledExchange? Find(string? version, string? layout)
        {
            foreach (var m in All)
                if (string.Equals(m.Version, version, System.StringComparison.Ordinal) && string.Equals(m.Layout, layout, System.StringComparison.Ordinal)) return m;
            return null;
        }
    }
}
