"""Issue 16, point 4: nothing read from a file reaches the terminal as an escape sequence."""
import pytest

from trainwreck.safe_text import control_characters, printable

ESC = "\x1b"


@pytest.mark.parametrize("hostile, shown", [
    (f"{ESC}[2J{ESC}]0;PWNED\aTitle", "Title"),                  # clear screen, retitle window (OSC ended by BEL)
    (f"{ESC}]0;PWNED{ESC}\\Title", "Title"),                      # OSC ended by ST
    (f"{ESC}[31mred{ESC}[0m loss", "red loss"),                   # colour codes
    (f"{ESC}[1;2;3Hmoved", "moved"),                              # cursor position
    ("\x9b2Jeight-bit CSI", "eight-bit CSI"),                    # C1 form of CSI
    (f"{ESC}]8;;https://evil.example{ESC}\\link{ESC}]8;;{ESC}\\", "link"),  # hyperlink
    (f"{ESC}P1$qm{ESC}\\dcs", "dcs"),                             # device control string
    (f"{ESC}(Bcharset", "charset"),                               # designate character set
    (f"{ESC}]0;never ends", ""),                                  # unterminated OSC swallows the rest
    ("over\rwrite", "overwrite"),                                 # carriage return hides what came before
    ("back\bspace\x7f", "backspace"),
    ("bell\a", "bell"),
    ("left\u202eright", "leftright"),                             # bidi override (Trojan Source)
    ("lone escape " + ESC, "lone escape "),
])
def test_printable_removes_sequences_and_controls(hostile, shown):
    assert printable(hostile) == shown


def test_printable_keeps_plain_text_newlines_and_tabs():
    text = "WR-220: loss → nan\n\tπ ≈ 3.14 — ok"
    assert printable(text) == text


def test_printable_keep_is_the_callers_choice():
    assert printable("a\nb\tc", keep="") == "abc"
    assert printable("a\rb", keep="\r") == "a\rb"


def test_control_characters_names_each_once_in_order():
    assert control_characters(f"{ESC}[2J{ESC}]0;x\a") == ["U+001B", "U+0007"]
    assert control_characters("tab\there", allowed="\t") == []
    assert control_characters("clean text") == []
