"""Where VS Code and its forks keep a user's data, for the harnesses that live inside them.

Every VS Code build keeps a ``User`` folder (``~/.config/<product>/User`` on Linux, ``~/Library/Application
Support/<product>/User`` on macOS, ``%APPDATA%\\<product>\\User`` on Windows) holding ``workspaceStorage/<hash>/``,
``globalStorage/<extension id>/`` and the ``state.vscdb`` databases. ``user_location`` declares one source below a
product's ``User`` folder on all three platforms; ``workspace_folder`` reads the folder a ``workspaceStorage/<hash>``
directory belongs to, ``file_uri_path`` the local path of a ``file://`` URI as VS Code records one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from moraine.harness_api.declaration import Location

__all__ = ["EDITORS", "PRODUCTS", "file_uri_path", "product_locations", "user_location", "workspace_folder"]

# (source-name suffix, product folder): VS Code and the builds that share its layout.
PRODUCTS = (("", "Code"), ("-insiders", "Code - Insiders"), ("-vscodium", "VSCodium"))
# The products plus the forks where VS Code extensions (Cline, Roo Code, Kilo) are commonly installed.
EDITORS = (*PRODUCTS, ("-cursor", "Cursor"), ("-windsurf", "Windsurf"))


def user_location(source: str, product: str, below_user: str, reader: str, enabled: bool = True) -> Location:
    """Return the source ``source`` at ``<product>/User/<below_user>`` (a glob) on Linux, macOS and Windows."""
    relative = f"{product}/User/{below_user}"
    return Location(
        source=source,
        glob=f"~/.config/{relative}",
        reader=reader,
        macos_glob=f"~/Library/Application Support/{relative}",
        windows_glob=f"~/AppData/Roaming/{relative}",
        enabled=enabled,
    )


def product_locations(
    name: str, products: Iterable[tuple[str, str]], folders: Iterable[tuple[str, str]], reader: str
) -> tuple[Location, ...]:
    """Return a source for each product and each folder glob below its ``User`` folder.

    ``products`` and ``folders`` pair a source-name suffix with a product folder or a glob: the source of product
    ``(p, ...)`` and folder ``(f, ...)`` is named ``name + p + f``.
    """
    return tuple(
        user_location(f"{name}{product_suffix}{folder_suffix}", product, folder, reader)
        for product_suffix, product in products
        for folder_suffix, folder in folders
    )


def workspace_folder(storage: Path) -> str | None:
    """Return the folder of the workspace whose ``workspaceStorage/<hash>`` directory is ``storage``."""
    manifest = storage / "workspace.json"
    try:
        folder = json.loads(manifest.read_bytes()).get("folder")
    except (OSError, ValueError, AttributeError):
        return None
    return file_uri_path(folder)


def file_uri_path(uri: Any) -> str | None:
    """Return the local path of a ``file://`` URI (or a VS Code URI object's ``fsPath``/``path``), else None."""
    if isinstance(uri, dict):
        for key in ("fsPath", "path"):
            if isinstance(uri.get(key), str) and uri.get("scheme", "file") == "file":
                return str(uri[key])
        return file_uri_path(uri.get("external"))
    if not isinstance(uri, str) or not uri.startswith("file://"):
        return None
    path = unquote(urlparse(uri).path)
    if len(path) > 2 and path[0] == "/" and path[2] == ":":  # file:///c:/Users/... on Windows
        path = path[1:]
    return path or None
