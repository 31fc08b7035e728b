namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The codes of a PerfMon capture's import (the engine's capture command behind New-MailboxProfile -CapturePath,
    /// docs/capture.md). Every one is raised before anything is written, and names the file, the row, the column or
    /// the value it is about.
    /// </summary>
    public static partial class ErrorCodes
    {
        public static readonly ErrorCode CaptureNotFound = Add("CaptureNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Engine, ErrorGroups.Capture, "a -CapturePath file does not exist");
        public static readonly ErrorCode CaptureNotPerfmon = Add("CaptureNotPerfmon", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Capture, "the file is not a PerfMon log as relog writes it: no '(PDH-CSV 4.0) (<time zone>)(<bias>)' or '(PDH-TSV 4.0) ...' first cell, a column that is no '\\\\server\\object(instance)\\counter' path, a row of another width, or a .blg on a system without PDH (the file and what was found are named)");
        public static readonly ErrorCode CaptureNoDatabaseCounters = Add("CaptureNoDatabaseCounters", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Capture, "the capture has no 'MSExchange Database ==> Instances(Information Store - <database>/_Total)' counters: not an Exchange mailbox server's capture, or one without the ESE instance counters ExPerfWiz records");
        public static readonly ErrorCode CaptureCountersMissing = Add("CaptureCountersMissing", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Capture, "a server of the capture lacks a counter the derivation needs (its database reads, writes, read latency or log writes per second), or has no database counters while the others have (the server, the database and the counter are named)");
        public static readonly ErrorCode CaptureTooShort = Add("CaptureTooShort", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Capture, "the capture covers less than an hour on some server, or the window named is not covered by every server's samples (the span found is named): capture at least an hour, or name a shorter window explicitly");
        public static readonly ErrorCode CaptureValueInvalid = Add("CaptureValueInvalid", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Capture, "a cell holds no number or a timestamp no locale the reader knows writes (the row, the column and the text are named), or a -GrowthFactor, window or mailbox count no target can be made of");
        public static readonly ErrorCode CaptureClockChanged = Add("CaptureClockChanged", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Capture, "the capture's clock goes back (the repeated hour of a daylight-saving change, or a clock set back): the rows and times are named; relog the capture without that hour (relog -b/-e) or name a window outside it");
        public static readonly ErrorCode CaptureFigureMissing = Add("CaptureFigureMissing", ErrorCategories.InvalidArgument, RaisedBy.Both, ErrorGroups.Capture, "a figure a capture cannot know is given neither by a parameter nor by the calculator: the mailbox size (-MailboxSizeMB), or the mailboxes when the capture has no 'MSExchangeIS Store(*)\\Active mailboxes' (-MailboxCount)");
    }
}
