"""YAML from vendors is loaded safely: no objects, no alias bombs, errors name line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaltool.errors import InputError
from evaltool.yamlsafe import load_yaml_file, load_yaml_text


def test_billion_laughs_is_refused_quickly() -> None:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for level in range(1, 10):
        refs = ",".join([f"*a{level - 1}"] * 9)
        lines.append(f"a{level}: &a{level} [{refs}]")
    with pytest.raises(InputError, match="alias bomb"):
        load_yaml_text("\n".join(lines), "bomb.yaml")


def test_python_object_tags_are_refused() -> None:
    with pytest.raises(InputError):
        load_yaml_text("x: !!python/object/apply:os.system ['echo hi']", "evil.yaml")


def test_syntax_error_names_file_line_and_column() -> None:
    with pytest.raises(InputError) as info:
        load_yaml_text("a: 1\nb: [1, 2\n", "offer.yaml")
    assert "offer.yaml" in str(info.value)
    assert "line" in str(info.value)


def test_latin1_file_is_decoded(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes("preis: '24,80 € / Knoten / Stunde'\nanbieter: Nordhavn Rechenzentrum Köln\n"
                     .encode("cp1252"))
    data = load_yaml_file(path)
    assert data["anbieter"].endswith("Köln")
