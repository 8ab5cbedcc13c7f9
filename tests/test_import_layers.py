"""The order of moraine's packages, read from every source file's imports: each imports only its own layer and below.

The harness contract (``moraine.harness_api``: declarations, the record and event model, the reader and adapter
protocols) is at the bottom and imports nothing of Moraine's; the harnesses sit just above it and import only it
(and the plugin lookup), never ingest, the store or the config, which all sit above them. Packages of one layer may
import each other (the HTTP server mounts the web page's routes, and the page's export calls the server's tools).
A ``__main__`` module is an entry point, like ``moraine.entry``: it may import anything.
"""

from __future__ import annotations

from pathlib import Path

from fixtures.imports import imported_modules

ROOT = Path(__file__).resolve().parents[1]
MORAINE = ROOT / "moraine"

# Bottom to top: a package (a folder, or a module at moraine/'s top) may import its own layer and those before it.
LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(layer.split())
    for layer in (
        "harness_api errors ids placeholders memo ranking secret_file in_flight plugins",
        "harnesses",
        "terms redact attention",
        "store",
        "config",
        "child_env private_files",
        "projects",
        "ingest",
        "semantic mirror handler_api access resume usage",
        "server web export hooks",
        "daemon",
        "cli",
        "entry",
    )
)
_LAYER = {name: index for index, layer in enumerate(LAYERS) for name in layer}


def _package(path: Path) -> str:
    return path.relative_to(MORAINE).parts[0].removesuffix(".py")


def _sources() -> list[Path]:
    return sorted(
        p for p in MORAINE.rglob("*.py") if p.name != "__main__.py" and p != MORAINE / "__init__.py"
    )


def test_every_package_of_moraine_has_its_layer() -> None:
    packages = {_package(path) for path in _sources()}
    assert len(packages) > 20, "moraine/ has too few packages: the path above is wrong"
    assert packages - set(_LAYER) == set(), "a package without a layer: add it to LAYERS"
    assert set(_LAYER) - packages == set(), "LAYERS names a package that no longer exists"


def test_no_package_imports_a_layer_above_its_own() -> None:
    upward = []
    for path in _sources():
        own = _LAYER[_package(path)]
        for module in sorted(imported_modules(path)):
            parts = module.split(".")
            if parts[0] == "moraine" and len(parts) > 1 and _LAYER.get(parts[1], -1) > own:
                upward.append(f"{path.relative_to(ROOT)} imports {module}")
    assert upward == []


def test_the_harness_contract_imports_nothing_of_moraine_and_the_harnesses_only_it() -> None:
    allowed = {"harness_api": {"harness_api"}, "harnesses": {"harness_api", "harnesses", "plugins"}}
    crossings = []
    for package, may in allowed.items():
        for path in sorted((MORAINE / package).rglob("*.py")):
            for module in imported_modules(path):
                parts = module.split(".")
                if parts[0] == "moraine" and len(parts) > 1 and parts[1] not in may:
                    crossings.append(f"{path.relative_to(ROOT)} imports {module}")
    assert crossings == []
