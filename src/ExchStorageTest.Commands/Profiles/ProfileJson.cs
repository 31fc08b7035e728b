using ExchStorageTest.Json;

namespace ExchStorageTest.Profiles
{
    /// <summary>A profile as the request's <c>profile</c> and a saved profile file spell it: its settings by their contract names.</summary>
    internal static class ProfileJson
    {
        public static JsonObject ToJson(this MailboxProfile profile)
        {
            var json = new JsonObject();
            foreach (var setting in profile.Settings()) json.Set(setting.Key, setting.Value);
            return json;
        }
    }
}
