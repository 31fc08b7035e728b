using ExchStorageTest.Json;

namespace ExchStorageTest.Tests.Json;

/// <summary>The module's own JSON (docs/module.md, "Windows PowerShell 5.1 safety"): strict reading, writing that reads back.</summary>
public sealed class JsonTests
{
    [Fact]
    public void Reads_members_in_order_and_by_name_without_regard_to_case()
    {
        var o = Assert.IsType<JsonObject>(JsonReader.Parse("\uFEFF{ \"mailboxCount\": 20, \"Name\": \"a\\u00e9\", \"paths\": [\"/x\", null], \"ok\": true, \"rate\": 0.5 }"));
        Assert.Equal(new[] { "mailboxCount", "Name", "paths", "ok", "rate" }, o.Select(m => m.Key));
        Assert.Equal(20.0, o.GetNumber("MAILBOXCOUNT"));
        Assert.Equal("a\u00e9", o.GetString("name"));
        Assert.Equal(new object?[] { "/x", null }, o.GetArray("paths"));
        Assert.Equal("true", o.GetString("ok"));
        Assert.Equal(0.5, o.GetNumber("rate"));
    }

    [Theory]
    [InlineData("{\"a\": 1,}")]
    [InlineData("{\"a\": 01}")]
    [InlineData("[1, 2")]
    [InlineData("{\"a\": 1} x")]
    [InlineData("'text'")]
    [InlineData("{\"a\": \"\t\"}")]
    public void Refuses_what_RFC_8259_does_not_allow_naming_where(string text)
    {
        var error = Assert.Throws<FormatException>(() => JsonReader.Parse(text));
        Assert.Matches(@"\(line 1, column \d+\)$", error.Message);
    }

    [Fact]
    public void Writes_what_it_reads_back_the_same_with_invariant_numbers_and_UTC_instants()
    {
        var original = new JsonObject()
            .Set("text", "quote \" backslash \\ line\n tab\t control \u0001")
            .Set("number", 1.25).Set("whole", 3L).Set("none", null).Set("flag", false)
            .Set("list", new List<object?> { 1L, "two", new JsonObject().Set("three", 3L) })
            .Set("when", new DateTime(2026, 11, 25, 0, 10, 0, DateTimeKind.Utc));
        string written = JsonWriter.Write(original);
        Assert.Contains("\"when\":\"2026-11-25T00:10:00.0000000Z\"", written);
        Assert.Contains("\"number\":1.25", written);
        var back = Assert.IsType<JsonObject>(JsonReader.Parse(written));
        Assert.Equal(written, JsonWriter.Write(back));
        Assert.Equal(original.GetString("text"), back.GetString("text"));
        Assert.Equal(JsonWriter.Write(original, indented: false), JsonWriter.Write(JsonReader.Parse(JsonWriter.Write(original, indented: true))));
    }
}
