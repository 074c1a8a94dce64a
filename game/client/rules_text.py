"""The "How to play" texts of every preset, in English and French.

Each text is pygame_gui ``UITextBox`` markup restricted to a small subset: ``<b>``,
``<i>``, ``<br>`` and ``<font color='...'>`` for the section headings; lists are
"• " bullets separated by ``<br>``. The rules follow docs/rules.md (the
**[our reading]** lines included); the French follows the wording of the French
sources (pioche, défausse, manche, donneur, « Carte », « Menteur », Terminer…).

``rules_text(preset, lang)`` never raises: an unknown language falls back to
English, an unknown preset gives an empty string. ``rules_pages(preset, lang)`` adds the
pages a rule set has besides its rules (``classic``: its source's five strategy tips and
its short FAQ), each short enough to be read whole at 1024×600.
"""

from __future__ import annotations

from typing import Final

HEADING_COLOUR: Final = "#f0d060"


def _heading(title: str) -> str:
    return f"<font color='{HEADING_COLOUR}'><b>{title}</b></font>"


def _text(aim: str, *sections: tuple[str, tuple[str, ...]]) -> str:
    """The aim line, then each section as a heading over its bullets."""
    parts = [aim]
    for title, bullets in sections:
        parts.append(_heading(title) + "<br>" + "<br>".join("• " + b for b in bullets))
    return "<br><br>".join(parts)


def _faq(title: str, *answers: tuple[str, tuple[str, ...]]) -> str:
    """The title line, then each question as a heading over its answer (no bullets)."""
    return "<br><br>".join([title] + [_heading(question) + "<br>" + "<br>".join(lines)
                                      for question, lines in answers])


# --- English -----------------------------------------------------------------------------------

_EN_PLAY: Final = "Tap or click a glowing card to play it ({wild}). Draw: tap the pile or Draw, or press D."
_EN_KEYS: Final = ("Keys: arrows and Enter; U undoes (where allowed); M lists the round's moves; Esc pauses; "
                   "F11 toggles fullscreen.")

_EN_DUEL: Final = _text(
    "<b>Aim:</b> be the first to get rid of all your cards.",
    ("Setup", (
        "2 players, a 52-card deck without jokers, <b>7</b> cards each. Play on one device, "
        "against the computer (Easy, Medium, Hard) or online with a friend.",
        "Player 1 starts; the first player alternates each round. The starting card is never an eight.",
    )),
    ("Your turn", (
        "Play the same suit or the same rank as the top of the discard pile (9♥ on 9♣, ♠ on ♠).",
        "<b>Eights are wild:</b> play one on anything and choose the next suit; then only that suit "
        "or another eight will do. You may finish on an eight.",
        "Can't play? Draw one card at a time until you can, then play it. "
        "No drawing while you hold a playable card.",
        "No skips, reverses or draw-twos.",
        "Empty draw pile: the discards are shuffled in, keeping the top card and the chosen suit. "
        "Nothing to play or draw: you pass.",
    )),
    ("End and scoring", (
        "Empty your hand to win the round.",
        "Two passes in a row block the round: the lowest hand total wins (eight 50; K, Q, J, 10 are 10; "
        "ace 1; others face value). Equal totals are a tie.",
        "No points carry over between rounds.",
    )),
    ("Controls", (
        _EN_PLAY.format(wild="after an eight, choose the suit"),
        _EN_KEYS,
        "On one device, hand it over before the next hand is shown.",
    )),
    ("Tips", (
        "Plan your last two cards together.",
        "Keeping an eight helps, but it costs 50 if the round is blocked.",
    )),
)

