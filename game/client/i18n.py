"""Every string a player reads, in French and English, through one catalogue.

``tr("key", name="Ana")`` returns the string in the current language, formatted.
The default language comes from the system locale (French for ``fr*``, else
English); settings switch it with `set_language`. A key missing from a language
falls back to English, then to the key itself, so a gap never crashes the game.
"""

from __future__ import annotations

import locale
import os
from typing import Final

from game.engine import Card, Option
from game.engine.options import Zero

from . import i18n_data, i18n_online

LANGUAGES: Final = ("en", "fr")

EN: Final[dict[str, str]] = {
    "app.title": "Huit",
    "app.subtitle": "Crazy Eights",
    "fmt.pair": "{label}: {value}",
    "menu.new": "New game",
    "menu.continue": "Continue",
    "menu.settings": "Settings",
    "menu.rules": "How to play",
    "menu.quit": "Quit",
    "new.title": "New game",
    "new.preset": "Rules",
    "new.players": "Players",
    "new.seat": "Seat {n}",
    "new.human": "Human",
    "new.easy": "Computer · Easy",
    "new.medium": "Computer · Medium",
    "new.hard": "Computer · Hard",
    "new.options": "House rules",
    "new.start": "Start",
    "new.back": "Back",
    "new.on": "on",
    "new.off": "off",
    "new.quick_game": "Quick game: first out wins",
    "new.points_game": "Points game: to the target",
    "preset.duel": "Duel",
    "preset.classic": "Classic",
    "preset.points": "Points game",
    "preset.colors": "Colours",
    "preset.action": "Action eights",
    "preset.duel.line": "Two players, one round, eights wild.",
    "preset.classic.line": "You against 1 to 3 computers; the winner scores the losers' cards.",
    "preset.points.line": "Round after round to 50 points per player; optional action cards.",
    "preset.colors.line": "Colour deck: +2 stacking, Wild +4 and Liar, the Card call.",
    "preset.action.line": "Ten cards, twins, runs, the 10 plays again, stacking + cards.",
    "option.hand_size": "Cards per hand",
    "option.draw_until_playable": "Draw until you can play",
    "option.draw_when_playable": "May draw with a playable card",
    "option.max_draws": "Cards drawn per turn",
    "option.reshuffle": "Reshuffle the discards",
    "option.twos_draw_two": "Twos: next player draws two",
    "option.queen_spades_draw_five": "Queen of spades: draw five",
    "option.jacks_skip": "Jacks skip",
    "option.aces_reverse": "Aces reverse",
    "option.stacking": "Stack draw cards",
    "option.last_card_call": "The Card call",
    "option.challenge_wild_four": "Challenge a Wild +4",
    "option.twin_card": "Twin cards",
    "option.runs": "Runs",
    "option.turn_seconds": "Turn timer (s)",
    "option.target": "Target score",
    "option.target_per_player": "Target per player",
    "option.pairs": "Pair play (4 players)",
    "option.pair_scores": "Partners' points add up",
    "option.undo": "Undo",
    "option.zero.off": "off",
    "option.zero.auto": "by players",
    "option.zero.no_limit": "no limit",
    "option.zero.one_round": "one round",
    "table.draw": "Draw",
    "table.pass": "Pass",
    "table.card": "Card!",
    "table.liar": "Liar!",
    "table.accept": "Accept",
    "table.end": "End turn",
    "table.undo": "Undo",
    "table.hint": "Hint",
    "table.hint_play": "Suggestion: play {card}",
    "table.hint_action": "Suggestion: {action}",
    "table.menu": "Menu",
    "table.denounce": "Card! ({name})",
    "table.you": "You",
    "table.cards": "{n} cards",
    "table.card_one": "1 card",
    "table.pile": "{n} left",
    "table.suit": "Suit",
    "table.your_turn": "Your turn",
    "table.turn_of": "{name} plays",
    "table.thinking": "{name} is thinking…",
    "table.autopilot": "Autopilot",
    "table.autopilot_now_on": "Autopilot on: the computer plays your turns as Medium would.",
    "table.autopilot_now_off": "Autopilot off: your turns are yours again.",
    "table.autopilot_you": "The autopilot plays for you: press O or make a move to take over.",
    "table.autopilot_for": "The autopilot plays for {name}.",
    "table.autopilot_lost_turn": "Time is up: the computer finishes your turn.",
    "table.autopilot_lost_turn_for": "Time is up: the computer finishes {name}'s turn.",
    "table.autopilot_started": "Time ran out twice in a row: the autopilot plays for you now. Press O or "
                               "make a move to take back control.",
    "table.autopilot_started_for": "Time ran out twice in a row for {name}: the autopilot plays for them "
                                   "now.",
    "table.pending": "Draw {n} or answer",
    "table.scores": "Scores",
    "table.points": "{n} pts",
    "table.target": "Target {n}",
    "table.pair": "{a} & {b}",
    "table.pair_points": "pair {n} pts",
    "table.round": "Round {n}",
    "table.timer": "{n} s",
    "table.level": "{level}",
    "level.easy": "Easy",
    "level.medium": "Medium",
    "level.hard": "Hard",
    "table.computer": "Computer {n}",
    "table.player": "Player {n}",
    "suit.title": "Choose the suit",
    "suit.title_colour": "Choose the colour",
    "suit.S": "Spades",
    "suit.H": "Hearts",
    "suit.D": "Diamonds",
    "suit.C": "Clubs",
    "suit.R": "Red",
    "suit.B": "Blue",
    "suit.G": "Green",
    "suit.Y": "Yellow",
    "handoff.title": "Pass the device to {name}",
    "handoff.hint": "{name}: tap the screen or press Enter when you are ready.",
    "result.title": "Round over",
    "result.match_over": "Game over",
    "result.winner": "{name} wins!",
    "result.you_win": "You win!",
    "result.winners": "{names} win!",
    "result.tie": "Blocked: a tie",
    "result.blocked": "Blocked: the lowest hand wins",
    "result.hand": "Hand",
    "result.value": "Value",
    "result.points": "Points",
    "result.total": "Total",
    "result.pair_total": "Pair total",
    "result.left": "Cards left",
    "result.went_out": "Went out",
    "result.cards": "{n} cards",
    "result.card_one": "1 card",
    "result.new_round": "New round",
    "result.menu": "Menu",
    "result.confirm": "Confirmed: {names}",
    "result.waiting": "Waiting for {names} to confirm",
    "pause.title": "Paused",
    "pause.resume": "Resume",
    "pause.menu": "Back to menu",
    "pause.level": "{name}: {level}",
    "pause.autopilot": "{name}: autopilot {value}",
    "settings.title": "Settings",
    "settings.language": "Language",
    "settings.speed": "Animation speed",
    "settings.speed.slow": "Slow",
    "settings.speed.normal": "Normal",
    "settings.speed.fast": "Fast",
    "settings.speed.instant": "Instant",
    "settings.volume": "Volume",
    "settings.mute": "Mute",
    "settings.four_color": "Four-colour deck",
    "settings.left_handed": "Left-handed layout",
    "settings.undo": "Allow undo",
    "settings.fullscreen": "Fullscreen",
    "settings.back": "Back",
    "rules.title": "How to play",
    "rules.back": "Back",
    "rules.page.rules": "Rules",
    "rules.page.tips": "Tips",
    "rules.page.faq": "Questions",
    "error.no_seat": "Nothing to do now.",
    "marker.J": "SKIP {symbol}",
    "marker.Q": "REV {symbol}",
    "marker.K": "+2",
    "marker.X": "+4 WILD",
    "why.round_over": "The round is over.",
    "why.finish_round": "Finish this round first.",
    "why.match_won": "The match is over; start a new game.",
    "why.no_seat": "There is no seat {seat} at this table.",
    "why.denounce_self": "You cannot denounce yourself.",
    "why.denounce_nobody": "{seat} cannot be denounced now.",
    "why.not_your_turn": "It is not your turn: {to_act} plays.",
    "why.no_timer": "These rules have no turn timer.",
    "why.choose_suit_first": "Choose the suit to announce first.",
    "why.answer_wild_four": "Call Liar or accept the Wild +4.",
    "why.not_held": "You do not hold {card}.",
    "why.must_stack_or_draw": "You must answer with a draw card that stacks, or draw {n} cards.",
    "why.only_drawn_card": "After drawing you may only play the card you drew.",
    "why.again_same_suit": "After a 10 you must play another {suit} card.",
    "why.run_next_only": "Only the next card of your run may follow; or end your turn.",
    "why.ten_not_last": "A 10 can never be your last card.",
    "why.must_follow": "You must follow with {suit} or {rank}, or play {wild}.",
    "why.must_follow_suit": "You must follow with {suit}, or play {wild}.",
    "why.suit_after_wild": "You announce a suit only after playing a wild card.",
    "why.suit_after_wild.colours": "You announce a colour only after playing a Wild.",
    "why.choose_suit_first.colours": "Choose the colour to announce first.",
    "why.nothing_to_draw": "There is nothing left to draw.",
    "why.drew_already": "You cannot draw again this turn.",
    "why.mid_turn": "You are in the middle of your turn: play on or end it.",
    "why.draw_while_playable": "You may not draw while you hold a card that plays.",
    "why.cannot_pass": "You cannot pass: you can still play or draw.",
    "why.cannot_pass_play": "You cannot pass: you can still play a card.",
    "why.cannot_pass_draw": "You cannot pass: draw a card first.",
    "why.nothing_to_end": "There is nothing to end: play or draw.",
    "why.card_call_when": "You call Card only with two cards in hand, before playing.",
    "why.no_wild_four": "No Wild +4 was played at you.",
    "why.not_allowed": "{action} is not allowed now.",
    "wild.eight": "an eight",
    "wild.eight_or_joker": "an eight or a joker",
    "wild.wild": "a wild card",
    "suit.none": "the announced suit",
    "follow.suit": "a {suit} card",
    "follow.none": "a card of the announced suit",
    "follow.none.colours": "a card of the announced colour",
    "rank.a.A": "an ace",
    "rank.a.K": "a king",
    "rank.a.Q": "a queen",
    "rank.a.J": "a jack",
    "rank.a.8": "an 8",
    "rank.a.other": "a {rank}",
    "rank.a.skip": "a Skip",
    "rank.a.rev": "a Reverse",
    "card.colour": "{colour} {rank}",
    "card.joker": "Joker",
    "card.wild": "Wild",
    "card.wild4": "Wild +4",
    "card.skip": "Skip",
    "card.rev": "Reverse",
    "card.colour.R": "Red",
    "card.colour.B": "Blue",
    "card.colour.G": "Green",
    "card.colour.Y": "Yellow",
    "log.title": "Moves this round",
    "log.rules": "Rules in force: {rules}",
    "table.more_rules": "+{n} more",
    "log.close": "Tap, or press Esc, to close · ↑ ↓ or drag to scroll",
    "log.empty": "No move yet.",
    "log.played": "{name} played {card}",
    "log.played_suit": "{name} played {card}, named {suit}",
    "log.chose": "{name} named {suit}",
    "log.drew": "{name} drew {cards}",
    "log.drew_penalty": "{name} drew {cards} (penalty)",
    "log.drew_challenge": "{name} drew {cards}: bluff caught",
    "log.drew_denounce": "{name} drew {cards}: no Card call",
    "log.drew_timeout": "{name} drew {cards}: time ran out",
    "log.one_card": "1 card",
    "log.cards": "{n} cards",
    "log.passed": "{name} passed",
    "log.skipped": "{name} is skipped",
    "log.reversed": "Direction reversed",
    "log.reshuffled": "Discards shuffled into the pile ({n})",
    "log.called": "{name} called Card",
    "log.denounced": "{name} denounced {other}",
    "log.challenged_bluff": "{name} called Liar on {other}: a bluff",
    "log.challenged_fair": "{name} called Liar on {other}: no bluff",
    "log.timed_out": "{name} ran out of time",
    "log.start": "Starting card: {card}",
    "log.won": "{name} won the round",
    "log.you": "you",
    "log.you.played": "You played {card}",
    "log.you.played_suit": "You played {card}, named {suit}",
    "log.you.chose": "You named {suit}",
    "log.you.drew": "You drew {cards}",
    "log.you.drew_penalty": "You drew {cards} (penalty)",
    "log.you.drew_challenge": "You drew {cards}: bluff caught",
    "log.you.drew_denounce": "You drew {cards}: no Card call",
    "log.you.drew_timeout": "You drew {cards}: time ran out",
    "log.you.passed": "You passed",
    "log.you.skipped": "You are skipped",
    "log.you.called": "You called Card",
    "log.you.denounced": "You denounced {other}",
    "log.you.challenged_bluff": "You called Liar on {other}: a bluff",
    "log.you.challenged_fair": "You called Liar on {other}: no bluff",
    "log.you.timed_out": "You ran out of time",
    "log.you.won": "You won the round",
    **i18n_data.EN,
    **i18n_data.ONLINE_EN,
    **i18n_data.MODES_EN,
    **i18n_online.EN,
}

