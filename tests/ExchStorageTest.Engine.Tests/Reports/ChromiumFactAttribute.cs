namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>A fact that needs a headless Chromium at /usr/bin/chromium; skipped (with the reason) where there is none. Tests never install it.</summary>
public sealed class ChromiumFactAttribute : FactAttribute
{
    public const string ChromiumPath = "/usr/bin/chromium";

    public ChromiumFactAttribute()
    {
        if (!File.Exists(ChromiumPath))
            Skip = $"{ChromiumPath} is not installed; install it (apt-get install chromium) to render the HTML report in a browser.";
    }
}