_EN_CLASSIC: Final = _text(
    "<b>Aim:</b> be the first to play every card in your hand.",
    ("Setup", (
        "You against 1 to 3 computers, one 52-card deck.",
        "2 players: 7 cards each; 3 or 4 players: <b>5</b> each. The rest is the face-down draw pile.",
        "The top card starts the discard pile; an eight goes back and another is turned.",
        "You always start; play goes round the table.",
    )),
    ("Your turn", (
        "Play the same suit (♥ on ♥) or the same rank (9 on 9).",
        "<b>Eights are wild:</b> play one on any card and announce the new suit; "
        "the next player must follow it or play another eight.",
        "No playable card? Draw one at a time until you get one, then play it. "
        "You can't draw while holding a playable card.",
        "Empty draw pile: the discards, except the top card, become a new pile. "
        "Nothing left to draw: you pass.",
    )),
    ("End and scoring", (
        "Quick game (default): the first to empty the hand wins the game.",
        "Points game (choose a target): the winner of each round scores the cards left in the other "
        "hands (eight 50; king, queen, jack, 10 are 10; ace 1; others face value), round after round "
        "to the target.",
        "In the rare blocked game (nobody can play or draw), the lowest hand wins.",
    )),
    ("Controls", (
        "Playable cards glow and lift: tap or click one to play it (after an eight, choose the suit). "
        "Draw: tap the pile or Draw, or press D.",
        "Keys: arrows and Enter; U (Undo) takes back your last turn; Esc pauses; F11 toggles fullscreen.",
    )),
)

_EN_CLASSIC_TIPS: Final = _text(
    "<b>Five tips</b> to go out first.",
    ("Strategy tips", (
        "<b>Keep your eights.</b> An eight always plays: it is your way out when you are stuck. "
        "Play one when nothing else will do, or to lay down your last card.",
        "<b>Name the suit you hold most of.</b> After an eight, choose the suit of most of your cards: "
        "you can go on playing while the others may have to draw.",
        "<b>Change suit through a card of the same rank.</b> Short of the suit asked for? Play the "
        "same rank in your strong suit (9♣ on 9♥) and the game turns your way.",
        "<b>Watch who draws.</b> A player who draws had none of that suit. Come back to it when "
        "that player is close to going out.",
        "<b>Shed high cards early.</b> Kings, queens, jacks and 10s are worth 10 each to whoever "
        "goes out before you (in a Points game), and weigh on your hand if the game is blocked. "
        "Play them while you can.",
    )),
)

_EN_CLASSIC_FAQ: Final = _faq(
    "<b>Crazy Eights: frequently asked questions</b>",
    ("What happens when you play an eight?", (
        "The eight is wild: play it on any card, then choose the suit the next player must follow.",
    )),
    ("Is Crazy Eights like Uno?", (
        "Yes, the idea is the same: play a card of the same suit or rank as the top card, and be the "
        "first to empty your hand. Crazy Eights uses a normal 52-card deck, with the eights as wilds "
        "(Huit's Colours rules play a 108-card colour deck).",
    )),
    ("How many cards are dealt?", (
        "Seven each at two players, five each at three or four.",
    )),
    ("Can I draw when I hold a playable card?", (
        "Not in the classic rules: you draw only when no card plays, one at a time until one does. "
        "That keeps the game quick and fair (the house rule <i>May draw with a playable card</i> "
        "allows it).",
    )),
)

_EN_POINTS: Final = _text(
    "<b>Aim:</b> score round after round and reach <b>50</b> points per player.",
    ("Setup", (
        "2 to 7 players, one 52-card deck: 7 cards each at two players, 5 at three or more.",
        "The dealer moves one seat each round; the player after the dealer starts "
        "(the first seat starts the first round).",
    )),
    ("Your turn", (
        "Play the same suit or rank. <b>Eights are wild:</b> choose the next suit.",
        "Can't play? Draw one card: play it if it fits, or keep it and pass "
        "(with <i>Draw until you can play</i> on, keep drawing).",
        "Empty draw pile: the discards are reshuffled; nothing left to draw: you pass.",
    )),
    ("Action cards (house rules, off by default)", (
        "Twos make the next player draw two, the Q♠ five; a player hit draws and loses the turn.",
        "Jacks skip the next player; aces reverse (at two players, a reverse skips).",
        "Values stay the same (two 2, jack and Q♠ 10, ace 1). Going out on one ends the round "
        "without its effect.",
    )),
    ("End and scoring", (
        "Whoever goes out scores the cards left in <b>all</b> other hands: eight 50; "
        "K, Q, J, 10 are 10; ace 1; others face value.",
        "Blocked round: the lowest total scores, from each other player, the difference between "
        "the two totals. A tie for lowest scores nothing.",
        "The game ends after the round in which a score reaches 50 × players (100 at two, 150 at three "
        "… 350 at seven). Highest score wins; a tie for the lead plays another round.",
    )),
    ("Controls", (_EN_PLAY.format(wild="after an eight, choose the suit"), _EN_KEYS)),
    ("Tips", (
        "Being caught with an eight costs the most: saving eights for the end is a risk.",
        "Play your kings, queens, jacks and 10s while you can.",
    )),
)

