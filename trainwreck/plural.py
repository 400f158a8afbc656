"""A count and its noun in plain English, for sentences a report prints ("1 value", "4 times")."""


def counted(n: int, noun: str, plural: str | None = None) -> str:
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
