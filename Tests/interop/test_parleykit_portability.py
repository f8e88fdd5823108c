"""Issue 18: ParleyKit and ParleyUI build for iOS and macOS, as near as a Linux machine can tell.

No Apple SDK here, so three checks stand in for an Apple build:

- The package graph (`swift package dump-package`): the targets ParleyKit and ParleyUI reach
  through dependencies that apply on iOS or macOS (no condition, or one naming them) include
  nothing Linux-only or libcrypto-bound (ParleyNet, ParleyWire, CLinux, CCrypto, COpenSSL,
  CZlib, CSQLite, CPostgres, ParleyStore), and the declared platforms are at least those the
  sources' APIs need (Synchronization's Mutex: iOS 18, macOS 15).
- The imports: no source file of a portable target imports a Linux-only module except
  inside `#if canImport(<a Linux-only module>)` or `#if os(Linux)`.
- The compiler: ParleyWireCore, ParleyModel, ParleyText, ParleyKit and ParleyUI are compiled by `swiftc`
  from their sources with none of the Linux-only Parley modules on the search path, so every
  `#if canImport(ParleyNet)` takes the branch Apple platforms take (URLSession transports).
  Apple's `SQLite3` module is stood in for by a module map of the same name over the system's
  sqlite3.h. What it cannot see is the rest of Apple's SDK (Apple's Foundation)."""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PORTABLE = ["ParleyKit", "ParleyUI"]
LINUX_ONLY = {"ParleyNet", "ParleyWire", "ParleyStore", "CLinux", "CCrypto", "COpenSSL", "CZlib", "CSQLite",
              "CPostgres", "Glibc", "FoundationNetworking"}
APPLE = {"ios", "macos"}
# Minimum (major) versions the sources' APIs need, by module imported.
NEEDS = {"Synchronization": {"macos": 15, "ios": 18}, "Observation": {"macos": 14, "ios": 17}}


def swift_tool(name):
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not on PATH")
    return path


@pytest.fixture(scope="module")
def manifest():
    result = subprocess.run([swift_tool("swift"), "package", "dump-package"], cwd=ROOT, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def apple_dependencies(target):
    """Names of the targets and products `target` depends on where iOS or macOS build it."""
    names = []
    for dependency in target["dependencies"]:
        kind, value = next(iter(dependency.items()))
        name, condition = value[0], value[-1]
        platforms = set((condition or {}).get("platformNames") or [])
        if condition is None or not platforms or platforms & APPLE:
            names.append(name)
    return names


def reachable(manifest, roots):
    targets = {target["name"]: target for target in manifest["targets"]}
    seen, stack = set(), list(roots)
    while stack:
        name = stack.pop()
        if name in seen or name not in targets:
            continue
        seen.add(name)
        stack.extend(apple_dependencies(targets[name]))
    return seen


def source_files(target):
    return sorted((ROOT / "Sources" / target).rglob("*.swift"))


IMPORT = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:\w+\s+)?(\w+)")


def unguarded_imports(path):
    """(line number, module) of each Linux-only import outside a Linux-only `#if`."""
    frames = []  # per open #if: [condition of the branch we are in, whether it guards Linux-only code]
    found = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        text = line.strip()
        if text.startswith("#if "):
            frames.append(linux_only_condition(text[4:]))
        elif text.startswith("#elseif "):
            frames[-1] = linux_only_condition(text[8:])
        elif text.startswith("#else"):
            frames[-1] = False
        elif text.startswith("#endif"):
            frames.pop()
        else:
            match = IMPORT.match(line)
            if match and match.group(1) in LINUX_ONLY and not any(frames):
                found.append((number, match.group(1)))
    return found


def linux_only_condition(condition):
    if "!" in condition:
        return False
    if "os(Linux)" in condition:
        return True
    return any(module in LINUX_ONLY for module in re.findall(r"canImport\((\w+)\)", condition))


def test_the_portable_targets_reach_nothing_linux_only_on_apple_platforms(manifest):
    reached = reachable(manifest, PORTABLE)
    assert "ParleyKit" in reached and "ParleyWireCore" in reached
    # The API's values are shared with the server through ParleyModel, which must stay portable.
    assert "ParleyModel" in reached
    assert reached & LINUX_ONLY == set(), f"reached on iOS/macOS: {sorted(reached & LINUX_ONLY)}"


def test_the_declared_platforms_cover_the_apis_the_sources_use(manifest):
    declared = {p["platformName"]: int(p["version"].split(".")[0]) for p in manifest["platforms"]}
    reached = reachable(manifest, PORTABLE)
    for target in sorted(reached):
        for path in source_files(target):
            for module in re.findall(r"^\s*import\s+(\w+)", path.read_text(), re.M):
                for platform, version in NEEDS.get(module, {}).items():
                    assert declared.get(platform, 0) >= version, \
                        f"{path.relative_to(ROOT)} imports {module}, which needs {platform} {version}; " \
                        f"Package.swift declares {declared.get(platform)}"


def test_no_portable_source_imports_a_linux_only_module_unguarded(manifest):
    offenders = []
    for target in sorted(reachable(manifest, PORTABLE)):
        for path in source_files(target):
            offenders += [f"{path.relative_to(ROOT)}:{n}: import {m}" for n, m in unguarded_imports(path)]
    assert offenders == []


def test_the_guard_scanner_sees_an_unguarded_import(tmp_path):
    sample = tmp_path / "Sample.swift"
    sample.write_text("#if canImport(Glibc)\nimport Glibc\n#else\nimport ParleyNet\n#endif\n"
                      "#if canImport(ParleyNet)\nimport ParleyWire\n#endif\n@preconcurrency import CCrypto\n")
    assert unguarded_imports(sample) == [(4, "ParleyNet"), (9, "CCrypto")]


def test_the_portable_targets_compile_without_the_linux_only_modules(tmp_path, manifest):
    """Each portable module is compiled from its sources alone, in dependency order, against a
    search path holding only the modules compiled before it (plus the toolchain's)."""
    swiftc = swift_tool("swiftc")
    targets = {target["name"]: target for target in manifest["targets"]}
    order = []

    def visit(name):
        if name in order or name not in targets:
            return
        for dependency in apple_dependencies(targets[name]):
            visit(dependency)
        order.append(name)

    for root in PORTABLE:
        visit(root)
    modules = tmp_path / "modules"
    modules.mkdir()
    sdk = tmp_path / "apple-sdk"
    sdk.mkdir()
    (sdk / "module.modulemap").write_text(
        'module SQLite3 [system] {\n  header "/usr/include/sqlite3.h"\n  link "sqlite3"\n  export *\n}\n')
    for name in order:
        sources = [str(p) for p in source_files(name)]
        result = subprocess.run(
            [swiftc, "-emit-module", "-parse-as-library", "-swift-version", "6", "-module-name", name,
             "-package-name", "parley", "-I", str(modules), "-I", str(sdk), "-emit-module-path", str(modules / f"{name}.swiftmodule"),
             *sources],
            cwd=tmp_path, capture_output=True, text=True, timeout=900)
        assert result.returncode == 0, f"{name} does not compile without the Linux-only modules:\n{result.stderr[-6000:]}"
    assert order[-2:] == ["ParleyKit", "ParleyUI"]
    assert order.index("ParleyWireCore") < order.index("ParleyModel") < order.index("ParleyKit")
    assert not any((modules / f"{name}.swiftmodule").exists() for name in LINUX_ONLY)