_EN_COLORS: Final = _text(
    "<b>Aim:</b> be first out of cards, or first to the target in a points game.",
    ("Setup", (
        "2 to 4 players, <b>108</b> cards in red, blue, green and yellow: per colour one 0, two each "
        "of 1–9, +2, Skip and Reverse; plus 4 Wild and 4 Wild +4.",
        "7 cards each; a random player starts, and the turned-up card acts on them "
        "(a Wild +4 is replaced).",
    )),
    ("Your turn", (
        "Match colour, number or symbol. Otherwise draw one and play it if it fits, else pass. "
        "You may also draw instead of playing.",
    )),
    ("Special cards", (
        "<b>+2:</b> the next player draws two and loses the turn, unless they add a +2 (+4, +6 …).",
        "<b>Skip:</b> the next player loses the turn. <b>Reverse:</b> the direction changes. "
        "At two players, both let you play again.",
        "<b>Wild:</b> on anything but a pending +2; choose the colour.",
        "<b>Wild +4:</b> a Wild, and the next player draws four and loses the turn. Legal only with no "
        "card of the current colour, but you may bluff. Accept, or call <b>Liar</b>: a bluffer draws "
        "the four, else the challenger draws six and loses the turn.",
        "<b>Card:</b> with two cards, press Card before playing one. Forget, and anyone may press Card "
        "until the next player's turn ends: you draw two.",
    )),
    ("End and scoring", (
        "Quick game (default): first out wins. Blocked round: the lowest hand wins.",
        "Points game, to 500 unless you choose: the winner adds the other hands (numbers face value; "
        "+2, Skip, Reverse 20; Wild, Wild +4 50).",
        "Pairs at four: partners sit opposite; either going out wins the round for both, and in a "
        "Points game the partners' points add up toward the target.",
        "Turn timer option: when time runs out, the game plays for you.",
    )),
    ("Controls", (_EN_PLAY.format(wild="after a Wild, choose the colour"), _EN_KEYS)),
    ("Tips", (
        "Press Card as soon as you are down to two.",
        "Call Liar only when fairly sure: a wrong call costs six cards.",
    )),
)

_EN_ACTION: Final = _text(
    "<b>Aim:</b> be the first to get rid of all your cards.",
    ("Setup", (
        "2 to 6 players, two 52-card decks and 4 jokers (108 cards), so identical cards exist.",
        "<b>10</b> cards each; a random player starts. Arrows round the discard pile show the direction.",
    )),
    ("Your turn", (
        "Play the same suit or rank as the top card. <b>Eights are wild:</b> choose the suit.",
        "Can't play? Draw one. <b>Good draw:</b> if it plays, play it at once or pass.",
        "<b>10 seconds</b> a turn: run out and you take a penalty card; the turn passes.",
    )),
    ("Special cards", (
        "<b>Jack = Skip:</b> the next player loses the turn. <b>Queen = Reverse</b> "
        "(a skip at two players).",
        "<b>King = +2, joker = +4</b> (wild: announce the suit). \"+\" cards add up: whoever can't "
        "outbid draws the total and loses the turn. +2 or +4 on a +2; only +4 on a +4.",
        "<b>The 10:</b> play again in the same suit; if you can't, draw one and play it if it follows. "
        "Never your last card.",
        "<b>Twin card:</b> a card identical to the top card lets you play another (not action cards).",
        "<b>Runs:</b> after a number card, go on in the same suit one rank up (5♥ 6♥ 7♥ …; ace low, "
        "no wrap); stop with <b>End turn</b>. An eight or action card ends it.",
    )),
    ("End and scoring", (
        "The first out scores the opponents' cards: ace 10, 2 is 20 … 7 is 70, 9 is 90, 10 is 200, "
        "eight 5000, Reverse 500, Skip 750, +2 1250, +4 2500.",
        "Blocked round (rare): the lowest hand wins.",
    )),
    ("Controls", (_EN_PLAY.format(wild="after an eight or joker, choose the suit"), _EN_KEYS)),
    ("Tips", (
        "An eight is worth 5000 to the winner: don't get caught holding one.",
        "Keep a joker: only a +4 answers a +4.",
    )),
)

