"""How an option and its values are named on a page of each language.

English pages name them by their machine names (``lake_rule``, ``new_region``), which are
English words. A Polish reader gets the Polish names the spec gives beside the option
(``label_pl`` and ``labels_pl``), with the machine name once in code font for the engine author
who will type it; where a name is repeated (a default, a selector's current value) the Polish
name alone is enough.
"""

from __future__ import annotations

from dominokit.reference import OptionSpec
from dominokit.rulebook.i18n import EN, Lang
from dominokit.rulebook.text import code, md


def option_label(option: OptionSpec, lang: Lang) -> str:
    """The option's name in ``lang`` as plain text (the machine name in English or when the
    spec has no name in ``lang``)."""
    label = getattr(option, f"label_{lang.code}", None) if lang.code != EN.code else None
    return str(label) if label else option.name


def value_label(option: OptionSpec, value: object, lang: Lang) -> str:
    """One value's name in ``lang`` as plain text (its machine text when there is none)."""
    labels = getattr(option, f"labels_{lang.code}", None) if lang.code != EN.code else None
    if labels and value in labels:
        return str(labels[value])
    return str(value).lower() if isinstance(value, bool) else str(value)


def option_words(option: OptionSpec, lang: Lang, link: str = "") -> str:
    """The option in Markdown: its name in ``lang`` (linked to ``link`` if given) and, when
    that is not the machine name, the machine name in code font after it."""
    label = option_label(option, lang)
    if label == option.name:
        return f"[{code(option.name)}]({link})" if link else code(option.name)
    shown = f"[{md(label)}]({link})" if link else md(label)
    return f"{shown} ({code(option.name)})"


def value_words(option: OptionSpec, value: object, lang: Lang, machine: bool = True) -> str:
    """One value in Markdown: its name in ``lang`` and (``machine``) its machine text in code
    font after it; the machine text alone where ``lang`` has no name for it."""
    label = value_label(option, value, lang)
    text = str(value).lower() if isinstance(value, bool) else str(value)
    if label == text:
        return code(text)
    return f"{md(label)} ({code(text)})" if machine else md(label)
