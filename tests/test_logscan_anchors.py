"""Past 64 literals the anchors are searched in groups first (the crate's fast prefilter takes no
more), then line by line: the hits must be exactly those of the one automaton."""
import ahocorasick_rs
import numpy as np

from trainwreck.logscan.anchors import GROUP, Anchors


def _one_automaton(literals: list[bytes], data: bytes) -> list[tuple[int, int, int]]:
    automaton = ahocorasick_rs.BytesAhoCorasick(literals, matchkind=ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST)
    return automaton.find_matches_as_indexes(data)


def _text(rng, words: list[bytes], lines: int) -> bytes:
    return b"\n".join(b" ".join(words[k] for k in rng.integers(0, len(words), rng.integers(0, 12)))
                      for _ in range(lines))


def test_groups_give_the_hits_of_one_automaton():
    rng = np.random.default_rng(0)
    stems = [b"val", b"loss", b"overflow", b"encountered", b"in", b"Error: ", b"nan", b"step", b"scale"]
    # overlapping literals (one inside another, one starting another), and a copy of an earlier one
    literals = list(dict.fromkeys(a + b for a in stems for b in (b"", b" ", b"_", b": ", b"s", b"=", b"ed", b" in")))
    literals += [b"val", b"loss scale", literals[3]]
    assert len(set(literals)) > GROUP
    anchors = Anchors(literals)
    assert anchors.groups                       # the grouped path is the one under test
    words = stems + [b"x", b"val_loss:", b"loss scale", b"overflows"]
    for lines in (1, 50, 2000):
        data = _text(rng, words, lines)
        assert anchors.hits(data) == _one_automaton(literals, data)


def test_at_most_a_group_is_one_pass_with_copies_dropped():
    literals = [b"loss", b"val ", b"loss", b"Error: "]
    anchors = Anchors(literals)
    assert not anchors.groups
    data = b"loss val loss\nValueError: x loss\n"
    assert anchors.hits(data) == _one_automaton(literals, data)


def test_the_catalogues_messages_are_found_through_the_shortest_anchors_in_one_pass():
    """Only anchors that hold no shorter one are searched for (a line holding the longer holds the
    shorter): NumPy's warnings share " encountered in ", so the catalogue's anchors stay within one
    prefilter group however many of them it declares -- past 64 the scan is about a third slower
    (bench/diagnose_speed.py). Every declared message, alone on a line, is still found."""
    from conftest import real_catalog
    from trainwreck.diagnose import message_finder
    from trainwreck.logscan import scan
    import io

    catalog = real_catalog()
    finder = message_finder(catalog)
    assert not finder.anchors.groups, f"{len(finder.anchors.index)} anchors: more than one prefilter group"
    declared = [m for e in catalog.sorted_entries() for m in e.messages]
    assert len(declared) > len(finder.candidates)          # sharing anchors is what keeps the count down
    for m in declared:
        ev = scan(io.BytesIO(f"step 1 loss 0.5\nWarning: {m.shown}\nstep 2 loss nan\n".encode()), "log", finder)
        assert m.text in ev.messages, m.text


def test_a_long_anchor_is_found_through_any_shorter_one_it_holds_when_another_hit_overlaps_one():
    """The automaton's hits do not overlap: here "gradient overflow" is hit and hides "overflow detected",
    so the long anchor must be a candidate of both (a review's counterexample to filing it under one)."""
    from trainwreck.logscan import scan
    from trainwreck.logscan.messages import MessageFinder
    import io

    finder = MessageFinder([("{} overflow detected", "numpy"), ("gradient overflow{}", "numpy"),
                            ("NOTE: gradient overflow detected, ignoring gradient", "fairseq")])
    line = b"2026-11-30 | NOTE: gradient overflow detected, ignoring gradient, setting loss scale to: 64.0\n"
    ev = scan(io.BytesIO(b"step 1 loss 0.5\n" + line + b"step 2 loss 0.4\n"), "log", finder)
    assert "NOTE: gradient overflow detected, ignoring gradient" in ev.messages


def test_two_messages_on_one_line_are_filed_in_the_order_they_stand():
    from conftest import real_catalog
    from trainwreck.diagnose import message_finder
    from trainwreck.logscan import scan
    import io

    line = (b"step 3: RuntimeWarning: invalid value encountered in divide "
            b"(after RuntimeWarning: overflow encountered in exp)\n")
    ev = scan(io.BytesIO(b"step 1 loss 0.5\n" + line), "log", message_finder(real_catalog()))
    assert list(ev.messages)[:2] == ["invalid value encountered in divide", "overflow encountered in exp"]


def test_anchors_that_begin_alike_are_searched_by_what_they_share_and_each_message_is_still_found():
    """CUDA's three kernel assertions share `Assertion \\``; each is one literal less of the prefilter's 64, and each is
    still filed as itself."""
    import io

    from trainwreck.logscan import scan
    from trainwreck.logscan.messages import MessageFinder, _shared_beginnings

    assert _shared_beginnings([b"Assertion `a >= 0` failed", b"Assertion `t < n` failed", b"other message"]) == \
        [b"Assertion `", b"Assertion `", b"other message"]
    assert _shared_beginnings([b"loss went nan", b"loss scale at minimum"]) == [b"loss went nan", b"loss scale at minimum"]
    texts = ["Assertion `t >= 0 && t < n_classes` failed.", "Assertion `input_val >= zero && input_val <= one` failed",
             "Assertion `target_val >= zero && target_val <= one` failed"]
    finder = MessageFinder([(t, "cuda") for t in texts])
    assert any(set(c) >= {0, 1, 2} for c in finder.candidates)       # one literal makes all three candidates
    for text in texts:
        log = f"step 10 loss 2.3\n/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: kernel: block: [0,0,0], thread: [5,0,0] {text}\n"
        ev = scan(io.BytesIO(log.encode()), "log", finder)
        assert [found for found in ev.messages] == [text], text