# --- Français ----------------------------------------------------------------------------------

_FR_PLAY: Final = ("Touchez ou cliquez sur une carte qui brille pour la poser ({wild}). "
                   "Piocher : touchez la pioche ou le bouton Piocher, ou appuyez sur D.")
_FR_KEYS: Final = ("Clavier : flèches et Entrée ; U : annuler (si permis) ; M : les coups de la manche ; "
                   "Échap : pause ; F11 : plein écran.")

_FR_DUEL: Final = _text(
    "<b>But :</b> être le premier à vider sa main.",
    ("Mise en place", (
        "2 joueurs, un jeu de 52 cartes sans jokers, <b>7</b> cartes chacun. Jouez sur le même appareil, "
        "contre l'ordinateur (Facile, Moyen, Difficile) ou avec un ami en ligne.",
        "Le joueur 1 commence, puis le premier joueur alterne à chaque manche. "
        "La carte de départ n'est jamais un huit.",
    )),
    ("À votre tour", (
        "Posez une carte de même couleur ou de même valeur que le dessus de la défausse "
        "(9♥ sur 9♣, ♠ sur ♠).",
        "<b>Les huit passent partout :</b> choisissez alors la couleur suivante ; ensuite, seule cette "
        "couleur ou un autre huit convient. On peut finir avec un huit.",
        "Sans carte jouable, piochez une carte à la fois jusqu'à pouvoir jouer, puis posez-la. "
        "La pioche est interdite si vous pouvez jouer.",
        "Aucun saut de tour, changement de sens ou malus de deux cartes.",
        "Pioche vide : les défausses sont mélangées en conservant la carte du dessus et la couleur "
        "choisie. Ni jeu ni pioche possible : passez.",
    )),
    ("Fin de la manche", (
        "Videz votre main pour gagner.",
        "Deux passes consécutives bloquent la manche : le plus petit total gagne (huit 50 ; roi, dame, "
        "valet, 10 : 10 ; as 1 ; autres cartes à leur valeur). Même total : égalité.",
        "Aucun score cumulé entre les manches.",
    )),
    ("Commandes", (
        _FR_PLAY.format(wild="après un huit, choisissez la couleur"),
        _FR_KEYS,
        "Sur un seul appareil, passez-le avant de dévoiler la main suivante.",
    )),
    ("Conseils", (
        "Préparez vos deux dernières cartes ensemble.",
        "Garder un huit peut aider, mais il vaut 50 en cas de blocage.",
    )),
)

_FR_CLASSIC: Final = _text(
    "<b>But :</b> être le premier à poser toutes les cartes de sa main.",
    ("La distribution", (
        "Vous contre un, deux ou trois ordinateurs, avec un jeu normal de 52 cartes.",
        "À deux joueurs, 7 cartes chacun ; à trois ou quatre, <b>5</b>. Le reste forme la pioche, "
        "face cachée.",
        "La première carte retournée commence la défausse ; si c'est un 8, il retourne dans la pioche "
        "et on en retourne une autre.",
        "Vous commencez toujours, puis chacun joue à son tour autour de la table.",
    )),
    ("Déroulement d'un tour", (
        "Posez une carte de même couleur (♥ sur ♥) ou de même valeur (9 sur 9).",
        "<b>Les 8 sont des jokers :</b> posez-en un sur n'importe quelle carte et annoncez la couleur ; "
        "le joueur suivant doit la suivre ou poser un autre 8.",
        "Aucune carte jouable ? Piochez une carte à la fois jusqu'à pouvoir en poser une, puis posez-la. "
        "Pas de pioche avec une carte jouable en main.",
        "Pioche vide : la défausse, sauf sa carte du dessus, forme une nouvelle pioche. "
        "Plus rien à piocher : vous passez.",
    )),
    ("Fin de la partie et score", (
        "Partie rapide (par défaut) : le premier qui vide sa main gagne la partie.",
        "Partie aux points (choisissez l'objectif) : le gagnant de chaque manche marque les cartes des "
        "autres mains (50 par 8 ; 10 par roi, dame, valet ou 10 ; 1 par as ; la valeur du chiffre pour "
        "les autres), manche après manche jusqu'à l'objectif.",
        "Si personne ne peut ni jouer ni piocher (c'est rare), la partie est bloquée : "
        "la main qui vaut le moins gagne.",
    )),
    ("Commandes", (
        "Les cartes jouables brillent et se soulèvent : touchez-en une pour la poser (après un 8, "
        "choisissez la couleur). Piocher : touchez la pioche ou le bouton Piocher, ou appuyez sur D.",
        "Clavier : flèches et Entrée ; U (Annuler) reprend votre dernier tour ; Échap : pause ; "
        "F11 : plein écran.",
    )),
)

