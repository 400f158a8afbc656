"""A count and its noun in plain English, for sentences a report prints ("1 value", "4 times")."""


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, plural unless n is 1 (its -s plural, or the one given: "entries")."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