FR: Final[dict[str, str]] = {
    "app.title": "Huit",
    "app.subtitle": "Huit américain",
    "fmt.pair": "{label} : {value}",
    "menu.new": "Nouvelle partie",
    "menu.continue": "Continuer",
    "menu.settings": "Réglages",
    "menu.rules": "Règles du jeu",
    "menu.quit": "Quitter",
    "new.title": "Nouvelle partie",
    "new.preset": "Règles",
    "new.players": "Joueurs",
    "new.seat": "Place {n}",
    "new.human": "Humain",
    "new.easy": "Ordinateur · Facile",
    "new.medium": "Ordinateur · Moyen",
    "new.hard": "Ordinateur · Difficile",
    "new.options": "Règles maison",
    "new.start": "Jouer",
    "new.back": "Retour",
    "new.on": "oui",
    "new.off": "non",
    "new.quick_game": "Partie rapide : premier sans carte",
    "new.points_game": "Partie aux points : jusqu'à l'objectif",
    "preset.duel": "Duel",
    "preset.classic": "Classique",
    "preset.points": "Partie aux points",
    "preset.colors": "Couleurs",
    "preset.action": "Huit d'action",
    "preset.duel.line": "Deux joueurs, une manche, les huit passent partout.",
    "preset.classic.line": "Toi contre 1 à 3 ordinateurs ; le gagnant marque les cartes des autres.",
    "preset.points.line": "Manche après manche jusqu'à 50 points par joueur ; cartes d'action en option.",
    "preset.colors.line": "Jeu de couleurs : +2 cumulables, Joker +4 et Menteur, l'annonce Carte.",
    "preset.action.line": "Dix cartes, cartes jumelles, suites, le 10 rejoue, cartes « + » cumulables.",
    "option.hand_size": "Cartes par main",
    "option.draw_until_playable": "Piocher jusqu'à pouvoir jouer",
    "option.draw_when_playable": "Piocher même si l'on peut jouer",
    "option.max_draws": "Cartes piochées par tour",
    "option.reshuffle": "Remélanger la défausse",
    "option.twos_draw_two": "Les deux font piocher deux",
    "option.queen_spades_draw_five": "La dame de ♠ fait piocher cinq",
    "option.jacks_skip": "Les valets font passer",
    "option.aces_reverse": "Les as inversent le sens",
    "option.stacking": "Cumuler les cartes à piocher",
    "option.last_card_call": "L'annonce Carte",
    "option.challenge_wild_four": "Contester un Joker +4",
    "option.twin_card": "Cartes jumelles",
    "option.runs": "Suites",
    "option.turn_seconds": "Temps par tour (s)",
    "option.target": "Score à atteindre",
    "option.target_per_player": "Objectif par joueur",
    "option.pairs": "Jeu en paire (4 joueurs)",
    "option.pair_scores": "Points cumulés par paire",
    "option.undo": "Annuler",
    "option.zero.off": "non",
    "option.zero.auto": "selon les joueurs",
    "option.zero.no_limit": "sans limite",
    "option.zero.one_round": "une manche",
    "table.draw": "Piocher",
    "table.pass": "Passer",
    "table.card": "Carte !",
    "table.liar": "Menteur !",
    "table.accept": "Accepter",
    "table.end": "Terminer",
    "table.undo": "Annuler",
    "table.hint": "Conseil",
    "table.hint_play": "Conseil : jouez {card}",
    "table.hint_action": "Conseil : {action}",
    "table.menu": "Menu",
    "table.denounce": "Carte ! ({name})",
    "table.you": "Vous",
    "table.cards": "{n} cartes",
    "table.card_one": "1 carte",
    "table.pile": "reste {n}",
    "table.suit": "Couleur",
    "table.your_turn": "À vous de jouer",
    "table.turn_of": "{name} joue",
    "table.thinking": "{name} réfléchit…",
    "table.autopilot": "Mode auto",
    "table.autopilot_now_on": "Mode automatique activé : l'ordinateur joue vos tours comme le niveau "
                              "Moyen.",
    "table.autopilot_now_off": "Mode automatique désactivé : vous jouez de nouveau vos tours.",
    "table.autopilot_you": "Le mode automatique joue pour vous : O ou un coup pour reprendre la main.",
    "table.autopilot_for": "Le mode automatique joue pour {name}.",
    "table.autopilot_lost_turn": "Temps écoulé : l'ordinateur termine votre tour.",
    "table.autopilot_lost_turn_for": "Temps écoulé : l'ordinateur termine le tour de {name}.",
    "table.autopilot_started": "Temps écoulé deux tours de suite : le mode automatique joue pour vous. O ou "
                               "un coup pour reprendre la main.",
    "table.autopilot_started_for": "Temps écoulé deux tours de suite pour {name} : le mode automatique joue "
                                   "à sa place.",
    "table.pending": "Piochez {n} ou surenchérissez",
    "table.scores": "Scores",
    "table.points": "{n} pts",
    "table.target": "Objectif {n}",
    "table.pair": "{a} et {b}",
    "table.pair_points": "paire {n} pts",
    "table.round": "Manche {n}",
    "table.timer": "{n} s",
    "table.level": "{level}",
    "level.easy": "Facile",
    "level.medium": "Moyen",
    "level.hard": "Difficile",
    "table.computer": "Ordinateur {n}",
    "table.player": "Joueur {n}",
    "suit.title": "Choisissez la couleur",
    "suit.title_colour": "Choisissez la couleur",
    "suit.S": "Pique",
    "suit.H": "Cœur",
    "suit.D": "Carreau",
    "suit.C": "Trèfle",
    "suit.R": "Rouge",
    "suit.B": "Bleu",
    "suit.G": "Vert",
    "suit.Y": "Jaune",
    "handoff.title": "Passez l'appareil à {name}",
    "handoff.hint": "{name} : touchez l'écran ou appuyez sur Entrée quand vous êtes prêt.",
    "result.title": "Fin de la manche",
    "result.match_over": "Fin de la partie",
    "result.winner": "{name} gagne !",
    "result.you_win": "Vous gagnez !",
    "result.winners": "{names} gagnent !",
    "result.tie": "Manche bloquée : égalité",
    "result.blocked": "Manche bloquée : la plus petite main gagne",
    "result.hand": "Main",
    "result.value": "Valeur",
    "result.points": "Points",
    "result.total": "Total",
    "result.pair_total": "Total paire",
    "result.left": "Cartes restantes",
    "result.went_out": "A fini",
    "result.cards": "{n} cartes",
    "result.card_one": "1 carte",
    "result.new_round": "Nouvelle manche",
    "result.menu": "Menu",
    "result.confirm": "Prêts : {names}",
    "result.waiting": "En attente de {names}",
    "pause.title": "Pause",
    "pause.resume": "Reprendre",
    "pause.menu": "Retour au menu",
    "pause.level": "{name} : {level}",
    "pause.autopilot": "{name} : mode auto {value}",
    "settings.title": "Réglages",
    "settings.language": "Langue",
    "settings.speed": "Vitesse des animations",
    "settings.speed.slow": "Lente",
    "settings.speed.normal": "Normale",
    "settings.speed.fast": "Rapide",
    "settings.speed.instant": "Instantanée",
    "settings.volume": "Volume",
    "settings.mute": "Muet",
    "settings.four_color": "Jeu à quatre couleurs",
    "settings.left_handed": "Disposition pour gaucher",
    "settings.undo": "Autoriser l'annulation",
    "settings.fullscreen": "Plein écran",
    "settings.back": "Retour",
    "rules.title": "Règles du jeu",
    "rules.back": "Retour",
    "rules.page.rules": "Règles",
    "rules.page.tips": "Conseils",
    "rules.page.faq": "Questions",
    "error.no_seat": "Rien à faire pour l'instant.",
    "marker.J": "PASSE {symbol}",
    "marker.Q": "SENS {symbol}",
    "marker.K": "+2",
    "marker.X": "+4 JOKER",
    "why.round_over": "La manche est finie.",
    "why.finish_round": "Finissez d'abord cette manche.",
    "why.match_won": "La partie est finie ; commencez-en une nouvelle.",
    "why.no_seat": "Il n'y a pas de place {seat} à cette table.",
    "why.denounce_self": "Vous ne pouvez pas vous dénoncer vous-même.",
    "why.denounce_nobody": "{seat} ne peut pas être dénoncé maintenant.",
    "why.not_your_turn": "Ce n'est pas votre tour : {to_act} joue.",
    "why.no_timer": "Ces règles n'ont pas de temps par tour.",
    "why.choose_suit_first": "Choisissez d'abord la couleur à annoncer.",
    "why.answer_wild_four": "Criez « Menteur » ou acceptez le Joker +4.",
    "why.not_held": "Vous n'avez pas {card}.",
    "why.must_stack_or_draw": "Surenchérissez avec une carte « + », ou piochez {n} cartes.",
    "why.only_drawn_card": "Après avoir pioché, vous ne pouvez jouer que la carte piochée.",
    "why.again_same_suit": "Après un 10, vous devez rejouer une carte {suit}.",
    "why.run_next_only": "Seule la carte suivante de la suite peut être jouée ; ou terminez votre tour.",
    "why.ten_not_last": "Un 10 ne peut jamais être votre dernière carte.",
    "why.must_follow": "Vous devez jouer {suit} ou {rank}, ou bien {wild}.",
    "why.must_follow_suit": "Vous devez jouer {suit}, ou bien {wild}.",
    "why.suit_after_wild": "On annonce une couleur seulement après avoir joué un joker ou un huit.",
    "why.suit_after_wild.colours": "On annonce une couleur seulement après avoir joué un Joker.",
    "why.choose_suit_first.colours": "Choisissez d'abord la couleur à annoncer.",
    "why.nothing_to_draw": "Il n'y a plus rien à piocher.",
    "why.drew_already": "Vous ne pouvez plus piocher à ce tour.",
    "why.mid_turn": "Votre tour continue : jouez ou terminez-le.",
    "why.draw_while_playable": "Vous ne pouvez pas piocher si une de vos cartes peut être jouée.",
    "why.cannot_pass": "Vous ne pouvez pas passer : vous pouvez encore jouer ou piocher.",
    "why.cannot_pass_play": "Vous ne pouvez pas passer : vous pouvez encore jouer une carte.",
    "why.cannot_pass_draw": "Vous ne pouvez pas passer : piochez d'abord une carte.",
    "why.nothing_to_end": "Il n'y a rien à terminer : jouez ou piochez.",
    "why.card_call_when": "On annonce « Carte » avec deux cartes en main, avant de jouer.",
    "why.no_wild_four": "Personne ne vous a joué de Joker +4.",
    "why.not_allowed": "{action} n'est pas permis maintenant.",
    "wild.eight": "un huit",
    "wild.eight_or_joker": "un huit ou un joker",
    "wild.wild": "un joker",
    "suit.none": "la couleur annoncée",
    "follow.suit": "une carte {suit}",
    "follow.none": "une carte de la couleur annoncée",
    "follow.none.colours": "une carte de la couleur annoncée",
    "rank.a.A": "un as",
    "rank.a.K": "un roi",
    "rank.a.Q": "une dame",
    "rank.a.J": "un valet",
    "rank.a.8": "un 8",
    "rank.a.other": "un {rank}",
    "rank.a.skip": "un Passer",
    "rank.a.rev": "un Sens",
    "card.colour": "{rank} {colour}",
    "card.joker": "Joker",
    "card.wild": "Joker",
    "card.wild4": "Joker +4",
    "card.skip": "Passer",
    "card.rev": "Sens",
    "card.colour.R": "rouge",
    "card.colour.B": "bleu",
    "card.colour.G": "vert",
    "card.colour.Y": "jaune",
    "log.title": "Coups de la manche",
    "log.rules": "Règles en vigueur : {rules}",
    "table.more_rules": "+{n} autres",
    "log.close": "Touchez l'écran ou appuyez sur Échap pour fermer · ↑ ↓ ou glisser pour défiler",
    "log.empty": "Aucun coup pour l'instant.",
    "log.played": "{name} a joué {card}",
    "log.played_suit": "{name} a joué {card}, annonce {suit}",
    "log.chose": "{name} annonce {suit}",
    "log.drew": "{name} a pioché {cards}",
    "log.drew_penalty": "{name} a pioché {cards} (pénalité)",
    "log.drew_challenge": "{name} a pioché {cards} : bluff découvert",
    "log.drew_denounce": "{name} a pioché {cards} : pas d'annonce Carte",
    "log.drew_timeout": "{name} a pioché {cards} : temps écoulé",
    "log.one_card": "1 carte",
    "log.cards": "{n} cartes",
    "log.passed": "{name} a passé",
    "log.skipped": "{name} saute son tour",
    "log.reversed": "Le sens s'inverse",
    "log.reshuffled": "Défausse remélangée dans la pioche ({n})",
    "log.called": "{name} a annoncé « Carte »",
    "log.denounced": "{name} a dénoncé {other}",
    "log.challenged_bluff": "{name} crie « Menteur » à {other} : bluff",
    "log.challenged_fair": "{name} crie « Menteur » à {other} : pas de bluff",
    "log.timed_out": "Temps écoulé pour {name}",
    "log.start": "Carte de départ : {card}",
    "log.won": "{name} gagne la manche",
    "log.you": "vous",
    "log.you.played": "Vous avez joué {card}",
    "log.you.played_suit": "Vous avez joué {card}, annonce {suit}",
    "log.you.chose": "Vous annoncez {suit}",
    "log.you.drew": "Vous avez pioché {cards}",
    "log.you.drew_penalty": "Vous avez pioché {cards} (pénalité)",
    "log.you.drew_challenge": "Vous avez pioché {cards} : bluff découvert",
    "log.you.drew_denounce": "Vous avez pioché {cards} : pas d'annonce Carte",
    "log.you.drew_timeout": "Vous avez pioché {cards} : temps écoulé",
    "log.you.passed": "Vous avez passé",
    "log.you.skipped": "Vous sautez votre tour",
    "log.you.called": "Vous avez annoncé « Carte »",
    "log.you.denounced": "Vous avez dénoncé {other}",
    "log.you.challenged_bluff": "Vous criez « Menteur » à {other} : bluff",
    "log.you.challenged_fair": "Vous criez « Menteur » à {other} : pas de bluff",
    "log.you.timed_out": "Temps écoulé pour vous",
    "log.you.won": "Vous gagnez la manche",
    **i18n_data.FR,
    **i18n_data.ONLINE_FR,
    **i18n_data.MODES_FR,
    **i18n_online.FR,
}

