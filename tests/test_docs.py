"""The project cites its own rules document, docs/rules.md, and only by sections that exist;
its Markdown links and the repository files its documents name lead somewhere inside it.

The rule texts ts358 was written from are not part of the project, so no file may name them
(RULES.md, the source files ``000_<hex>.txt`` ...); every ``docs/rules.md#anchor`` (in docs/,
also ``rules.md#anchor`` and ``#anchor`` links) must be a heading of docs/rules.md. A link of
a Markdown file is a web address (http, https) or a file of the repository that exists, and
its ``#anchor`` a heading of that file; a path in backquotes (```docs/play.md```,
```bench/results/...```) names a file that exists. The documents for users cite no issue or
session of the project's development, which a reader can't look up (docs/solver.md, the
solver's log for those who change it, does).
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
TEXT_SUFFIXES = {".py", ".pyx", ".pxi", ".pxd", ".pyi", ".md", ".rst", ".txt", ".toml", ".sh"}

FORBIDDEN = [
    (re.compile(r"RULES\.md"), "RULES.md"),
    (re.compile(r"(?<![\w])00[0-4]_(?:[0-9a-f]{6,}|\*)"), "a source file name"),
    (re.compile(r"\bseeds? 00[0-4]\b", re.I), "a source file by number"),
    (re.compile(r"shared/seeds"), "the source directory"),
]

pytestmark = pytest.mark.skipif(
    not (ROOT / "src" / "ts358").is_dir(), reason="not a source checkout (e.g. tests of a wheel)"
)


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to -."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """The anchors of the headings of a Markdown text (outside code blocks); a repeated
    heading gets -1, -2 ... as on GitHub."""
    found: set[str] = set()
    fenced = False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        match = re.match(r"#{1,6}\s+(.+?)\s*#*\s*$", line)
        if match and not fenced:
            base = slug(match.group(1))
            name, n = base, 0
            while name in found:
                n += 1
                name = f"{base}-{n}"
            found.add(name)
    return found


def cited_anchors(text: str, path: Path) -> list[str]:
    """The anchors of docs/rules.md that ``text`` (the contents of ``path``) cites."""
    cited = re.findall(r"docs/rules\.md#([\w-]+)", text)
    if path.parent == ROOT / "docs":
        cited += re.findall(r"\]\(rules\.md#([\w-]+)\)", text)
    if path == RULES:
        cited += re.findall(r"\]\(#([\w-]+)\)", text)
    return cited


def project_files(*tops: str) -> list[Path]:
    files = []
    for top in tops:
        path = ROOT / top
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in candidates:
            parts = file.relative_to(ROOT).parts
            if any(p.endswith(".egg-info") or p in ("__pycache__", "results") for p in parts):
                continue
            if file.is_file() and file.suffix in TEXT_SUFFIXES and file != Path(__file__):
                files.append(file)
    return files


def forbidden_mentions(text: str) -> list[str]:
    """What ``text`` says that users could not look up: the rule sources' names."""
    return [f"{what}: {m.group(0)!r}" for rx, what in FORBIDDEN for m in rx.finditer(text)]


def broken_citations(text: str, path: Path, known: set[str]) -> list[str]:
    return [f"docs/rules.md#{a}" for a in cited_anchors(text, path) if a not in known]


LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REPO_PATH = re.compile(r"`((?:docs|bench|src|tests|tools|\.ci|\.github)/[^`\s]*)`")
WEB = re.compile(r"https?://", re.I)
DEVELOPMENT = re.compile(r"\b(?:issues?|sessions?) \d+\b", re.I)
USER_DOCS = ("README.md", "docs/play.md", "docs/rules.md", "docs/match-record.md", "docs/arena.md")


def prose(markdown: str) -> str:
    """``markdown`` without its fenced code blocks (a link there is an example)."""
    kept, fenced = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            kept.append(line)
    return "\n".join(kept)


def bad_links(text: str, path: Path) -> list[str]:
    """The links of the Markdown ``text`` (the contents of ``path``) that leave the
    repository, lead nowhere or name a section their file doesn't have; and the repository
    paths it names in backquotes that don't exist."""
    problems = []
    body = prose(text)
    for target in LINK.findall(body):
        if WEB.match(target):
            continue
        file_part, _, anchor = target.partition("#")
        if re.match(r"[a-z][a-z0-9+.-]*:", file_part, re.I) or file_part.startswith(("/", "~")):
            problems.append(f"{target}: not a file of the repository")
            continue
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.is_relative_to(ROOT):
            problems.append(f"{target}: outside the repository")
        elif not dest.exists():
            problems.append(f"{target}: no such file")
        elif (
            anchor
            and dest.suffix == ".md"
            and anchor not in anchors(dest.read_text(encoding="utf-8"))
        ):
            problems.append(f"{target}: no such section")
    for named in REPO_PATH.findall(body):
        name = named.split("::")[0].rstrip(".,;:")
        if "<" in name:  # a pattern: bench/results/<name>-<date>.json
            continue
        if not (any(ROOT.glob(name)) if "*" in name else (ROOT / name).exists()):
            problems.append(f"`{named}`: no such file")
    return problems


