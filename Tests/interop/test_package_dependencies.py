"""Package.swift says exactly what the code imports.

For every Swift target of the manifest (`swift package dump-package`), the modules its files
import are compared with the targets and products it declares as dependencies:

- a declared dependency no file of the target imports is an edge the diagram and the build
  carry for nothing (and hides a layering it does not have);
- an imported Parley module the target does not declare builds today only because another
  dependency happens to bring it along, and breaks when that one changes.

Imports inside `#if` branches count (ParleyKit's Linux-only socket transports import ParleyNet
under `#if canImport(ParleyNet)`, declared with a platform condition). Toolchain modules are
not dependencies. Plugins declare their generator tool, which they run rather than import.
C targets (`CSQLiteLogBuffer`) are checked by the compiler's includes, not here.

ARCHITECTURE.md's module list (one line per target: `Name → dependencies`) is compared with
the manifest too, so the page cannot drift from the package."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLCHAIN = {"Swift", "_Concurrency", "Glibc", "Darwin", "Foundation", "FoundationNetworking", "FoundationEssentials",
             "Dispatch", "Synchronization", "Observation", "Testing", "XCTest", "SQLite3", "PackagePlugin"}
IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)", re.M)
DEFAULT_ROOT = {"test": "Tests", "plugin": "Plugins"}


@pytest.fixture(scope="module")
def manifest():
    swift = shutil.which("swift")
    if swift is None:
        pytest.skip("swift is not on PATH")
    result = subprocess.run([swift, "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def declared(target):
    """Names of the targets and products `target` depends on (on any platform)."""
    names = set()
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        names.add(value[0])
    return names


def target_directory(target):
    if target.get("path"):
        return ROOT / target["path"]
    return ROOT / DEFAULT_ROOT.get(target["type"], "Sources") / target["name"]


def imported(files):
    """Module name -> the first file importing it, for modules outside the toolchain."""
    found = {}
    for path in files:
        for module in IMPORT.findall(path.read_text()):
            if module not in TOOLCHAIN:
                found.setdefault(module, path)
    return found


def mismatches(manifest):
    problems = []
    for target in manifest["targets"]:
        if target["type"] == "system":
            continue
        files = sorted(target_directory(target).rglob("*.swift"))
        if not files:
            continue
        uses = imported(files)
        if target["type"] != "plugin":
            for name in sorted(declared(target) - set(uses)):
                problems.append(f"{target['name']} declares {name}, which none of its files imports")
        for name in sorted(set(uses) - declared(target) - {target["name"]}):
            problems.append(f"{uses[name].relative_to(ROOT)} imports {name}, which {target['name']} does not declare")
    return problems


def test_every_target_declares_exactly_what_its_files_import(manifest):
    assert mismatches(manifest) == []


def test_the_checker_sees_an_unused_and_an_undeclared_dependency(tmp_path, monkeypatch):
    monkeypatch.setattr(__import__(__name__), "ROOT", tmp_path)
    (tmp_path / "Sources" / "A").mkdir(parents=True)
    (tmp_path / "Sources" / "A" / "A.swift").write_text(
        "#if canImport(Glibc)\nimport Glibc\n#endif\n@testable import C\npackage import struct D.Value\n")
    fake = {"targets": [{"name": "A", "type": "regular", "path": None,
                         "dependencies": [{"byName": ["B", None]}, {"target": ["D", {"platformNames": ["linux"]}]}]}]}
    assert mismatches(fake) == ["A declares B, which none of its files imports",
                                "Sources/A/A.swift imports C, which A does not declare"]


ARCHITECTURE_LINE = re.compile(r"^(\w+)\s+→\s+(.*)$")


def architecture_graph(text):
    """Target -> {dependency: "Linux" or "" (any platform) or "plugin"} from the module list."""
    graph = {}
    start = text.index("## Modules and which way they depend")
    block = text[text.index("```", start) + 3:]
    block = block[:block.index("```")]
    for line in block.splitlines():
        match = ARCHITECTURE_LINE.match(line.strip())
        if not match:
            continue
        edges = {}
        for item in match.group(2).split(","):
            item = item.strip()
            if item == "(nothing)":
                continue
            if item.startswith("[plugin] "):
                edges[item[len("[plugin] "):]] = "plugin"
            elif item.endswith(" (Linux)"):
                edges[item[:-len(" (Linux)")]] = "Linux"
            else:
                edges[item] = ""
        graph[match.group(1)] = edges
    return graph


def manifest_graph(manifest):
    """The same shape from the manifest, for the targets under Sources/ and Plugins/."""
    graph = {}
    for target in manifest["targets"]:
        if target["type"] in ("system", "test"):
            continue
        if not str(target_directory(target).relative_to(ROOT)).startswith(("Sources", "Plugins")):
            continue
        edges = {}
        for dependency in target["dependencies"]:
            kind, value = next(iter(dependency.items()))
            platforms = ((value[-1] or {}).get("platformNames") or []) if len(value) > 1 else []
            edges[value[0]] = "Linux" if platforms == ["linux"] else ""
        for usage in target.get("pluginUsages") or []:
            edges[usage["plugin"][0]] = "plugin"
        graph[target["name"]] = edges
    return graph


def test_the_architecture_module_list_is_the_manifest(manifest):
    documented = architecture_graph((ROOT / "ARCHITECTURE.md").read_text())
    assert documented == manifest_graph(manifest)


def test_the_architecture_parser_reads_conditions_and_plugins():
    text = ("## Modules and which way they depend\n\n```\nA   → B, C (Linux), [plugin] P\nB   → (nothing)\n```\n"
            "```\nZ → Y\n```\n")
    assert architecture_graph(text) == {"A": {"B": "", "C": "Linux", "P": "plugin"}, "B": {}}
