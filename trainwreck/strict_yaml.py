"""YAML for the catalogue: the safe subset a contributor needs, and nothing that can blow up.

Front matter, modules.yml and planned.yml are small hand-written mappings. The
loader refuses what they never need and an attacker would use: anchors and
aliases (nine levels of aliases expand a 5 KB file into gigabytes), merge keys,
nesting deeper than MAX_DEPTH (PyYAML composes recursively), and a key given
twice (the second silently wins). It also records the line of every field, so
a problem found later can name it.
"""
from __future__ import annotations

import copy
import functools

import yaml
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

from .safe_text import CONTROL, shown

# symptoms.messages[0].text is four levels deep; twenty leaves room and stays far from Python's recursion limit.
MAX_DEPTH = 20
MERGE_TAG = "tag:yaml.org,2002:merge"


class YamlRefused(Exception):
    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.message, self.line = message, line


class _Checks:
    """The composer's and the constructor's checks, for either parser."""

    def refused(self, message: str, mark) -> YamlRefused:
        return YamlRefused(message, mark.line + self.first_line if mark is not None else None)

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise self.refused(f"alias *{shown(event.anchor, 20, quote=False)} is not allowed: write the value out",
                           event.start_mark)
        if getattr(event, "anchor", None) is not None:
            raise self.refused(f"anchor &{shown(event.anchor, 20, quote=False)} is not allowed: write each value out "
                           "where it is used", event.start_mark)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise self.refused(f"nested more than {MAX_DEPTH} levels deep", event.start_mark)
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            if key_node.tag == MERGE_TAG:
                raise self.refused("the merge key << is not allowed: write the fields out", key_node.start_mark)
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:
                raise self.refused("a key must be text, not a list or a mapping", key_node.start_mark) from None
            if first is not None:
                raise self.refused(f"key {shown(key)} appears twice (first on line {first + self.first_line}): "
                               "the second would silently replace the first", key_node.start_mark)
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


class _Loader(_Checks, yaml.SafeLoader):
    """PyYAML's own parser, in Python: its messages name the character at fault."""

    def __init__(self, stream, first_line: int):
        yaml.SafeLoader.__init__(self, stream)
        self._depth, self.first_line = 0, first_line


if getattr(yaml, "__with_libyaml__", False):
    class _FastLoader(_Checks, yaml.composer.Composer, yaml.cyaml.CParser, yaml.constructor.SafeConstructor,
                      yaml.resolver.Resolver):
        """libyaml's parser (C) makes the events and PyYAML's composer (Python, with the checks) the nodes: the
        composer comes before the C parser among the bases, so its compose_node is the one called. Six times
        faster than _Loader; a text it refuses is read again by _Loader, whose message says more."""

        def __init__(self, stream, first_line: int):
            yaml.cyaml.CParser.__init__(self, stream)
            yaml.composer.Composer.__init__(self)
            yaml.constructor.SafeConstructor.__init__(self)
            yaml.resolver.Resolver.__init__(self)
            self._depth, self.first_line = 0, first_line
else:
    _FastLoader = _Loader


def load(text: str, first_line: int = 1) -> tuple[object, dict[str, int]]:
    """The data in `text` and the file line of each field ("related[0].id" -> 12).

    `first_line` is the file line that `text` starts on (2 for front matter after
    its opening ---), so every line number given is a line of the file.
    Raises YamlRefused with the file line of the problem."""
    data, lines = _load(text, first_line)
    return copy.deepcopy(data), dict(lines)      # the caller's own copy: the cached one must not change


# Parsing is most of loading a catalogue, and `mkdocs serve` reloads every unchanged file on each
# rebuild. Only successes are kept: a refusal is raised again each time.
@functools.lru_cache(maxsize=1024)
def _load(text: str, first_line: int) -> tuple[object, dict[str, int]]:
    control = CONTROL.search(text.replace("\n", " ").replace("\t", " "))
    if control:
        # PyYAML would refuse most of these too, but without saying where in the file
        raise YamlRefused(f"contains the control character U+{ord(control[0]):04X}: catalogue fields are one line "
                          "of plain text (no escape sequences or invisible characters)",
                          text.count("\n", 0, control.start()) + first_line)
    try:
        node, data = _parse(_FastLoader, text, first_line)
    except yaml.YAMLError:                # read again by PyYAML's own parser, whose words name the character at fault
        try:
            if _FastLoader is _Loader:
                raise
            node, data = _parse(_Loader, text, first_line)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            line = mark.line + first_line if mark is not None else None
            column = f" (column {mark.column + 1})" if mark is not None else ""
            raise YamlRefused(f"not valid YAML: {shown(exc.problem or exc.context, 120, quote=False)}{column}",
                              line) from None
        except yaml.YAMLError as exc:
            raise YamlRefused(f"not valid YAML: {shown(str(exc), 120, quote=False)}", None) from None
    lines: dict[str, int] = {}
    if node is not None:
        _field_lines(node, "", lines, first_line - 1)
    return data, lines


def _parse(loader_class, text: str, first_line: int):
    loader = loader_class(text, first_line)
    try:
        node = loader.get_single_node()
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def _field_lines(node, path: str, out: dict[str, int], offset: int) -> None:
    # The composer has already refused anything deeper than MAX_DEPTH, so this recursion is bounded.
    if isinstance(node, MappingNode):
        for key, value in node.value:
            name = key.value if isinstance(key, ScalarNode) else "?"
            here = f"{path}.{name}" if path else name
            out.setdefault(here, key.start_mark.line + 1 + offset)
            _field_lines(value, here, out, offset)
    elif isinstance(node, SequenceNode):
        for i, item in enumerate(node.value):
            here = f"{path}[{i}]"
            out[here] = item.start_mark.line + 1 + offset
            _field_lines(item, here, out, offset)
