"""The arguments of a call as a paste writes it: what the bracket that opens at one place holds, to the bracket that
closes it, split at its own commas (not those of a call or a list inside it)."""
from __future__ import annotations

OPENS, CLOSES = "([{", ")]}"


def arguments(text: str, at: int, reach: int = 400, across_lines: bool = False) -> list[str] | None:
    """The top-level arguments of the bracket that opens at `at` (as written, spaces kept), within `reach` characters
    and, unless `across_lines`, on its line; or None where it does not close there (or `at` opens no bracket)."""
    if at >= len(text) or text[at] not in OPENS:
        return None
    depth, args, start = 0, [], at + 1
    for i in range(at, min(len(text), at + reach)):
        c = text[i]
        if c == "\n" and not across_lines:
            return None
        if c in OPENS:
            depth += 1
        elif c in CLOSES:
            depth -= 1
            if depth == 0:
                return args + [text[start:i]]
        elif c == "," and depth == 1:
            args.append(text[start:i])
            start = i + 1
    return None
