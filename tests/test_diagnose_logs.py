"""Logs as real tools print them, one folder per dialect (tests/logs/<dialect module>/), each
sample with the verdict, the entry and the numbering its diagnosis must show (expected.yml)."""
import pkgutil
from pathlib import Path

import pytest
import yaml

from conftest import real_catalog
import trainwreck.logscan.dialects as dialects
from trainwreck.diagnose import diagnose, message_finder
from trainwreck.logscan import scan_path

CATALOG = real_catalog()
LOGS = Path(__file__).parent / "logs"
MODULES = sorted(m.name for m in pkgutil.iter_modules(dialects.__path__))
SAMPLES = [(folder.name, name, want) for folder in sorted(LOGS.iterdir()) if folder.is_dir()
           for name, want in yaml.safe_load((folder / "expected.yml").read_text()).items()]


def test_every_dialect_has_samples_and_every_sample_a_dialect():
    assert sorted(f.name for f in LOGS.iterdir() if f.is_dir()) == MODULES
    for folder in LOGS.iterdir():
        listed = set(yaml.safe_load((folder / "expected.yml").read_text()))
        assert listed == {p.name for p in folder.iterdir() if p.name != "expected.yml"}, folder.name


@pytest.mark.parametrize("folder, name, want", SAMPLES, ids=[f"{f}/{n}" for f, n, _ in SAMPLES])
def test_sample_log(folder, name, want):
    ev = scan_path(str(LOGS / folder / name), finder=message_finder(CATALOG))
    assert ev.dialect == getattr(dialects, folder).DIALECT.name       # read as the tool that wrote it
    d = diagnose(ev, CATALOG)
    assert d.verdict == want["verdict"], (d.verdict, [m.entry.id for m in d.matches])
    if "first" in want:
        assert d.matches[0].entry.id == want["first"]
        said = " | ".join(d.matches[0].evidence)
    else:
        said = " | ".join(d.signature.facts)
    for phrase in want["says"]:
        assert phrase in said



def test_no_dialects_key_matches_the_empty_text():
    """A key is regex source: fairseq's `| loss`, unescaped, matched the empty string, and an epoch summary
    line crashed the scan (could not convert b'' to float)."""
    import re

    for name in MODULES:
        for key in getattr(dialects, name).DIALECT.keys:
            assert re.compile(key).search(b"") is None, (name, key)


def test_only_a_whole_text_of_one_progress_line_is_read_update_by_update():
    """A single bar's updates run together by carriage returns are its curve (one_epoch_saved_to_file.log); two bars or
    more keep each bar's last value (their updates are one batch's noise each), Windows line ends are line ends, and a
    first block that is not the whole text cannot tell one bar from the first of many."""
    from trainwreck.logscan import scan_text
    from trainwreck.logscan.cleaning import BAR_UPDATES, uses_lone_cr

    bar = "\r".join(f"Epoch 1: {k}/{BAR_UPDATES} loss={2.3 - 0.1 * k:.2f}" for k in range(1, BAR_UPDATES + 1)).encode()
    assert uses_lone_cr(bar + b"\n", whole=True) and uses_lone_cr(b"\r" + bar + b"\r\n", whole=True)
    # a text with other lines keeps its line numbers: a download bar above a log, a traceback below a bar
    assert not uses_lone_cr(b"Training started\n" + bar + b"\nTraceback (most recent call last):\n", whole=True)
    download = b"\r".join(b"%d%%|###| %d/100 [00:01<00:02]" % (k, k) for k in range(100))
    log = b"Downloading cifar-10-python.tar.gz\n" + download + b"\nloss: 2.30\nloss: 1.90\nloss: nan\n"
    assert not uses_lone_cr(log, whole=True)
    assert str(scan_text(log.decode()).first_nonfinite_at) == "line 5"
    assert not uses_lone_cr(bar + b"\n", whole=False)
    assert not uses_lone_cr(bar + b"\n" + bar.replace(b"Epoch 1", b"Epoch 2") + b"\n", whole=True)
    assert not uses_lone_cr(bar.split(b"\r", 1)[1] + b"\n", whole=True)            # one update fewer
    assert not uses_lone_cr(b"epoch 1 loss 0.5\r\nepoch 2 loss 0.4\r\n" * 10, whole=True)
    assert uses_lone_cr(b"epoch 1 loss 0.5\repoch 2 loss 0.4\r", whole=False)      # old Mac line ends, as before


def test_the_pix2pix_line_without_data_is_read_only_beside_a_reconstruction_term():
    """DeblurGAN's line has no `data:` field and prints G_L1; pix2pixHD's, SPADE's and vid2vid's have the same prefix and
    only adversarial and feature terms, which this dialect does not read as a curve (reread_s74 3)."""
    from trainwreck.logscan.dialects import cyclegan
    deblur = b"(epoch: 1, iters: 100, time: 0.214) G_GAN: 1.087 G_L1: 52.914 D_real+fake: 2.611 \n"
    hd = b"(epoch: 1, iters: 100, time: 0.214) G_GAN: 0.731 G_GAN_Feat: 5.112 G_VGG: 7.340 D_real: 0.512 D_fake: 0.488 \n"
    assert cyclegan.DIALECT.detect.search(deblur) and not cyclegan.DIALECT.detect.search(hd)
