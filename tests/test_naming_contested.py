"""A curve's shape alone names no entry where the report points at another: ux_review_s65 1, a post-LN transformer
trained with Adam and no warmup whose loss stalls after an early bump was named WR-140 (Dead ReLUs) with confidence,
its words "no warmup" counted for WR-250 and changed nothing."""
from conftest import diagnosis, weighed_parts

STALL = ("step 0    loss 10.84\nstep 20   loss 9.71\nstep 40   loss 8.02\nstep 60   loss 9.96\nstep 80   loss 11.35\n"
         "step 100  loss 7.64\nstep 200  loss 7.59\nstep 300  loss 7.58\nstep 400  loss 7.58\nstep 500  loss 7.57\n"
         "step 600  loss 7.58\nstep 700  loss 7.57\n")
SAID = ("Training a 12-layer post-LN transformer from scratch on WMT, Adam(lr=1e-3, betas=(0.9, 0.98)), no warmup, no "
        "scheduler.\n")


def test_a_stall_beside_words_of_no_warmup_is_not_named_on_its_shape():
    """The stall after a drop is WR-140's shape, and WR-250's pointer is the report's own "no warmup": both are listed,
    and the answer says it cannot tell yet. Without those words the shape names WR-140 as before."""
    d = diagnosis(SAID + STALL)
    assert weighed_parts(SAID + STALL, "WR-250")["no-warmup"] > 0
    assert d.verdict == "uncertain" and [m.entry.id for m in d.matches][:2] == ["WR-140", "WR-250"]
    plain = diagnosis("Training a 12-layer post-LN transformer from scratch on WMT with Adam(lr=1e-3).\n" + STALL)
    assert plain.verdict == "failure" and plain.matches[0].entry.id == "WR-140"


def test_every_cause_that_contests_a_shape_is_a_part_the_weighing_gives():
    """CAUSES_SHOWN names parts of a score by their keys: one misspelt would never contest anything, silently."""
    from trainwreck.diagnose import CAUSES_SHOWN, SAID_FACTS

    assert CAUSES_SHOWN and set(CAUSES_SHOWN) <= set(SAID_FACTS) - {"precision"}
