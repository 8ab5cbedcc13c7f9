"""The config a command runs with: the file ``--config`` (or ``MORAINE_CONFIG``) names, else the default."""

from __future__ import annotations

from pathlib import Path

import click

from moraine.config import Config, load_config
from moraine.errors import ConfigError

__all__ = ["command_config"]


def command_config(ctx: click.Context) -> Config:
    """Return the config of the command ``ctx`` runs; a bad config file is a click error naming what is wrong."""
    raw = (ctx.obj or {}).get("config_path")
    try:
        return load_config(Path(raw) if raw else None)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
