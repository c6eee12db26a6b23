"""Every sentence the program refuses something with, found in its source: what ``raise SomeError("…")``,
``fail("…")``, ``echo_err("…")``, ``say("…")`` and a refusal function's ``return "…"`` say to the croupier.

:func:`refusals` walks the syntax trees of ``dealer_assist`` (not ``synth``: the developers' scene generator)
and gives each such sentence as a :class:`Refusal`: where it is, and :meth:`Refusal.samples`, the sentence
with every ``{…}`` of its f-string a hole. A sentence built from branches (``hint = f"; … {p.parent}" if … else ""``, ``"a" if x else "b"``,
a local variable holding an f-string) gives one group of samples per branch, so each branch is checked.
Each version is a :meth:`Refusal.shapes` text, a :data:`HOLE` where a value goes; :func:`known_shape` says whether
a pattern of the sentence table (:data:`~dealer_assist.i18n_phrases.PHRASES`) takes it with every hole inside one
of its named groups (the values the pattern copies or says in turn) -- then :func:`~dealer_assist.i18n.say` says
the sentence in Russian whatever the values. Used by ``test_sentence_table.py``.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

PACKAGE = Path(__file__).resolve().parents[1] / "dealer_assist"

#: The exceptions whose message reaches the croupier as the one sentence of a refusal (``Error: …``).
USER_ERRORS = {"InputError", "HandError", "BettingError", "CalibrationError", "ImageError", "CameraError",
               "HistoryError", "LiveSetupError", "QuickFormError", "HandsFileError", "JsonInputError",
               "TimeRangeError", "ServeError", "ClubError", "DebugCopyError", "BadParameter", "OutputError"}
#: Modules whose plain ``ValueError``s are the croupier's refusals (a command typed at the table, a bad
#: log line, an option's value), not a programmer's mistake.
VALUE_ERROR_MODULES = {"live/commands.py", "live/table_state.py", "live/log_record.py", "cli/options.py",
                       "ledger.py", "calibration/schema.py", "club/records.py", "capture.py", "fileio.py"}
#: Calls whose first argument (or, for these, the one named) is a sentence shown as it is or through say().
SENTENCE_CALLS = {"fail": 0, "echo_err": 0, "say": 0, "error_text": 0}
#: Lists of sentences a command says at its end (``outcome.notices.append("…")``): each item is a sentence.
SAID_LISTS = {"notices", "errors", "_skipped", "waiting", "problems"}
#: Functions that return (or collect) the sentence of a refusal or a warning, its caller raising, failing or
#: warning with it (a hand log's line that is no record, names that look alike).
REFUSAL_FUNCTIONS = {"check_output_path", "folder_refusal", "_log_problem", "why_not", "record_from_line",
                     "name_warnings"}
#: Where a message's argument is not its first: (the exception, the index of the sentence).
ARGUMENT = {"QuickFormError": 1, "JsonInputError": 1}

#: What stands for a value the source does not fix (a path, a number, a name): a character no sentence has.
HOLE = "\x00"


@dataclass
class Refusal:
    """A refusal's sentence in the source: ``where`` (path:line), its ``parts`` as text pieces and holes."""

    where: str
    parts: list = field(default_factory=list)  # str | list[list] (branches, each a parts list) | None (a hole)

    def branches(self) -> Iterator[list]:
        """The sentence's versions, one per choice of branch, each a list of text pieces and holes (None)."""
        yield from _expand(self.parts)

    def shapes(self) -> Iterator[str]:
        """Each branch as text with :data:`HOLE` for each ``{…}`` whose value is not known here."""
        for branch in self.branches():
            yield "".join(HOLE if p is None else p for p in branch)


def _expand(parts: list) -> Iterator[list]:
    choices = []
    for part in parts:
        if isinstance(part, tuple):  # branches
            choices.append([b for branch in part for b in _expand(branch)])
        else:
            choices.append([[part]])
    for combo in itertools.product(*choices):
        yield [p for piece in combo for p in piece]


