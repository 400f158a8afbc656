"""How a declared message's weight is shared when the operation it names is the loss's own backward node, which a nan
made anywhere in the forward pass meets first: every entry whose page shows the op owns it evenly."""
import pytest

from conftest import weighed_parts

ANOMALY = "RuntimeError: Function 'BinaryCrossEntropyWithLogitsBackward0' returned nan values in its 0th output.\n"


EXP_IN_THE_MODEL = "        w = torch.exp(scores / self.t)\n        att = w / w.sum(dim=-1, keepdim=True)\n"


def test_the_losss_backward_node_is_shared_by_every_entry_that_shows_it():
    shares = {i: weighed_parts(EXP_IN_THE_MODEL + ANOMALY, i).get("messages", 0.0)
              for i in ("WR-020", "WR-070", "WR-310", "WR-050")}
    # WR-310's and WR-070's own example, and WR-020's further instance (an overflow inside the model, its exp shown):
    # a third each
    assert shares["WR-020"] == shares["WR-070"] == shares["WR-310"] > 0
    assert shares["WR-050"] == 0.0          # its page shows other ops
    # with no construct of the code shown, the node alone is the entries' whose own example it is (code_review_s71b 16)
    # -- its own example's two entries share it in halves, not thirds
    alone = {i: weighed_parts(ANOMALY, i).get("messages", 0.0) for i in ("WR-020", "WR-070", "WR-310")}
    assert alone["WR-020"] == 0.0 and alone["WR-070"] == alone["WR-310"] == pytest.approx(1.5 * shares["WR-310"])
    # an op only one entry's example names stays that entry's alone
    sqrt = ANOMALY.replace("BinaryCrossEntropyWithLogitsBackward0", "SqrtBackward0")
    assert weighed_parts(sqrt, "WR-050")["messages"] > 0 and "messages" not in weighed_parts(sqrt, "WR-020")


def test_an_unshifted_exp_in_the_model_puts_the_overflow_first_beside_that_node():
    """(s251/06) A hand-written attention's exp, then anomaly mode at the loss's node."""
    from conftest import diagnosis

    code = ("        w = torch.exp(self.att(x) / self.t)\n        norm_att = w / w.sum(dim=-1, keepdim=True)\n"
            "loss = BCEWithLogitsLoss on logit, fp32\n")
    curve = "".join(f"[ep 4] it {200 * i}/1236 loss {v}\n" for i, v in enumerate(
        ["0.01498", "0.01471", "0.01452", "0.01433", "0.01420", "0.01398", "0.01322", "nan", "nan"]))
    d = diagnosis(code + curve + ANOMALY)
    assert d.matches[0].entry.id == "WR-020"
    assert any("which it shares with the entries whose own example names it" in e for e in d.matches[0].evidence)
