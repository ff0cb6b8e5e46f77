"""What `evaltool explain CODE` prints: a registered issue type in words.

The type's title, its one-line description and its templates (the message, and what was
found and expected where those are words) come from evaltool/data/issues/; a flag, finding or
gate reason names instead the module of evaltool/report/ that writes its sentence.
"""

from __future__ import annotations

from evaltool.issues import TEMPLATE_PARTS, IssueType


def explain_text(kind: IssueType) -> str:
    """The type as `evaltool explain CODE` prints it in a table."""
    text = (f"{kind.code} ({kind.stage}, usually {kind.severity}): {kind.title}\n\n"
            f"{kind.description}\n")
    templates = kind.templates()
    if templates:
        text += "\n" + "".join(f"{part + ':':<10}{templates[part]}\n"
                               for part in TEMPLATE_PARTS if part in templates)
        if kind.param_names:
            text += f"{'params:':<10}{', '.join(sorted(kind.param_names))}\n"
    elif kind.words:
        text += f"\nsentence: written by {kind.words} from the figures it carries\n"
    return text
