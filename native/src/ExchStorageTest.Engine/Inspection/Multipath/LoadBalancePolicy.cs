namespace ExchStorageTest.Engine.Inspection.Multipath;

/// <summary>Microsoft DSM load-balance policies (DSM_Load_Balance_Policy_V2 values 1..7, mpclaim abbreviations).</summary>
public sealed record LoadBalancePolicy(int Value, string Code, string Name)
{
    public static readonly IReadOnlyList<LoadBalancePolicy> All = new[]
    {
        new LoadBalancePolicy(1, "FOO", "Fail Over Only"),
        new LoadBalancePolicy(2, "RR", "Round Robin"),
        new LoadBalancePolicy(3, "RRWS", "Round Robin with Subset"),
        new LoadBalancePolicy(4, "LQD", "Least Queue Depth"),
        new LoadBalancePolicy(5, "WP", "Weighted Paths"),
        new LoadBalancePolicy(6, "LB", "Least Blocks"),
        new LoadBalancePolicy(7, "VS", "Vendor Specific"),
    };

    public static LoadBalancePolicy? FromValue(int value) => All.FirstOrDefault(p => p.Value == value);

    public static LoadBalancePolicy? FromCode(string code) =>
        All.FirstOrDefault(p => string.Equals(p.Code, code.Trim(), StringComparison.OrdinalIgnoreCase));

    /// <summary>mpclaim's detail header says "Round Robin", "Least Queue Depth"... ("Dynamic Least Queue Depth" in some docs).</summary>
    public static LoadBalancePolicy? FromName(string name)
    {
        string n = name.Trim();
        if (n.StartsWith("Dynamic ", StringComparison.OrdinalIgnoreCase)) n = n[8..];
        return All.FirstOrDefault(p => string.Equals(p.Name, n, StringComparison.OrdinalIgnoreCase))
            ?? FromCode(n);
    }

    public override string ToString() => $"{Name} ({Code})";
}
