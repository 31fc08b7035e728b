using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>Average, minimum and maximum of each named counter over the samples taken; order of first appearance kept.</summary>
public sealed class HostCounterAccumulator
{
    private readonly Dictionary<string, Entry> _entries = new(StringComparer.Ordinal);
    private readonly List<string> _order = new();

    private sealed class Entry
    {
        public string Source = "";
        public string? Origin;
        public double Sum;
        public double Min = double.MaxValue;
        public double Max = double.MinValue;
        public int Count;
    }

    public void Add(string name, string source, string? origin, double value)
    {
        if (double.IsNaN(value) || double.IsInfinity(value)) return;
        if (!_entries.TryGetValue(name, out var e))
        {
            e = new Entry { Source = source, Origin = origin };
            _entries[name] = e;
            _order.Add(name);
        }
        e.Sum += value;
        e.Count++;
        if (value < e.Min) e.Min = value;
        if (value > e.Max) e.Max = value;
    }

    public List<HostCounter> ToCounters()
    {
        var list = new List<HostCounter>(_order.Count);
        foreach (var name in _order)
        {
            var e = _entries[name];
            list.Add(new HostCounter
            {
                Name = name,
                Source = e.Source,
                Origin = e.Origin,
                Average = e.Sum / e.Count,
                Minimum = e.Min,
                Maximum = e.Max,
                Samples = e.Count,
            });
        }
        return list;
    }
}
