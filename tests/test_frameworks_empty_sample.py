"""Opt-in: WR-310's empty example -- a sequence of length 0 in a batch handed to pack_padded_sequence -- raises the
message WR-310 declares, word for word, on the PyTorch the tier runs."""
from framework_runner import OPT_IN, declared, run

pytestmark = OPT_IN


def test_a_length_of_zero_in_a_packed_batch_raises_the_declared_message():
    out = run("torch", """
        import json, torch
        from torch.nn.utils.rnn import pack_padded_sequence, pad_sequence
        texts = [torch.tensor([4, 9, 2]), torch.tensor([], dtype=torch.long), torch.tensor([7])]
        padded = pad_sequence(texts, batch_first=True)
        lengths = torch.tensor([len(t) for t in texts])
        try:
            pack_padded_sequence(padded.unsqueeze(-1).float(), lengths, batch_first=True, enforce_sorted=False)
            error = None
        except RuntimeError as e:
            error = str(e)
        kept = [t for t in texts if len(t) > 0]
        pack_padded_sequence(pad_sequence(kept, batch_first=True).unsqueeze(-1).float(),
                             torch.tensor([len(t) for t in kept]), batch_first=True, enforce_sorted=False)
        print(json.dumps({"error": error}))
    """)
    (message,) = [m for m in declared("WR-310", "pytorch") if "Length of all samples" in m.text]
    assert out["error"] == message.text