_FR_CLASSIC_TIPS: Final = _text(
    "<b>Cinq conseils</b> pour finir le premier.",
    ("Conseils de stratégie", (
        "<b>Gardez vos 8.</b> Un 8 se joue toujours : c'est votre porte de sortie quand vous êtes "
        "bloqué. Posez-le quand vous n'avez rien d'autre, ou pour poser votre dernière carte.",
        "<b>Annoncez votre couleur la plus fournie.</b> Après un 8, choisissez la couleur dont vous "
        "avez le plus de cartes : vous continuerez à jouer pendant que les autres devront peut-être "
        "piocher.",
        "<b>Changez de couleur avec une même valeur.</b> Peu de cartes dans la couleur demandée ? "
        "Posez la même valeur dans votre couleur forte (9♣ sur 9♥) pour faire basculer le jeu.",
        "<b>Regardez qui pioche.</b> Un joueur qui pioche n'avait pas cette couleur. Revenez-y "
        "quand il est près de finir.",
        "<b>Débarrassez-vous tôt des grosses cartes.</b> Rois, dames, valets et 10 valent 10 points "
        "chacun pour qui finit avant vous (dans une partie aux points) et alourdissent votre main "
        "si la partie est bloquée. Jouez-les tant que vous pouvez.",
    )),
)

_FR_CLASSIC_FAQ: Final = _faq(
    "<b>Huit américain : questions fréquentes</b>",
    ("Que se passe-t-il quand on joue un 8 ?", (
        "Le 8 est un joker : posez-le sur n'importe quelle carte, puis choisissez la couleur que le "
        "joueur suivant doit jouer.",
    )),
    ("Le Huit américain ressemble-t-il au Uno ?", (
        "Oui, le principe est le même : poser une carte de même couleur ou de même valeur que celle du "
        "dessus, et vider sa main le premier. Le Huit américain se joue avec un jeu normal de 52 "
        "cartes, dont les 8 sont les jokers (les règles Couleurs de Huit jouent un jeu de 108 cartes "
        "en couleurs).",
    )),
    ("Combien de cartes distribue-t-on ?", (
        "Sept cartes chacun à deux joueurs, cinq chacun à trois ou quatre.",
    )),
    ("Puis-je piocher si j'ai une carte jouable ?", (
        "Pas dans les règles classiques : vous ne piochez que si aucune carte ne se joue, une à la "
        "fois jusqu'à pouvoir en poser une. La partie reste rapide et équitable (la règle maison "
        "<i>Piocher même si l'on peut jouer</i> le permet).",
    )),
)

_FR_POINTS: Final = _text(
    "<b>But :</b> marquer manche après manche jusqu'à <b>50</b> points par joueur.",
    ("Mise en place", (
        "2 à 7 joueurs, un jeu de 52 cartes : 7 cartes chacun à deux joueurs, 5 à partir de trois.",
        "Le donneur change d'un siège à chaque manche ; le joueur qui suit le donneur commence "
        "(le premier siège ouvre la première manche).",
    )),
    ("À votre tour", (
        "Même couleur ou même valeur. <b>Les huit passent partout :</b> choisissez la couleur suivante.",
        "Sans carte jouable, piochez-en une : posez-la si elle convient, ou gardez-la et passez "
        "(avec <i>Piocher jusqu'à pouvoir jouer</i>, continuez à piocher).",
        "Pioche vide : la défausse est remélangée ; plus rien à piocher : vous passez.",
    )),
    ("Cartes d'action (règles maison, désactivées au départ)", (
        "Un deux fait piocher deux cartes au suivant, la dame de pique (D♠) cinq ; "
        "il pioche et perd son tour.",
        "Les valets font passer le suivant ; les as inversent le sens (à deux, ils font passer).",
        "Valeur habituelle (deux 2, valet et dame de pique 10, as 1). "
        "Finir sur l'une d'elles termine la manche sans son effet.",
    )),
    ("Fin de manche et score", (
        "Qui finit marque les cartes de <b>tous</b> les autres : huit 50 ; roi, dame, valet, dix 10 ; "
        "as 1 ; les autres à leur valeur faciale.",
        "Manche bloquée : le plus petit total marque la différence avec chacune des autres mains ; "
        "une égalité pour le plus petit total ne rapporte rien.",
        "La partie se termine à la fin de la manche où un score atteint 50 points par joueur "
        "(100 à deux, 150 à trois… 350 à sept). Le meilleur score gagne ; "
        "à égalité en tête, on joue une manche de plus.",
    )),
    ("Commandes", (_FR_PLAY.format(wild="après un huit, choisissez la couleur"), _FR_KEYS)),
    ("Conseils", (
        "Se faire prendre avec un huit coûte le plus cher : garder ses huit pour la fin est risqué.",
        "Jouez vos rois, dames, valets et dix tant que vous le pouvez.",
    )),
)

