"""strict_yaml reads with libyaml's C parser where it is installed, and with PyYAML's own parser otherwise or
when the C parser refuses a text: either way a refusal names the file line and the fault."""
import pytest

from trainwreck import strict_yaml

GOOD = "id: WR-999\nrelated:\n  - {id: WR-120, nature: cousin}\n"
BAD = "id: WR-999\ntitle: [unclosed\nstatus: stable\n"


@pytest.mark.parametrize("fast", [True, False], ids=["libyaml", "pure-python"])
def test_either_parser_reads_the_same_and_refuses_with_the_line(fast, monkeypatch):
    if not fast:
        monkeypatch.setattr(strict_yaml, "_FastLoader", strict_yaml._Loader)
    strict_yaml._load.cache_clear()
    data, lines = strict_yaml.load(GOOD, first_line=2)
    assert data == {"id": "WR-999", "related": [{"id": "WR-120", "nature": "cousin"}]}
    assert lines["related[0].id"] == 4
    with pytest.raises(strict_yaml.YamlRefused) as refused:
        strict_yaml.load(BAD, first_line=2)
    # the unclosed list runs on into the next line, where the parser meets the colon: file line 4
    assert str(refused.value) == "not valid YAML: expected ',' or ']', but got ':' (column 7)" and refused.value.line == 4
    strict_yaml._load.cache_clear()