class _Reader:
    def __init__(self, text: str, rel: str) -> None:
        self.tree = ast.parse(text)
        self.found: list[Refusal] = []
        self.rel = rel

    def locals_of(self, func: ast.AST | None) -> dict[str, list[ast.expr]]:
        """The values each local name of ``func`` is assigned (for a name inside an f-string)."""
        out: dict[str, list[ast.expr]] = {}
        for node in ast.walk(func) if func is not None else ():
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                out.setdefault(node.targets[0].id, []).append(node.value)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                out.setdefault(node.target.id, []).append(None)  # built up: unknown
        return out

    def parts(self, node: ast.expr, names: dict, depth: int = 0):
        """``node`` as text pieces, holes (None) and branches (tuples of parts lists); None: not a text."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return [node.value]
        if isinstance(node, ast.JoinedStr):
            out: list = []
            for value in node.values:
                if isinstance(value, ast.Constant):
                    out.append(value.value)
                else:
                    out.extend(self.hole(value, names, depth))
            return out
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            left, right = self.parts(node.left, names, depth), self.parts(node.right, names, depth)
            if left is not None and right is not None:
                return left + right
        if isinstance(node, ast.Name) and depth < 3 and names.get(node.id) and None not in names[node.id]:
            options = [self.parts(v, names, depth + 1) for v in names[node.id]]  # a local holding the sentence
            if all(o is not None for o in options):
                return [tuple(options)]
        if isinstance(node, ast.Call) and _name(node.func) == "safe_text" and node.args:  # shown as text: the same
            return self.parts(node.args[0], names, depth)
        if isinstance(node, ast.IfExp):
            a, b = self.parts(node.body, names, depth), self.parts(node.orelse, names, depth)
            if a is not None and b is not None:
                return [(a, b)]
        return None

    def hole(self, value: ast.FormattedValue, names: dict, depth: int):
        expr = value.value
        if value.conversion == ord("r"):  # a repr: the value in quotes (a str's, as the sentences show them)
            return ["'", None, "'"]
        if value.conversion == -1 and value.format_spec is None and depth < 3:
            if isinstance(expr, ast.IfExp):
                branches = self.parts(expr, names, depth + 1)
                if branches is not None:
                    return branches
            if isinstance(expr, ast.Name) and expr.id in names and all(v is not None for v in names[expr.id]):
                options = [self.parts(v, names, depth + 1) for v in names[expr.id]]
                if options and all(o is not None for o in options):
                    return [tuple(options)]
        return [None]

    def message(self, node: ast.expr, func, line: int) -> None:
        parts = self.parts(node, self.locals_of(func))
        if parts is None:
            return
        refusal = Refusal(f"{self.rel}:{line}", parts)
        if any(any(c.isalpha() for c in shape) for shape in refusal.shapes()):  # words, not a value alone
            self.found.append(refusal)

    def walk(self) -> list[Refusal]:
        funcs = [n for n in ast.walk(self.tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]

        def owner(node):
            best = None
            for f in funcs:
                if f.lineno <= node.lineno <= (f.end_lineno or f.lineno) and (best is None or f.lineno > best.lineno):
                    best = f
            return best

        for node in ast.walk(self.tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                name = _name(node.exc.func)
                if name in USER_ERRORS or (name == "ValueError" and self.rel in VALUE_ERROR_MODULES):
                    index = ARGUMENT.get(name, 0)
                    if len(node.exc.args) > index:
                        self.message(node.exc.args[index], owner(node), node.lineno)
            elif isinstance(node, ast.Call) and _name(node.func) in SENTENCE_CALLS and node.args:
                self.message(node.args[SENTENCE_CALLS[_name(node.func)]], owner(node), node.lineno)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
                  and _name(node.func.value) in SAID_LISTS and node.args):
                self.message(node.args[0], owner(node), node.lineno)
            elif isinstance(node, ast.Return) and node.value is not None:
                func = owner(node)
                if func is not None and func.name in REFUSAL_FUNCTIONS:
                    values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
                    for value in values:  # (record, warning): the warning
                        self.message(value, func, node.lineno)
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "append"
                    and node.args and (owner(node) is not None and owner(node).name in REFUSAL_FUNCTIONS)
                    and _name(node.func.value) not in SAID_LISTS):
                self.message(node.args[0], owner(node), node.lineno)
        return self.found


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def refusals() -> list[Refusal]:
    """Every refusal sentence of the package (see the module's text), in file and line order."""
    out: list[Refusal] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "synth" in path.relative_to(PACKAGE).parts:
            continue
        out.extend(refusals_in(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix()))
    return out


def refusals_in(text: str, rel: str) -> list[Refusal]:
    """The refusals of one module's source ``text`` (``rel``: its path in the package, e.g. ``"ledger.py"``)."""
    return _Reader(text, rel).walk()


def _holey(pattern: str) -> str:
    """``pattern`` with each named group also taking text holding :data:`HOLE` (a value not known here)."""
    out = [""]
    stack: list[int] = []  # for each open group: whether it is named
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            out[-1] += pattern[i:i + 2]
            i += 2
            continue
        if c == "[":  # a character class, copied as it is
            j = i + 1
            if j < len(pattern) and pattern[j] == "^":
                j += 1
            if j < len(pattern) and pattern[j] == "]":
                j += 1
            while pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            out[-1] += pattern[i:j + 1]
            i = j + 1
            continue
        if c == "(":
            named = pattern.startswith("(?P<", i)
            if named:
                end = pattern.index(">", i)
                out[-1] += pattern[i:end + 1]
                out.append("")
                i = end + 1
            else:
                out[-1] += c
                i += 1
            stack.append(named)
            continue
        if c == ")":
            if stack.pop():
                inner = _digits_or_hole(out.pop())
                out[-1] += f"(?:{inner}|(?:(?:{inner})?\x00)+(?:{inner})?))"
            else:
                out[-1] += c
            i += 1
            continue
        out[-1] += c
        i += 1
    assert len(out) == 1 and not stack, pattern
    return out[0]


def _digits_or_hole(inner: str) -> str:
    """A named group's pattern with each ``\\d`` also taking :data:`HOLE` (``players\\[\\d+\\]`` takes
    ``players[{i}]``: the group copies the number, whatever it is)."""
    out, i, in_class = "", 0, False
    while i < len(inner):
        c = inner[i]
        if c == "\\":
            pair = inner[i:i + 2]
            out += (pair + "\\x00" if in_class else "[\\d\\x00]") if pair == "\\d" else pair
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        out += c
        i += 1
    return out


_HOLEY: list = []


def known_shape(shape: str) -> bool:
    """Whether a pattern of :data:`~dealer_assist.i18n_phrases.PHRASES` takes ``shape`` (a :meth:`Refusal.shapes`
    text) with its holes inside named groups, and what its ``say*`` groups take (said in turn) is known too
    (a hole alone, or a shape known in the same way)."""
    if not shape.replace(HOLE, "").strip(" .,;:()"):  # nothing but values (and punctuation): copied as they are
        return True
    m = _first_match(shape)
    return m is not None and all(known_shape(value or "") for name, value in m.groupdict().items()
                                 if name.startswith("say"))


def _first_match(shape: str):
    import re

    from dealer_assist.i18n_phrases import PHRASES

    if not _HOLEY:
        _HOLEY.extend(re.compile(_holey(pattern), re.S) for pattern, _ in PHRASES)
    for pattern in _HOLEY:  # the first that takes it, as say() takes the first
        m = pattern.fullmatch(shape)
        if m:
            return m
    return None


def copied_english(shape: str) -> list[str]:
    """English words of ``shape`` that the pattern taking it copies into the Russian as they are (a group not
    said in turn holding words of the sentence, not only its values): ``dealer '{}' is not one of the players.``
    taken by a pattern meant for a value list copies "the players". Names, options, quoted and `typed` text,
    and the program's name are not words here; a pair of English words is."""
    import re

    m = _first_match(shape)
    if m is None:
        return []
    found = []
    for name, value in m.groupdict().items():
        if name.startswith("say") or not value:
            continue
        rest = re.sub(r"\x00|--[\w-]+|'[^']*'|\"[^\"]*\"|`[^`]*`|dealer-assist \w+", " ", value)
        found += re.findall(r"\b[a-z]{2,} [a-z]{2,}\b", rest)
    return found
