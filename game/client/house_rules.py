"""The house rules in words: each option's one-line explanation, and the summary of a game's rules.

An option (`game.engine.OPTIONS`) is declared once, in the engine, which holds no words; its
label is the catalogue entry ``option.<name>`` and its explanation ``option.<name>.help``, keyed
by the same name, so there is no second list of options to drift from the first
(`tests/test_house_rules_ui.py` holds every option to an explanation in every language). The
new-game form shows the explanation of the house rule under the pointer or the keyboard's
focus; the pause menu's "Rules of this game" lists the rule set and every house rule of the game
being played, with its value and its explanation (`summary_markup`).
"""

from __future__ import annotations

import html

from game.engine import OPTIONS, PRESETS, Option, Rules

from .i18n import option_label, tr, zero_text
from .rules_text import HEADING_COLOUR

KIND_HELP = "new.kind.help"
"""The explanation of the form's Quick game / Points game choice (`game_kind`)."""


def help_key(name: str) -> str:
    """The catalogue key of the explanation of the house rule ``name``."""
    return f"option.{name}.help"


def option_help(option: Option) -> str:
    """The one-line explanation of ``option``, in the current language."""
    return tr(help_key(option.name))


def value_text(option: Option, rules: Rules, players: int) -> str:
    """The value ``rules`` give ``option``, in words (on/off, a number, or what 0 means)."""
    value = getattr(rules, option.name)
    if option.kind == "bool":
        return tr("new.on") if value else tr("new.off")
    if value:
        return str(value)
    if option.name == "target" and rules.target_per_player:
        return f"{rules.target_per_player} × {players}"
    if option.name == "max_draws" and not rules.draw_until_playable:
        return "1"
    return zero_text(option)


def summary_markup(rules: Rules, players: int) -> str:
    """The rules of a game in play as pygame_gui markup: the rule set and its line, then each
    house rule it offers with its value and its explanation."""
    lines = []
    if rules.name in PRESETS:
        named = tr("fmt.pair", label=tr("new.preset"), value=tr("preset." + rules.name))
        lines += [f"<b>{html.escape(named)}</b> · {html.escape(tr('rules_in_play.players', n=players))}",
                  html.escape(tr(f"preset.{rules.name}.line")), ""]
    lines += [f"<font color='{HEADING_COLOUR}'><b>{html.escape(tr('new.options'))}</b></font>"]
    offered = rules.options()
    for option in OPTIONS:
        if option.name not in offered:
            continue
        pair = tr("fmt.pair", label=option_label(option), value=value_text(option, rules, players))
        lines.append(f"• <b>{html.escape(pair)}</b> — {html.escape(option_help(option))}")
    return "<br>".join(lines)
