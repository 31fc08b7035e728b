namespace ExchStorageTest.Engine.Tests.Contract;

/// <summary>"1 sessions", "error(s)", "300.000% over". One engine writes counts and shares as a person would.</summary>
public class WordingTests
{
    [Theory]
    [InlineData(0, "0 sessions")]
    [InlineData(1, "1 session")]
    [InlineData(2, "2 sessions")]
    public void A_count_takes_its_noun_in_the_right_number(long count, string expected) =>
        Assert.Equal(expected, Wording.Count(count, "session"));

    [Fact]
    public void Irregular_plurals_and_verbs_are_given()
    {
        Assert.Equal("1 copy", Wording.Count(1, "copy", "copies"));
        Assert.Equal("3 copies", Wording.Count(3, "copy", "copies"));
        Assert.Equal("is", Wording.Noun(1, "is", "are"));
        Assert.Equal("are", Wording.Noun(4, "is", "are"));
    }

    [Theory]
    [InlineData(300.0, "300%")]
    [InlineData(459.5, "459.5%")]
    [InlineData(12.25, "12.3%")]
    [InlineData(0.04, "0%")]
    [InlineData(-0.04, "0%")]
    [InlineData(-12.5, "-12.5%")]
    public void A_percentage_has_no_zero_decimals(double percent, string expected) =>
        Assert.Equal(expected, Wording.Percent(percent));

    [Fact]
    public void A_percentage_keeps_the_decimals_asked_for_and_nothing_for_no_number()
    {
        Assert.Equal("33%", Wording.Percent(33.3333, 0));
        Assert.Equal("33.33%", Wording.Percent(33.3333, 2));
        Assert.Equal("", Wording.Percent(double.NaN));
    }
}
