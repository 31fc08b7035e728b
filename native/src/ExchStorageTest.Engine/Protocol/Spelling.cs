namespace ExchStorageTest.Engine.Protocol;

/// <summary>The "did you mean" of a refusal: the candidate nearest to a misspelt name.</summary>
public static class Spelling
{
    /// <summary>The candidate with the fewest edits from <paramref name="name"/> (case ignored), or null when none is close.</summary>
    public static string? Nearest(string name, IEnumerable<string> candidates, int? maxDistance = null)
    {
        string? best = null;
        int bestDistance = int.MaxValue;
        foreach (var c in candidates)
        {
            int d = Distance(name.ToLowerInvariant(), c.ToLowerInvariant());
            if (d < bestDistance) { bestDistance = d; best = c; }
        }
        return best is not null && bestDistance <= (maxDistance ?? Math.Max(2, name.Length / 3)) ? best : null;
    }

    /// <summary>Levenshtein distance.</summary>
    public static int Distance(string a, string b)
    {
        var prev = new int[b.Length + 1];
        var cur = new int[b.Length + 1];
        for (int j = 0; j <= b.Length; j++) prev[j] = j;
        for (int i = 1; i <= a.Length; i++)
        {
            cur[0] = i;
            for (int j = 1; j <= b.Length; j++)
                cur[j] = Math.Min(Math.Min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
            (prev, cur) = (cur, prev);
        }
        return prev[b.Length];
    }
}