_FR_COLORS: Final = _text(
    "<b>But :</b> vider sa main le premier ou, dans une partie aux points, atteindre le score fixé.",
    ("Mise en place", (
        "2 à 4 joueurs, <b>108</b> cartes en rouge, bleu, vert et jaune : par couleur, un 0 et, en double, "
        "les chiffres 1 à 9, +2, Passer son tour et Changement de sens ; plus 4 Jokers et 4 Jokers +4.",
        "7 cartes chacun ; un joueur tiré au hasard commence et subit la carte retournée "
        "(un Joker +4 est remplacé).",
    )),
    ("À votre tour", (
        "Même couleur ou même valeur. Sinon, piochez une carte : posez-la si elle convient, "
        "sinon passez. Vous pouvez aussi piocher au lieu de jouer.",
    )),
    ("Cartes spéciales", (
        "<b>+2 :</b> le suivant pioche 2 cartes et passe son tour, sauf s'il pose un +2 "
        "(+4, +6…).",
        "<b>Passer son tour :</b> le suivant ne joue pas. <b>Changement de sens :</b> le sens s'inverse. "
        "À deux, les deux vous font rejouer.",
        "<b>Joker :</b> se pose sur tout, sauf sur un +2 en attente ; choisissez la couleur.",
        "<b>Joker +4 :</b> le suivant pioche 4 cartes et passe son tour. Permis seulement sans carte "
        "de la couleur demandée, mais on peut bluffer. Le suivant accepte ou crie <b>« Menteur »</b> : "
        "le tricheur pioche les 4 ; sinon, l'accusateur en pioche 6 et passe son tour.",
        "<b>« Carte » :</b> à 2 cartes, touchez Carte avant d'en poser une. Un oubli ? Jusqu'à la fin "
        "du tour suivant, on peut vous dénoncer : vous piochez 2 cartes.",
    )),
    ("Fin et score", (
        "Partie rapide (par défaut) : le premier sans carte gagne. Manche bloquée : "
        "la plus petite main gagne.",
        "Partie aux points (500 par défaut) : le gagnant ajoute les cartes adverses "
        "(chiffres à leur valeur ; +2, Passer, Changement de sens 20 ; Jokers 50).",
        "Jeu en paire à quatre : partenaires face à face ; la paire gagne dès que l'un "
        "finit, et ses points s'additionnent vers l'objectif.",
        "Option temps de jeu : temps écoulé, le jeu joue pour vous.",
    )),
    ("Commandes", (_FR_PLAY.format(wild="après un Joker, choisissez la couleur"), _FR_KEYS)),
    ("Conseils", (
        "Touchez Carte dès qu'il vous reste deux cartes.",
        "Ne criez « Menteur » que si vous êtes presque sûr : une erreur coûte 6 cartes.",
    )),
)

