"""Where each entry's pictures live on the site."""


def figure_path(entry_id: str, theme: str) -> str:
    return f"figures/{entry_id}-{theme}.svg"
