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


def sequential_layers(text: str, at: int, reach: int = 4000) -> list[str]:
    """The layers of a Sequential whose bracket opens at `at`, as written and stripped, across lines: its arguments
    (PyTorch's `nn.Sequential(a, b)`), or the items of the one list it is handed (Keras's `Sequential([a, b])`); [] where
    the bracket does not close within `reach`."""
    layers = arguments(text, at, reach=reach, across_lines=True) or []
    if len(layers) == 1 and layers[0].strip().startswith("["):
        layers = arguments(layers[0].strip(), 0, reach=reach, across_lines=True) or []
    return [layer.strip() for layer in layers if layer.strip()]