CATALOGUE: Final = {"en": EN, "fr": FR}

_current = {"lang": "en"}


def system_language() -> str:
    """The language of the system locale, if we have it; else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    try:
        code = locale.getlocale()[0] or ""
    except ValueError:
        code = ""
    return "fr" if code.lower().startswith("fr") else "en"


def set_language(lang: str) -> None:
    """Switch every later `tr` call to ``lang`` (an unknown language means English)."""
    _current["lang"] = lang if lang in CATALOGUE else "en"


def language() -> str:
    """The current language code."""
    return _current["lang"]


def tr(key: str, **values: object) -> str:
    """The string for ``key`` in the current language, with ``values`` filled in."""
    text = CATALOGUE[_current["lang"]].get(key) or EN.get(key) or key
    if values:
        try:
            return text.format(**values)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def option_label(option: Option) -> str:
    """The name of a house rule (`game.engine.OPTIONS`) in the current language."""
    return tr(f"option.{option.name}")


def zero_text(option: Option) -> str:
    """What 0 means for a number option (its declared `Zero`), in the current language."""
    return tr(f"option.zero.{option.zero or Zero.OFF}")


def card_words(card: Card) -> str:
    """A card as the table names it: ``10♥``, ``Joker``, ``Red Skip`` / ``Passer rouge``, ``Wild +4``."""
    if card.code == "W":
        return tr("card.wild")
    if card.code == "W+4":
        return tr("card.wild4")
    if card.rank == "X":
        return tr("card.joker")
    if card.is_standard or card.suit is None:
        return card.label
    rank = {"skip": tr("card.skip"), "rev": tr("card.rev")}.get(card.rank, card.rank)
    return tr("card.colour", colour=tr(f"card.colour.{card.suit}"), rank=rank)


def _rank_words(card: Card) -> str:
    """``an ace``, ``a 7``, ``a Skip``: the top card's rank as something to play."""
    key = f"rank.a.{card.rank}"
    if key in EN:
        return tr(key)
    return tr("rank.a.other", rank="10" if card.rank == "T" else card.rank)


