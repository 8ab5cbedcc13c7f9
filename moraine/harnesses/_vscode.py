"""Where VS Code and its forks keep a user's data, for the harnesses that live inside them.

Every VS Code build keeps a ``User`` folder (``~/.config/<product>/User`` on Linux, ``~/Library/Application
Support/<product>/User`` on macOS, ``%APPDATA%\\<product>\\User`` on Windows) holding ``workspaceStorage/<hash>/``,
``globalStorage/<extension id>/`` and the ``state.vscdb`` databases. ``user_location`` declares one source below a
product's ``User`` folder on all three platforms.
"""

from __future__ import annotations

from moraine.harnesses.declaration import Location

__all__ = ["EDITORS", "PRODUCTS", "user_location"]

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
