"""The RuntimeWarnings a call raises, as NumPy words them: what a snippet's reader sees on the terminal."""
import warnings


def recorded(fn, *args, **kwargs):
    """Run fn, returning its result and the texts of the RuntimeWarnings it raised, in order (every one,
    not once per line as the default filter shows them)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, [str(w.message) for w in caught if w.category is RuntimeWarning]