def markdown_files() -> list[Path]:
    return [
        f
        for f in project_files("README.md", "docs", "bench", "tests", "tools")
        if f.suffix == ".md"
    ]


def test_every_link_stays_in_the_repository_and_leads_somewhere():
    files = markdown_files()
    assert ROOT / "README.md" in files and ROOT / "docs" / "play.md" in files
    problems, count = [], 0
    for file in files:
        text = file.read_text(encoding="utf-8")
        count += len(LINK.findall(prose(text)))
        problems += [f"{file.relative_to(ROOT)}: {p}" for p in bad_links(text, file)]
    assert count > 20
    assert not problems, "\n".join(problems)


def test_the_user_documents_cite_no_development_history():
    problems = []
    for name in USER_DOCS:
        text = (ROOT / name).read_text(encoding="utf-8")
        problems += [f"{name}: {m.group(0)!r}" for m in DEVELOPMENT.finditer(text)]
    assert not problems, "write for users, who can't look these up:\n" + "\n".join(problems)


def test_the_rules_document_exists_with_sections():
    known = anchors(RULES.read_text(encoding="utf-8"))
    for section in ("one-deal", "the-exchange", "playing-the-tricks", "the-match", "glossary"):
        assert section in known


def test_nothing_names_the_rule_sources():
    problems = []
    for file in project_files("src", "docs", "README.md", "tests", "bench"):
        text = file.read_text(encoding="utf-8", errors="replace")
        problems += [f"{file.relative_to(ROOT)}: {p}" for p in forbidden_mentions(text)]
    assert not problems, "cite docs/rules.md instead:\n" + "\n".join(problems)


def test_every_cited_section_of_the_rules_exists():
    known = anchors(RULES.read_text(encoding="utf-8"))
    problems, count = [], 0
    for file in project_files("src", "docs", "README.md", "tests", "bench"):
        text = file.read_text(encoding="utf-8", errors="replace")
        count += len(cited_anchors(text, file))
        problems += [f"{file.relative_to(ROOT)}: {c}" for c in broken_citations(text, file, known)]
    assert count > 0, "nothing cites docs/rules.md by section"
    assert not problems, "no such heading in docs/rules.md:\n" + "\n".join(problems)


def test_the_checks_can_fail():
    known = anchors("# Rules\n## The exchange\n### Who gives: to whom?\n## The exchange\n")
    assert known == {"rules", "the-exchange", "who-gives-to-whom", "the-exchange-1"}
    source = ROOT / "src" / "ts358" / "x.py"
    assert broken_citations("see docs/rules.md#the-exchange.", source, known) == []
    assert broken_citations("(docs/rules.md#the-exchang)", source, known) == [
        "docs/rules.md#the-exchang"
    ]
    assert broken_citations("[x](rules.md#nope)", ROOT / "docs" / "play.md", known)
    assert forbidden_mentions("see RULES.md, One deal") and forbidden_mentions("seed 004's tips")
    assert forbidden_mentions("from `000_*`") and forbidden_mentions("004_7c72c8c3359b7f60.txt")
    assert not forbidden_mentions("Rules(length=3), 3_000_000 nodes, random seed 4, RULESETS")
    readme = ROOT / "README.md"
    assert bad_links("[rules](../shared/rules.md) [b](/etc/passwd) [c](file:///x)", readme) == [
        "../shared/rules.md: outside the repository",
        "/etc/passwd: not a file of the repository",
        "file:///x: not a file of the repository",
    ]
    assert bad_links("[a](docs/nope.md) [b](docs/rules.md#nope) `docs/gone.md`", readme) == [
        "docs/nope.md: no such file",
        "docs/rules.md#nope: no such section",
        "`docs/gone.md`: no such file",
    ]
    fine = (
        "[a](docs/rules.md#the-exchange) [b](https://distributed.dask.org) `src/_solver_*.pxi`"
        " `bench/results/<name>.json` `tests/test_docs.py::test_x` [c](#development)\n"
        "```\n[example](nowhere.md)\n```\n## Development"
    )
    assert bad_links(fine, readme) == []
    assert DEVELOPMENT.search("since issue 19") and not DEVELOPMENT.search("the session ends")
