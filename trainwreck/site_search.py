"""How the site's search ranks the entries for a pasted message, and the settings that make it so.

Read in Material 9.7's source (material/plugins/search/plugin.py builds the index; the search worker
in templates/assets/javascripts/workers/ scores it with lunr 2.3):

- The index holds one document per section of a page: title = the heading, text = what follows it.
  The page's first section stands for the page itself.
- A query is cut into words at whitespace (quotes make words required, a leading `-` excludes one, a
  word directly followed by `:` is taken for a field name and dropped), then at the search plugin's
  `separator`, and every word becomes a prefix: "exp" matches "exp", "expected" and "exploding".
- A section scores, for every indexed word that one of the query's words starts, its weight: field
  boost (title 1000, text 1) x rarity (lunr's idf) x the page's `search.boost`. The sum is multiplied
  by 1 + s**2, where s is the share of the query's words the section matched (by 1 + (1 + s)**2
  instead for the page's first section). Results are grouped by page, in the order of each page's
  best section; equal scores keep the order of the index (the hook generates entry pages in ID order).

Material sees which words match, never a phrase, so the rule is built on whole matches:

1. Every declared message is the title of a section of its own (pages.message_headings). Searching
   its text matches every word of that title: x2 for the section.
2. Short function words ("in", "by", "of") and one-character words are separators, so they are
   neither indexed nor searched. As prefixes they match far more than themselves ("in" matches
   "invalid", "inf", "increasing"): a section of another message, missing a word of the query, would
   collect more than the whole match does.
3. An entry page's first section carries only the entry's ID (pages.search_card_heading; its title is
   on the result card, between two UNINDEXED marks that the separator skips). A page title sharing
   words with a message ("Float overflow: exp returns inf" and "overflow encountered in cast") would
   otherwise take the page's x5 for half of the words and outrank the entries that print it.
4. ENTRY_SEARCH_BOOST is above 5/2: an entry's section that matches the whole message (x2) outranks
   any other page's first section (x5 at most) that holds the same words.
5. The main message's section also holds its text in the text field (pages.message_headings): the
   sections of one message tie on their titles, and the text (weight 1 against 1000) ranks the
   entries that print it first above those that print it too, in ID order among themselves; too
   small to reorder anything else.

6. The build mends one flaw of the worker's lunr (unambiguous_token_keys): the keys it merges its dictionary's states
   by run a number's digits together, and a number the site holds ("65536") could drop out of it.

What words alone cannot settle: a section holding every word of the message, each as a word or as
the start of one (a longer message that contains it), ties with or outranks the entries that declare
it. tests/test_search_ranking.py checks every declared message of the catalogue on the built site.
"""
from __future__ import annotations

import re
from pathlib import Path
from . import lazy_regex

# Text between two of these is shown on a result card but not indexed (the separator swallows it).
UNINDEXED = "\u2063"
ENTRY_SEARCH_BOOST = 3
# Words that tell no message from another, and that as prefixes match many that do.
FUNCTION_WORDS = (
    "a an and are as at be been but by can cannot do does for from has have if in into is it its "
    "no nor not of on or so such than that the their then there these this to was were which will with"
).split()
# Cut between words as Material cuts a query: at spaces and hyphens, at punctuation, except that
# punctuation right after the second part of a hyphenated word stays on it (Material hands lunr
# "non-finite," as "non" and "finite,"; "(non-finite" reaches it as "(non", which nothing can match).
_PUNCTUATION = r"""[.,:;!?'"`()\[\]{}<>=/\\|#*+~^\u2018-\u201f\u2026\u2013\u2014\u00b7]"""


def _any_case(word: str) -> str:
    # The separator is compiled without flags, and index words are lowercased only after the cut.
    return "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in word)


def separator() -> str:
    """The search plugin's `separator`: a JavaScript regular expression (no flags)."""
    skipped = "|".join(map(_any_case, FUNCTION_WORDS))
    return "|".join([
        r"[\s\-]+",
        rf"(?<!-[^\s\-]*){_PUNCTUATION}+",
        r"&(?:lt|gt|amp);",                       # the index holds text HTML-escaped
        r"&(?!(?:lt|gt|amp);)",                   # a query's raw "&", as in "a && b", cut like "&amp;"
        f"{UNINDEXED}[^{UNINDEXED}]*{UNINDEXED}",
        rf"\b(?:{skipped}|\w)\b",
    ])


# lunr 2.3, bundled in Material's search worker, builds its dictionary of indexed words as an automaton and merges
# states whose keys are equal (TokenSet.prototype.toString: the final flag, then each edge's character followed by its
# target's numeric id). Along the edges of numbers the characters are digits too, so two different states can get
# one key -- "0" + "1" + "234" and "0" + "1" + "2" + "3" + "4" -- and be merged: a word such as "65536" then drops out
# of the dictionary, and searching for it finds nothing, depending on which other numbers the site holds (adding
# "0.0042" to a page did it). A comma after each id ends it: every edge's character is exactly one, so the key reads
# back one way, whatever the characters are (a comma or a digit among them).
WORKER_GLOB = "assets/javascripts/workers/search.*.min.js"
_TOKEN_SET_KEY = lazy_regex.compile(r'(TokenSet\.prototype\.toString=function\(\)\{if\(this\._str\)return this\._str;'
                                    r'for\(var (\w)=this\.final\?"1":"0",[^{}]{0,200}\{[^{}]{0,120}?\2=\2\+(\w)\+(\w)\.id)(\})')


_MENDED = lazy_regex.compile(r'TokenSet\.prototype\.toString=function\(\)\{[^{}]{0,200}\{[^{}]{0,120}?\.id\+","\}')


def unambiguous_token_keys(worker_js: str) -> str:
    """The worker's code with a comma after each id in TokenSet's keys (as it is, where that is done already: a dirty
    build keeps the mended file); ValueError if its toString is not the one this mends."""
    if _MENDED.search(worker_js):
        return worker_js
    mended, count = _TOKEN_SET_KEY.subn(r'\1+","\5', worker_js)
    if count != 1:
        raise ValueError(f"expected lunr's TokenSet.prototype.toString once, found it {count} times: look at "
                         "trainwreck/site_search._TOKEN_SET_KEY against this Material's worker")
    return mended


def shipped_search_worker() -> tuple[Path, Path]:
    """(the installed Material's templates folder, its search worker there, as it ships); ValueError where there is
    not exactly one."""
    import material

    templates = Path(material.__file__).parent / "templates"
    shipped = sorted(templates.glob(WORKER_GLOB))
    if len(shipped) != 1:
        raise ValueError(f"mkdocs-material {_material_version()}: expected one search worker, found {len(shipped)}")
    return templates, shipped[0]


def mend_search_worker(site_dir: Path) -> Path:
    """Mend the built site's search worker in place (unambiguous_token_keys): the one the installed Material ships,
    by its name; the file mended."""
    templates, shipped = shipped_search_worker()
    worker = site_dir / shipped.relative_to(templates)
    try:
        worker.write_text(unambiguous_token_keys(worker.read_text(encoding="utf-8")), encoding="utf-8")
    except ValueError as exc:
        raise ValueError(f"{worker} (mkdocs-material {_material_version()}): {exc}") from None
    return worker


def _material_version() -> str:
    from importlib.metadata import version

    return version("mkdocs-material")
