using System;
using System.Collections.ObjectModel;

namespace ExchStorageTest
{
    /// <summary>
    /// A profile's folders (<see cref="MailboxProfile.DatabasePaths"/>, <see cref="MailboxProfile.LogPaths"/>): a list
    /// that reads as its folders when it is made a string. Export-Csv and other text conversions write a property's
    /// <c>ToString()</c>, which for an array is its type name ("System.String[]"), so a profile exported to CSV lost its
    /// paths; as this list it writes them one a line, as the module's result lists do (TextList). Unlike those it can be
    /// set (a profile's settings can be changed on the object). It serializes as a JSON array like the array it replaces,
    /// and converts to and from <c>string[]</c>, so code and files that hold the paths as an array read it unchanged.
    /// </summary>
    public sealed class PathList : Collection<string>
    {
        public PathList() { }

        /// <summary>
        /// The folders of a string[], or of the object[] PowerShell hands over when a script sets the property to a list
        /// (<c>$p.LogPaths = 'D:\a', 'E:\b'</c>): each as its text, as the string[] property it replaces took them.
        /// </summary>
        public PathList(object[] paths)
        {
            foreach (object path in paths) Add(path?.ToString() ?? "");
        }

        /// <summary>The number of folders, named as the array's count was.</summary>
        public int Length => Count;

        public string[] ToArray()
        {
            var copy = new string[Count];
            CopyTo(copy, 0);
            return copy;
        }

        public override string ToString() => string.Join(Environment.NewLine, this);

        /// <summary>One folder (<c>$p.DatabasePaths = 'D:\DB'</c> in PowerShell, as a string[] property took it).</summary>
        public static implicit operator PathList(string? path) => path == null ? new PathList() : new PathList(new object[] { path });

        public static implicit operator PathList(string[]? paths) => paths == null ? new PathList() : new PathList(paths);

        public static implicit operator string[](PathList? paths) => paths == null ? new string[0] : paths.ToArray();
    }
}
