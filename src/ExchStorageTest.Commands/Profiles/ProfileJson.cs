using ExchStorageTest.Json;

namespace ExchStorageTest.Profiles
{
    /// <summary>A profile as the request's <c>profile</c> and a saved profile file spell it: its settings by their contract names.</summary>
    internal static class ProfileJson
    {
        public static JsonObject ToJson(this MailboxProfile profile)
        {
            var json = new JsonObject();
            foreach (var setting in profile.Settings())
            {
                // The nested parts by their contract names too (the module's JSON writer knows no contract types).
                object? value = setting.Value is CalculatorTargets targets ? ProfileParts.JsonOf(targets)
                    : setting.Value is CaptureTargets captured ? ProfileParts.JsonOf(captured)
                    : setting.Value is ServerLayout[] servers ? ProfileParts.JsonOf(servers)
                    : setting.Value;
                json.Set(setting.Key, value);
            }
            return json;
        }
    }
}