_FR_ACTION: Final = _text(
    "<b>But :</b> être le premier à vous défausser de toutes vos cartes.",
    ("Mise en place", (
        "2 à 6 joueurs, deux jeux de 52 cartes et 4 jokers (108 cartes) : des cartes identiques existent.",
        "<b>10</b> cartes chacun ; un joueur tiré au hasard commence. Les flèches autour de la défausse "
        "indiquent le sens.",
    )),
    ("À votre tour", (
        "Jouez une carte de même couleur ou portant le même symbole. <b>Les huit passent partout :</b> "
        "choisissez la couleur.",
        "Sinon, tirez une carte. <b>Bonne pioche :</b> si elle est jouable, jouez-la aussitôt ou passez.",
        "<b>10 secondes</b> par tour : passé ce délai, vous recevez une carte de pénalité et le tour passe.",
    )),
    ("Cartes spéciales", (
        "<b>Valet = « Passer » :</b> le suivant passe son tour. <b>Dame = « Contre-sens »</b> "
        "(à deux, elle fait passer).",
        "<b>Roi = +2, joker = +4</b> (passe partout : annoncez la couleur). Les « + » s'accumulent : "
        "qui ne peut pas surenchérir pioche le total et perd son tour. +2 ou +4 sur un +2, "
        "jamais +2 sur +4.",
        "<b>Le 10 :</b> rejouez une carte de la même couleur ; sinon, piochez-en une et posez-la si "
        "elle suit. Impossible de finir sur un 10.",
        "<b>Carte jumelle :</b> une carte identique à celle du dessus permet d'en poser une autre "
        "(pas les cartes spéciales).",
        "<b>Suite :</b> après une carte numérotée, enchaînez la même couleur, un rang au-dessus "
        "(5♥ 6♥ 7♥…, as en bas, sans boucle) ; arrêtez avec <b>Terminer</b>. Un huit ou une carte "
        "spéciale clôt la suite.",
    )),
    ("Calcul des points", (
        "Le premier sans carte marque les cartes adverses : as 10, 2 = 20… 7 = 70, 9 = 90, "
        "10 = 200, huit 5000, Contre-sens 500, Passer 750, +2 1250, +4 2500.",
        "Manche bloquée (rare) : la plus petite main gagne.",
    )),
    ("Commandes", (_FR_PLAY.format(wild="après un huit ou un joker, choisissez la couleur"), _FR_KEYS)),
    ("Conseils", (
        "Un huit vaut 5000 points au gagnant : ne vous faites pas prendre avec.",
        "Gardez un joker : seul un +4 surenchérit sur un +4.",
    )),
)

RULES_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "duel": _EN_DUEL,
        "classic": _EN_CLASSIC,
        "points": _EN_POINTS,
        "colors": _EN_COLORS,
        "action": _EN_ACTION,
    },
    "fr": {
        "duel": _FR_DUEL,
        "classic": _FR_CLASSIC,
        "points": _FR_POINTS,
        "colors": _FR_COLORS,
        "action": _FR_ACTION,
    },
}
"""Language ("en", "fr") → preset name → the "How to play" markup."""


PAGES: Final = ("rules", "tips", "faq")
"""The kinds of page How to play may show for a rule set, in order."""

MORE_PAGES: dict[str, dict[str, dict[str, str]]] = {
    "en": {"classic": {"tips": _EN_CLASSIC_TIPS, "faq": _EN_CLASSIC_FAQ}},
    "fr": {"classic": {"tips": _FR_CLASSIC_TIPS, "faq": _FR_CLASSIC_FAQ}},
}
"""Language → preset → page (``tips``, ``faq``) → markup: the pages a rule set has besides its
rules. The classic source's five strategy tips and its short FAQ are the classic rules' own."""


def rules_pages(preset: str, lang: str) -> tuple[tuple[str, str], ...]:
    """Every page of ``preset``'s How to play in ``lang``, as (kind, markup), the rules first
    (kinds from `PAGES`). Falls back as `rules_text` does; never raises."""
    rules = rules_text(preset, lang)
    if not isinstance(preset, str):
        return (("rules", rules),)
    english = MORE_PAGES["en"].get(preset, {})
    pages = MORE_PAGES.get(lang, MORE_PAGES["en"]) if isinstance(lang, str) else MORE_PAGES["en"]
    more = pages.get(preset, {})
    return (("rules", rules),) + tuple((kind, more.get(kind) or english[kind]) for kind in PAGES
                                       if kind in english)


def rules_text(preset: str, lang: str) -> str:
    """The "How to play" text of ``preset`` in ``lang``.

    An unknown language falls back to English; an unknown preset gives "". Never raises.
    """
    if not isinstance(preset, str):
        return ""
    english = RULES_TEXT["en"]
    texts = RULES_TEXT.get(lang, english) if isinstance(lang, str) else english
    return texts.get(preset) or english.get(preset) or ""
