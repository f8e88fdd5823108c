"""Issue 18: every public declaration of the portable SDK targets (ParleyKit, ParleyUI,
ParleyWireCore) carries a `///` doc comment, protocol witnesses included, so DocC and Xcode's
Quick Help have something to show for each."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGETS = ["ParleyKit", "ParleyUI", "ParleyWireCore"]
PUBLIC = re.compile(r"\s*(?:@\w+(?:\([^)]*\))?\s+)*public\s+(?!extension\b)")


def undocumented(path):
    """(line number, line) of each public declaration not preceded by a `///` line (attributes
    and compiler directives between them allowed)."""
    found, previous = [], []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if PUBLIC.match(line):
            before = next((p for p in reversed(previous) if not p.startswith(("@", "#"))), "")
            if not before.startswith("///"):
                found.append((number, line.strip()))
        previous.append(line.strip())
    return found


def test_every_public_declaration_of_the_portable_targets_is_documented():
    missing = []
    for target in TARGETS:
        for path in sorted((ROOT / "Sources" / target).rglob("*.swift")):
            missing += [f"{path.relative_to(ROOT)}:{n}: {line}" for n, line in undocumented(path)]
    assert missing == [], "undocumented public declarations:\n" + "\n".join(missing)


def test_the_scanner_finds_an_undocumented_declaration(tmp_path):
    sample = tmp_path / "Sample.swift"
    sample.write_text("/// Documented.\n@MainActor\npublic final class A {}\n\npublic func b() {}\n"
                      "/// Documented.\n#if os(Linux)\npublic let c = 1\n#endif\npublic extension A {}\n")
    assert undocumented(sample) == [(5, "public func b() {}")]
