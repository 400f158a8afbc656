"""PyTorch's refusal of a sequence of length 0 in pack_padded_sequence is WR-310's: an example the data pipeline left
empty, met at whichever batch first holds one."""
from conftest import diagnosis

TRACEBACK = ("My LSTM tagger on tweets crashes partway through the first epoch, at a different batch each run.\n\n"
             "```\nTraceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n"
             "    out = model(batch_ids, batch_lens)\n  File \"model.py\", line 31, in forward\n"
             "    packed = nn.utils.rnn.pack_padded_sequence(x, lens.cpu(), batch_first=True, enforce_sorted=False)\n"
             "  File \"/usr/lib/python3.11/site-packages/torch/nn/utils/rnn.py\", line 338, in pack_padded_sequence\n"
             "    data, batch_sizes = _VF._pack_padded_sequence(input, lengths, batch_first)\n"
             "RuntimeError: Length of all samples has to be greater than 0, but found an element in 'lengths' that "
             "is <= 0\n```\n")


def test_a_zero_length_in_a_packed_batch_names_the_bad_batch_entry():
    d = diagnosis(TRACEBACK)
    assert d.matches[0].entry.id == "WR-310"
    assert any("Length of all samples has to be greater than 0" in e for e in d.matches[0].evidence)
    # (declared as printed only where pack_padded_sequence runs: its absence from another PyTorch paste is no evidence
    # against WR-310 -- beside its own curve, where a missing message would count: reread_s75 7)
    fall = "".join(f"step {k * 100:5d} | loss {v}\n" for k, v in enumerate(
        ("2.31", "2.05", "1.88", "1.74", "1.63", "1.55", "1.49", "1.44", "1.40", "nan", "nan"), 1))
    other = diagnosis("My PyTorch LSTM, loss.backward() then optimizer.step():\n" + fall)
    assert other.signature.name == "descent-then-nonfinite"
    (bad_batch,) = [m for m in other.matches if m.entry.id == "WR-310"]
    assert not any("none of the messages" in a for a in bad_batch.against)
