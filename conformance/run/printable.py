"""Text from an engine, made safe to show: on a terminal, in a log, in XML.

An engine's stderr and its error messages are the engine's own bytes. Printed raw, an escape
sequence in them would drive the user's terminal (colours, a new title, a cleared screen, a
bell) and a control character would make a JUnit report not well-formed XML, so a CI
dashboard would drop the whole run. Everything the kit shows of an engine goes through
``printable`` (terminal, logs) or ``xml_safe`` (XML), which write such a character as its
Python escape (``\\x1b``), so the author still sees what the engine printed.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["printable", "xml_safe"]

_CONTROL: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
"""C0 and C1 controls but newline and tab, DEL, lone surrogates, and the two non-characters
XML refuses; carriage return is among them (it would redraw the line it is in)."""

_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""What XML 1.0 cannot hold at all (``Char`` in the XML spec): most C0 controls, surrogates,
U+FFFE and U+FFFF."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every control character but newline and tab written as its escape."""
    return _CONTROL.sub(_escape, text)


def xml_safe(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold written as its escape, and the
    controls a terminal would obey too (a report is read in terminals as well)."""
    return printable(_NOT_XML.sub(_escape, text))
