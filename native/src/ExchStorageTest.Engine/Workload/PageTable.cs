using System.Runtime.CompilerServices;

namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// Which cache buffer holds which database page: an open-addressing table (linear probing, deletion by
/// shifting the cluster back, so no tombstones pile up) sized once to twice the buffers. Every page a
/// session touches is looked up here, and every miss and eviction changes it; a Dictionary did the same
/// with an entry array, a bucket array and a modulo per lookup. Pages are non-negative.
/// Single-threaded; no allocation after construction.
/// </summary>
internal sealed class PageTable
{
    private const int Empty = -1;
    private readonly int[] _pages;
    private readonly int[] _slots;
    private readonly int _mask;

    public PageTable(int entries)
    {
        int size = 16;
        while (size < 2 * entries) size <<= 1;
        _pages = new int[size];
        _slots = new int[size];
        _mask = size - 1;
        Array.Fill(_pages, Empty);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int Home(int page) => (int)((uint)page * 0x9E3779B1u >> 7) & _mask;

    public bool TryGetValue(int page, out int slot)
    {
        for (int i = Home(page); ; i = (i + 1) & _mask)
        {
            int p = _pages[i];
            if (p == page) { slot = _slots[i]; return true; }
            if (p == Empty) { slot = -1; return false; }
        }
    }

    public bool ContainsKey(int page) => TryGetValue(page, out _);

    /// <summary>Adds or replaces the buffer of <paramref name="page"/>.</summary>
    public void Set(int page, int slot)
    {
        for (int i = Home(page); ; i = (i + 1) & _mask)
        {
            int p = _pages[i];
            if (p == page || p == Empty) { _pages[i] = page; _slots[i] = slot; return; }
        }
    }

    public void Remove(int page)
    {
        int i = Home(page);
        while (true)
        {
            int p = _pages[i];
            if (p == Empty) return;
            if (p == page) break;
            i = (i + 1) & _mask;
        }
        // Shift later entries of the cluster back into the hole when their home is not between it and them.
        int hole = i;
        for (int j = (hole + 1) & _mask; _pages[j] != Empty; j = (j + 1) & _mask)
        {
            int home = Home(_pages[j]);
            bool movable = hole <= j ? home <= hole || home > j : home <= hole && home > j;
            if (!movable) continue;
            _pages[hole] = _pages[j];
            _slots[hole] = _slots[j];
            hole = j;
        }
        _pages[hole] = Empty;
    }
}