def _is_wild(card: Card, wild: str) -> bool:
    return card.code in ("W", "W+4") or card.rank == "X" or (card.rank == "8" and wild != "wild")


def reason(error: Exception, names: list[str] | None = None, *, colours: bool = False) -> str:
    """An engine refusal (`IllegalAction`) in the current language, seats by their names;
    ``colours``: the game is played with the colour deck (it says "colour", not "suit")."""
    key = getattr(error, "key", "")
    if not key or f"why.{key}" not in EN:
        return str(error)
    from game.engine.cards import SUIT_SYMBOLS

    values = dict(getattr(error, "values", {}))
    suit = values.get("suit")
    none_key = "follow.none.colours" if colours else "follow.none"
    if "suit" in values:
        values["suit"] = ((SUIT_SYMBOLS.get(str(suit)) or tr(f"suit.{suit}").lower()) if suit
                          else tr("suit.none"))
    if "wild" in values:
        values["wild"] = tr(f"wild.{values['wild']}")
    if key == "must_follow":
        return _must_follow(values, suit, none_key, str(getattr(error, "values", {}).get("wild", "")))
    if "card" in values:
        values["card"] = card_words(Card(str(values["card"])))
    for name in ("seat", "to_act"):
        seat = values.get(name)
        if isinstance(seat, int):
            values[name] = names[seat] if names and 0 <= seat < len(names) else tr("new.seat", n=seat + 1)
    if colours and f"why.{key}.colours" in EN:
        return tr(f"why.{key}.colours", **values)
    return tr(f"why.{key}", **values)


def _must_follow(values: dict[str, object], suit: object, none_key: str, wild: str) -> str:
    """"You must follow with a ♥ card or an ace, or play an eight." (no rank when the top card is wild)."""
    follow = tr("follow.suit", suit=values["suit"]) if suit else tr(none_key)
    try:
        top = Card(str(values.get("card")))
    except ValueError:
        return tr("why.must_follow_suit", suit=follow, wild=values.get("wild", ""))
    if _is_wild(top, wild):
        return tr("why.must_follow_suit", suit=follow, wild=values.get("wild", ""))
    return tr("why.must_follow", suit=follow, rank=_rank_words(top), wild=values.get("wild", ""))


set_language(system_language())
