"""Issue 43, item 6: a password told with more than four words between the word for it and "es" was kept.

"la contraseña de la base de datos de producción es hunter2xyz" has six words before "es", four of them articles
and prepositions; those no longer count towards the filler's four words, in any of the languages listed. Ordinary
sentences of the same length whose value reads as a word stay as they were.
"""

from __future__ import annotations

import pytest

from moraine.redact import redact_text

TOLD = [
    ("es", "la contraseña de la base de datos de producción es hunter2xyz", "hunter2xyz"),
    ("es-del", "La contraseña del usuario de la base de datos de pruebas es: Gato#2024", "Gato#2024"),
    ("fr", "le mot de passe du compte de la base de données de production est Soleil2024", "Soleil2024"),
    ("pt", "a senha do usuário do banco de dados de produção é Lua2024!", "Lua2024!"),
    ("de", "das Passwort für den Zugang zu der Datenbank von dem Server ist Sonne2024", "Sonne2024"),
    ("en", "the password for the admin account of the staging database is hunter2xyz", "hunter2xyz"),
]

ORDINARY = [
    "la contraseña de la base de datos de producción es obligatoria",
    "el campo de la contraseña de la página de inicio es Obligatorio.",
    "le mot de passe du compte de la base de données est incorrect.",
    "the password field in the form on the settings page of the app is required",
    "la contraseña que usamos en el servidor de pruebas del equipo es larga",
]


@pytest.mark.parametrize(("text", "secret"), [(t, s) for _, t, s in TOLD], ids=[i for i, _, _ in TOLD])
def test_a_password_told_after_a_long_phrase_of_articles_and_prepositions_is_redacted(
    text: str, secret: str
) -> None:
    redacted = redact_text(text)
    assert redacted == text.replace(secret, "[REDACTED:password]")


@pytest.mark.parametrize("text", ORDINARY)
def test_a_sentence_as_long_whose_value_is_a_word_is_kept(text: str) -> None:
    assert redact_text(text) == text
