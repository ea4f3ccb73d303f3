"""The rules digest in player words: the data the rules reference page shows and citations open.

One ``Section`` per numbered part of the project's rules digest (docs RULES.md), its paragraphs and how sure the
project is of them, and one ``Page`` per rulebook page (or pair) a refusal cites, with what it rules in one line.
The text is written by the project, never copied from the rulebook; ``words/rules_reference`` links to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import LazyString

from companion.web.words.catalogue import lazy_gettext

__all__ = ["SECTIONS", "Section"]

_ = lazy_gettext


@dataclass(frozen=True)
class Section:
    """One section of the digest: its number (``4.3``), title, paragraphs and how sure it is."""

    number: str
    title: LazyString
    body: tuple[LazyString, ...]
    sure: LazyString

    @property
    def anchor(self) -> str:
        return "s" + self.number.replace(".", "-")

    @property
    def top(self) -> bool:
        """A numbered chapter (``4``) rather than one of its parts (``4.3``)."""
        return "." not in self.number


_SURE = _("Sure: the project's notes on the rulebook, or several sources that agree, say so.")
_FAIRLY = _("Fairly sure: one detailed source (a player's teaching script) says so; the rulebook was not checked.")

SECTIONS: tuple[Section, ...] = (
    Section(
        "1",
        _("What is in the box"),
        (
            _(
                "The board has two halves: Hell (nine circles and the sin tracks) below, Florence above. "
                "It is double-sided: one side for 1 or 2 players, the other for 3 or 4."
            ),
            _(
                "Souls come in nine colours, one per circle. Each player has 4 nobles, 4 urchins, a tower, "
                "4 guests in the Palace and 4 barrels in the Market. There are 8 locations, 6 guardians "
                "(2 in play each game), plague cards, fraud cards, Dante's pawn and the Phlegethon cubes."
            ),
        ),
        _("Mostly sure; how many souls of each colour the box holds is unknown."),
    ),
    Section(
        "2",
        _("Setting up"),
        (
            _("Inferno is for 1 to 4 players. Pick the board side for your number of players."),
            _(
                "Each of the four quarters of Florence gets one free location and one special location, "
                "at random. The bonus tiles (4 silver, 4 gold) go at random beside the sin tracks, and each "
                "Phlegethon cube on its printed space."
            ),
            _(
                "Turn over the first plague card: its souls go to the Cemetery. Dante starts on the first "
                "space of his path for your number of players; with 3 players, add the shortcut tile."
            ),
            _(
                "Pick 2 of the 6 guardians at random. Each player takes a family card (starting florins, "
                "drachmas, family members and one or two skulls on the sin tracks) and 2 fraud cards."
            ),
        ),
        _("Fairly sure; the order of the steps and where the base guardians start are estimated."),
    ),
    Section(
        "3",
        _("The board"),
        (
            _(
                "Circles from the top: 1 Limbo (beige pagans, no sin track), 2 Lust (purple), 3 Gluttony "
                "(green), 4 Greed (yellow), 5 Sloth (blue), 6 Heresy (orange), 7 Violence (red), 8 Fraud "
                "(grey), 9 Treason (ice blue)."
            ),
            _(
                "Each sin has a location in Florence of its colour: the Haystack, the Banquet, the Bank and "
                "the Courtyard (free) for circles 2 to 5; the Bonfire, the Wall, the Market and the Palace "
                "(special) for circles 6 to 9."
            ),
        ),
        _("Fairly sure; some sources name the colours differently, so the app goes by circle and sin."),
    ),
    Section(
        "3.2",
        _("Shields and lines"),
        (
            _(
                "Each circle is a row of shields, each showing the symbol of one quarter of Florence. Lines "
                "join each shield to shields of the circle below."
            ),
            _("A shield holds one piece: a soul never shares a shield."),
            _(
                "How many shields each circle has and where the lines run is unknown: the app takes them "
                "from the edition, and your table can correct them for its own board."
            ),
        ),
        _SURE,
    ),
    Section(
        "3.3",
        _("The rivers"),
        (
            _(
                "Acheron: to bring a soul into Hell, pay Charon 1 drachma and put a soul from the Cemetery "
                "on an empty shield of Limbo."
            ),
            _("Styx: not a crossing but an action of the Bonfire (see §4.6)."),
            _("Phlegethon: the row of 8 cubes that sets what each sin track is worth at the end (see §7.2)."),
        ),
        _SURE,
    ),
    Section(
        "3.4",
        _("The Wall of Dis"),
        (
            _(
                "The Wall stands between circles 5 and 6. A soul crosses it only through a gate where you "
                "have already put one of your own safe-passage discs; other players' discs do not count."
            ),
            _("You put discs at the Bonfire. Some guardians let a soul cross without a disc."),
            _("How many gates the Wall has is estimated: probably one above each shield of circle 6."),
        ),
        _("Sure for the disc rule; the number of gates is uncertain."),
    ),
    Section(
        "3.5",
        _("Sin tracks"),
        (
            _(
                "Each circle from 2 to 9 has a sin track. Your skull climbs it when you accuse, at the "
                "Styx, by some fraud cards and bonuses, or from your family card at the start."
            ),
            _("Each track has a diploma area: a player holds at most one diploma per track."),
            _("How long the tracks are (the highest skull level) is unknown; the app takes it from the edition."),
        ),
        _("Sure for how skulls climb; the track length is unknown."),
    ),
    Section(
        "3.6",
        _("Dante's path"),
        (
            _("Each accusation moves Dante one step, and that step's reward happens at once:"),
            _(
                "a pagan step puts a beige soul into the Cemetery, and you may also use a guardian; a fraud "
                "step lets you play a fraud card; a diploma step gives that circle's diploma to the highest "
                "skull on its track (every tied player gets one); the last step, the gate of Purgatory, "
                "gives the accuser 2 infamy and the Treason diploma, and starts the end of the game."
            ),
            _(
                "The order of the steps, how many there are and where Dante starts for each number of "
                "players are unknown: the app takes them from the edition."
            ),
        ),
        _FAIRLY,
    ),
    Section(
        "3.7",
        _("Florence"),
        (
            _(
                "The symbol on the shield where your soul stopped sets the quarter you may use this turn. "
                "Placing never blocks: you may place where other pieces already stand."
            ),
            _("A noble pays 1 florin to enter a special location; an urchin enters free."),
            _(
                "Haystack: take an urchin from your reserve. Banquet: add a floor to your tower. Bank: "
                "2 florins plus 1 per guest in your tower. Courtyard: send up to two of your members home "
                "from the tower, and rearrange your tower."
            ),
            _(
                "Bonfire: change up to 3 florins for drachmas; move a Phlegethon cube one space right or "
                "put a safe-passage disc; and pay 1 drachma to use a guardian or 2 to use the Styx."
            ),
            _(
                "Wall: change up to 2 florins; pay 2 drachmas to play a fraud card; deliver a barrel from "
                "your tower for infamy (how much is estimated). Market: take a barrel. Palace: take a guest "
                "and gain florins equal to its floor's height. Never two barrels, or two guests, of one colour."
            ),
            _(
                "To accuse at a special location you need a guest of its colour in your tower. The exchange "
                "rate of florins for drachmas is estimated at one for one."
            ),
        ),
        _("Sure for the quarter and placing; each location's action is fairly sure (one detailed source)."),
    ),
    Section(
        "4",
        _("A turn"),
        (
            _(
                "Players take turns clockwise; there are no rounds. Each turn has two phases, in this "
                "order: the Hell phase (move one soul), then the Florence phase (one action)."
            ),
            _("You cannot skip a phase or act out of turn."),
        ),
        _SURE,
    ),
    Section(
        "4.1",
        _("The Hell phase"),
        (
            _(
                "Move exactly one soul: either a standing soul already in Hell, or a soul from the Cemetery "
                "(pay 1 drachma and put it on an empty shield of Limbo)."
            ),
            _(
                "A soul moves down a line to the next circle. If that shield is taken, it keeps falling "
                "along the lines to the next empty shield. It never goes below the circle of its own colour."
            ),
            _(
                "When it reaches its own circle it is laid down and you score that circle's infamy (how "
                "much each circle pays is estimated). A laid-down soul never moves again."
            ),
            _(
                "With no drachma to pay, you must take a loan. If no soul can move at all, the game ends at "
                "once (sudden death)."
            ),
        ),
        _("Sure; that you must take a loan when you cannot pay is fairly sure (one detailed source)."),
    ),
    Section(
        "4.2",
        _("The Florence phase"),
        (
            _(
                "Choose one: send a family member from your home to a location of the turn's quarter (or of "
                "any quarter for 2 drachmas) and take its action; or accuse (§4.3); or hold a family council."
            ),
            _(
                "Family council: only when you can neither send nor accuse. Lose 2 infamy, then bring one "
                "member home, a guest back to the Palace or a barrel back to the Market."
            ),
        ),
        _("Sure for the choices; the family council is fairly sure (one detailed source)."),
    ),
    Section(
        "4.3",
        _("Accusing"),
        (
            _(
                "You may accuse at a location where you already have a family member from an earlier turn, "
                "if you meet its requirement, in the turn's quarter or another one for 2 drachmas."
            ),
            _(
                "Then, in order: the accuser goes to your tower; your other members in Florence go home; a "
                "soul of the location's colour goes to the Cemetery; your skull climbs that colour's track "
                "and you take its bonus tile; Dante moves one step (§3.6)."
            ),
        ),
        _("Sure; paying 2 drachmas to accuse in another quarter is fairly sure (one detailed source)."),
    ),
    Section(
        "4.4",
        _("The Cemetery and plague cards"),
        (
            _(
                "When the Cemetery is empty, turn over the next plague card and put its souls in the "
                "Cemetery (reportedly 4 per card)."
            ),
            _("What happens when the plague cards run out is unknown."),
        ),
        _("Sure for the refill; the number of souls per card is fairly sure."),
    ),
    Section(
        "4.5",
        _("Using a guardian"),
        (
            _(
                "A guardian is used at the Bonfire for 1 drachma, or at a pagan step of Dante's path. Move it "
                "to another empty shield, then apply its effect to nearby souls."
            ),
            _("Its effect never sends a soul below its own circle. You may move it without using its effect."),
        ),
        _("Sure for how a guardian is used; its cost at the Bonfire is fairly sure (one detailed source)."),
    ),
    Section(
        "4.6",
        _("The River Styx"),
        (
            _(
                "At the Bonfire, for 2 drachmas, return souls of one colour from the Cemetery: 1 soul for a "
                "step on one of the first four tracks (circles 2 to 5), 2 souls for one of the last four "
                "(circles 6 to 9), 3 souls for one of each."
            ),
            _("With a single soul in the Cemetery only the first option is open, and the Cemetery refills at once."),
        ),
        _("Sure for the options; the cost of 2 drachmas is fairly sure."),
    ),
    Section(
        "4.7",
        _("Fraud cards"),
        (
            _(
                "You play one at the Wall (2 drachmas) or at a fraud step of Dante's path: from your hand, "
                "or from the face-up row or the deck for 1 drachma more."
            ),
            _(
                "Its left half needs the barrels shown in your tower (they stay there) and gives one reward "
                "you choose. Its right half scores at the end, only if its requirement is met then."
            ),
            _("The list of cards is unknown: the app takes it from the edition."),
        ),
        _FAIRLY,
    ),
    Section(
        "5",
        _("Money, loans and infamy"),
        (
            _(
                "Florins pay in Florence: a noble at a special location, changing into drachmas. Drachmas "
                "pay in Hell: the Acheron, another quarter, a guardian, the Styx, a fraud card."
            ),
            _(
                "A loan, any time you need drachmas: your ship moves one space down the loan track and you "
                "gain 2 drachmas. Passing the penalty symbol costs 5 infamy at once. At the end you lose the "
                "points printed where your ship stands. The loan track's values are estimated."
            ),
            _(
                "Infamy is the score. You gain it when a soul reaches its circle, by barrels, by Dante's last "
                "step, and by cards; you lose it by a family council and by loans."
            ),
        ),
        _("Fairly sure; the loan penalties and each circle's value are estimated."),
    ),
    Section(
        "6",
        _("The guardians"),
        (
            _("The game has 6 guardians; 2 are used each game."),
            _("Medusa petrifies a soul: it is laid down where it stands, scores nothing and keeps its shield."),
            _(
                "Cerberus and the Minotaur move souls or let them cross the Wall; Minos and Geryon are named "
                "in the sources. Their exact effects are unknown, and so is the sixth guardian: the app's "
                "effects for them are estimated, and your table can correct them."
            ),
        ),
        _("Fairly sure for Medusa; the others are estimated."),
    ),
    Section(
        "7",
        _("The end of the game"),
        (_("The game ends when Dante reaches the gate of Purgatory, or at once by sudden death."),),
        _SURE,
    ),
    Section(
        "7.1",
        _("When the game ends"),
        (
            _(
                "When an accusation brings Dante to the last step, each other player plays exactly one more "
                "turn; the player who accused does not play again. Then final scoring."
            ),
            _(
                "If the active player has no soul move at all, the game ends at once (sudden death), and "
                "final scoring follows."
            ),
        ),
        _("Sure for what ends the game; that scoring after a sudden death is the usual one is fairly sure."),
    ),
    Section(
        "7.2",
        _("Final scoring"),
        (
            _("In this order:"),
            _("1. Fraud cards: each right half whose requirement is met scores."),
            _("2. The Phlegethon: each cube moves one space left per empty shield of its circle, never below 1."),
            _("3. Every 2 half-diplomas make one diploma, on a track where you have none."),
            _("4. Each track where you hold a diploma scores its Phlegethon value times your skull level."),
            _("5. Loans: lose the points printed where your ship stands."),
            _("The most infamy wins. The tie-breakers are unknown."),
        ),
        _("Sure for the steps; their order is fairly sure."),
    ),
    Section(
        "8",
        _("Playing alone"),
        (
            _(
                "The solo rules are known only from a review and a fan-made app, which disagree; the "
                "companion does not guide a solo game."
            ),
        ),
        _("Uncertain."),
    ),
    Section(
        "9",
        _("The Plutus & Phlegyas expansion"),
        (
            _(
                "Plutus starts on the far-left shield of the Greed circle; each player has 2 desks. Using "
                "him: move him to an empty shield and put one of your desks just below a shield next to "
                "him. Whoever moves a soul across another player's desk pays its owner 1 drachma. A desk "
                "never fills a shield at scoring."
            ),
            _(
                "Phlegyas starts on the far-right shield of circle 5. Using him means taking a bell. Instead "
                "of your Hell-phase move you may ring a bell: move Phlegyas to an empty shield, slide a soul "
                "of that circle to another empty shield of the same circle, then make a normal move with it. "
                "The slide is allowed only if that move is then possible."
            ),
        ),
        _("Sure: the project's notes on the expansion's rulebook; a few details are open."),
    ),
    Section(
        "10",
        _("Open questions"),
        (
            _(
                "Without the rulebook many numbers are unknown: the shields and lines of each circle, the "
                "Phlegethon scale, the track lengths, the loan penalties, each circle's infamy, Dante's path "
                "and the card texts. The app keeps each in the edition, marked as estimated, so your table "
                "can correct it for its copy."
            ),
        ),
        _("Unknown."),
    ),
    Section(
        "10.7",
        _("Fraud cards at the end"),
        (
            _(
                "Unknown: whether only the fraud cards you played score at the end, or also the cards left "
                "in your hand. The edition's assumption decides, and your table can switch it."
            ),
        ),
        _("Unknown."),
    ),
    Section(
        "10.15",
        _("The guardians' exact effects"),
        (
            _(
                "Unknown: the sixth guardian's name, the exact effects of all six, and where the base "
                "guardians start. The app's effects for them are estimated."
            ),
        ),
        _("Unknown."),
    ),
)
