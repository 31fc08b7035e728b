using System;
using System.Collections;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Profiles
{
    /// <summary>
    /// New-MailboxProfile -JetstressConfig: the profile of a Jetstress 2013 JetstressConfig.xml, read by the contract's
    /// one reader (<see cref="JetstressConfig"/>, which JetstressCmd /c reads its configuration with too), as settings
    /// by name, so the parameters given as well override them and <see cref="ProfileReader"/> checks the result like
    /// any other profile input.
    /// </summary>
    internal static class JetstressConfigFile
    {
        public static Hashtable Read(string path)
        {
            var config = JetstressConfig.Read(path, out var violation) ?? throw StorageTestException.From(violation!);
            var profile = config.ToProfile(out violation) ?? throw StorageTestException.From(violation!);
            var settings = new Hashtable(StringComparer.OrdinalIgnoreCase);
            foreach (var setting in profile.Settings())
                if (setting.Value != null) settings[setting.Key] = setting.Value;
            return settings;
        }
    }
}
