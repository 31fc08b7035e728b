using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Tests.Workload;

public class PageTableTests
{
    [Fact]
    public void Agrees_with_a_dictionary_through_adds_replaces_and_removes()
    {
        // Removal shifts later entries of a cluster back: wrap-around and collisions must lose nothing.
        var table = new PageTable(64);
        var reference = new Dictionary<int, int>();
        var rng = new Random(34);
        for (int step = 0; step < 200_000; step++)
        {
            int page = rng.Next(300); // dense keys: long clusters in a 128-entry table
            if (reference.Count < 64 && rng.Next(3) > 0)
            {
                table.Set(page, step);
                reference[page] = step;
            }
            else
            {
                table.Remove(page);
                reference.Remove(page);
            }
            int probe = rng.Next(300);
            Assert.Equal(reference.TryGetValue(probe, out int want), table.TryGetValue(probe, out int got));
            if (reference.ContainsKey(probe)) Assert.Equal(want, got);
        }
        foreach (var (page, slot) in reference)
        {
            Assert.True(table.TryGetValue(page, out int got));
            Assert.Equal(slot, got);
        }
    }
}
