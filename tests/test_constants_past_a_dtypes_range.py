"""A Python number past a tensor's dtype, handed to the tensor: PyTorch refuses to convert it. Into float16 (a -1e9 mask
constant written for float32) the message is WR-040's, with the fix that reads the constant from the dtype; into
float32 (an exp taken in Python's float64) it is WR-020's."""
from conftest import diagnosis

TRACEBACK = ("Added autocast + GradScaler to my hand-written transformer and now the first batch dies:\n\n"
             "Traceback (most recent call last):\n"
             '  File "train.py", line 88, in <module>\n    out = model(src, tgt, src_mask, tgt_mask)\n'
             '  File "model.py", line 41, in attention\n    scores = scores.masked_fill(mask == 0, -1e9)\n'
             "RuntimeError: value cannot be converted to type at::Half without overflow\n")


def test_the_conversion_refused_names_half_precision_and_its_constants_fix():
    d = diagnosis(TRACEBACK)
    first = d.matches[0]
    assert first.entry.id == "WR-040"
    assert any('message "value cannot be converted to type at::Half without overflow"' in e for e in first.evidence)
    from trainwreck.diagnose_report import report
    assert "first step of the fix: Constants written for float32:" in report(d)
    assert diagnosis(TRACEBACK.replace("at::Half", "c10::Half")).matches[0].entry.id == "WR-040"
    # (the same refusal for an integer type, a uint8 image filled with 300, is no float16 overflow: not the message)
    uint8 = diagnosis(TRACEBACK.replace("at::Half", "uint8_t"))
    assert not any("without overflow" in e for m in uint8.matches for e in m.evidence)


def test_the_conversion_refused_into_float32_names_the_float_overflow():
    """PyTorch 2.13's form, and a form that prints the value after it: both are the declared message."""
    exp = ("My NT-Xent at a low temperature dies right away:\n"
           '  File "loss.py", line 12, in nt_xent\n    denom = sim.masked_fill(eye, math.exp(1 / t))\n')
    for line in ("RuntimeError: value cannot be converted to type float without overflow\n",
                 "RuntimeError: value cannot be converted to type float without overflow: 2.68812e+43\n"):
        d = diagnosis(exp + line)
        assert d.matches[0].entry.id == "WR-020", line
        assert any('message "value cannot be converted to type float without overflow' in e
                   for e in d.matches[0].evidence)
