namespace ExchStorageTest.Engine.Workload;

/// <summary>A first-in first-out queue of session numbers with room for every session (no allocation after construction).</summary>
internal sealed class SessionQueue
{
    private readonly int[] _items;
    private int _head;

    public SessionQueue(int sessions) => _items = new int[sessions];

    public int Count { get; private set; }

    public void Push(int session)
    {
        int tail = _head + Count;
        if (tail >= _items.Length) tail -= _items.Length;
        _items[tail] = session;
        Count++;
    }

    public int Pop()
    {
        int s = _items[_head];
        _head = _head + 1 == _items.Length ? 0 : _head + 1;
        Count--;
        return s;
    }
}
