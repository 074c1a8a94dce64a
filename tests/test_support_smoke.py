"""The test helpers deal what they say."""

from tests.support import act, hand, legal, make_match


def test_make_match_deals_the_hands_asked_for():
    m = make_match("duel", ["7H 9H", "2C 3C"], "9D", "KS QS")
    assert hand(m, 0) == ["7H", "9H"]
    assert hand(m, 1) == ["2C", "3C"]
    assert m.round.top.code == "9D"
    assert [c.code for c in reversed(m.round.pile)] == ["KS", "QS"]
    assert legal(m) == {"play 9H"}
    act(m, "play 9H")
    assert m.round.to_act == 1
