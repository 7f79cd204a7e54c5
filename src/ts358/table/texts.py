"""The texts of every front end (the terminal, the browser) in English, Polish and Czech.

A small message catalogue as data: :data:`MESSAGES` maps a language code to a dict of keys
to ``str.format`` templates. A :class:`Translator` writes them in its language, falling
back to English; the language is always passed, never a global, so two tables in two
languages can share a process. :func:`detect_language` reads the locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``, ``LANGUAGE``, then :func:`locale.getlocale`).

Game names are the ones players say (pl: pik, kier, karo, trefl, bez atu, bez lew; cs:
piky, srdce, káry, kříže, bez trumfů, bez štychů); :func:`parse_game` reads a game in any
of the three languages, with or without diacritics, and the short names of the table (NT,
NoTr, BA, BL, BT, BŠ) in any of them.

Cards are written for people as each language writes them (:func:`card_text`,
:meth:`Translator.card`: ten is 10, the Polish queen and jack D and W) and read back the
same way (:func:`parse_card`), apart from the engine's one notation of records, saves and
bots (``TH``, ``QS``); numbers with decimals take the language's sign (:func:`decimal_text`,
:meth:`Translator.decimal`: ``-1,50`` in Polish and Czech).

How the messages are written, so that they read right in Polish and Czech:

- counts take the plural form of their language (``{count:karta|karty|kart}``,
  :func:`plural_form`), never "card(s)" or "cards: 3";
- a player's name is always in the nominative (no sentence needs it declined), and the
  seats have names of people, which can't be read as words of the game;
- the human has second-person sentences of their own (``ev.trick_you``: "bierzesz ją",
  not "bierze Ty"); in tables and lists the name "Ty" / "Vy" is a label;
- verbs about players are in the present tense, which in Polish and Czech has no gender
  (a past tense would need each player's).
"""

from __future__ import annotations

import locale
import os
import unicodedata
from collections.abc import Iterable, Mapping

from ts358._input import quote
from ts358.bots.seat import Fault
from ts358.cards import Card, NotationError, Rank, Suit
from ts358.deal import Answer
from ts358.players.advice import Advice, Basis
from ts358.refusal import Reason, Refusal
from ts358.rules import Contract, MatchEnd, Role, Rules, Top
from ts358.view import DecisionKind

__all__ = [
    "LANGUAGES",
    "MESSAGES",
    "RANK_LETTERS",
    "Translator",
    "can_encode_symbols",
    "card_text",
    "decimal_text",
    "detect_language",
    "game_name",
    "game_short",
    "games_text",
    "parse_card",
    "parse_game",
    "plural_form",
    "rank_text",
    "role_name",
    "suit_text",
    "t",
]

LANGUAGES = ("en", "pl", "cs")

_EN: dict[str, str] = {
    # seats, roles, games, rules, levels
    "seat.you": "You",
    "seat.left": "Ben",
    "seat.right": "Tom",
    "role.chooser": "chooser",
    "role.third": "third",
    "role.dealer": "dealer",
    "role.top.chooser": "dealer",
    "role.top.third": "left of the dealer",
    "role.top.dealer": "right of the dealer",
    "game.spades": "spades",
    "game.hearts": "hearts",
    "game.diamonds": "diamonds",
    "game.clubs": "clubs",
    "game.no-trump": "no-trump",
    "game.no-tricks": "no-tricks",
    "rules.house": "house",
    "rules.kurnik": "Kurnik",
    "rules.sergeant-major": "Sergeant Major",
    "rules.9-5-2": "9-5-2",
    "rules.overtrump": "overtrump",
    "rules.custom": "custom",
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    "level.expert": "expert",
    # the table
    "table.deal": "Deal {number} of {total}",
    "table.game": "game: {game}",
    "table.no_game": "game not chosen yet",
    "table.trump": "trump",
    "table.tricks_at_most": "{taken}, at most {limit}",
    "table.games_left": "Games left",
    "table.none_left": "none",
    "table.on_table": "On the table:",
    "table.you_lead": "Your lead",
    "table.your_hand": "Your hand",
    "table.first_six": "Your first six cards (the other ten after the choice)",
    "table.talon": "Talon (shown to all): {cards}",
    "table.used": "used",
    # prompts
    "prompt.play": "Your card (e.g. {example} or its number; help = commands)",
    "prompt.choose": "Choose the game (name or number)",
    "prompt.play_only": "Your card (Enter plays {card}, your only legal card; help = commands)",
    "prompt.give": "Give a card to {name} (at most {left} more) or stop",
    "prompt.return": "You received the trump {card}: which card do you return?",
    "prompt.discard": "Discard 4 cards (e.g. {example} or their numbers)",
    "prompt.next_deal": "Enter: deal {number} of {total} (quit: save and stop)",
    "err.next_deal": "'{text}' is not a command: Enter starts the next deal (help lists the commands)",
    # input errors (the prompt repeats)
    "err.not_card": "'{text}' is neither a card nor a command (e.g. {cards} or a number; help lists the commands)",
    "err.number": "there is no card number {number} (1 to {last})",
    "err.not_in_hand": "{card} is not in your hand",
    "err.follow": "{card} is not allowed: you must follow suit ({suit})",
    "err.must_trump": "{card} is not allowed: you have no {suit}, so you must play a trump ({trump})",
    "err.not_game": "'{text}' is not a game (one of: {games})",
    "err.game_used": "you have already chosen {game} in this match (left: {games})",
    "err.discard_count": "discard exactly 4 different cards, not {count}",
    "err.discard_twice": "{card} is named twice: discard 4 different cards",
    "err.no_trump_give": "{card} is a trump: trumps are not exchanged under these rules",
    "err.illegal": "not allowed: {reason}",
    "err.stop_only_give": "stop ends the exchange; now you have to answer with a card",
    # what happened
    "ev.chose": "{name} chose {game}.",
    "ev.you_chose": "You chose {game}.",
    "ev.you_gave": "You gave {given} to {name} and got back {returned}.",
    "ev.gave_you": "{name} gave you {given}; you returned {returned}.",
    "ev.you_gave_none": "You gave no card to {name}.",
    "ev.gave_you_none": "{name} gave you no card.",
    "ev.others_exchanged": "{count} {count:card|cards} changed hands between {a} and {b}.",
    "ev.others_none": "{a} gave no card to {b}.",
    "ev.talon": "The talon is shown: {cards}; {name} takes it.",
    "ev.talon_you": "The talon is shown: {cards}; you take it.",
    "ev.trick": "Trick {number}: {cards}  won by {winner}.",
    "ev.trick_you": "Trick {number}: {cards}  won by you.",
    "short.no-trump": "NT",
    "short.no-tricks": "NoTr",
    # commands
    "help.title": "Commands (accepted at every prompt):",
    "help.text": (
        "  a card: {cards}, or its number in your hand\n"
        "  hint   the expected deal score of each choice (strong computer player)\n"
        "  last   the last trick\n"
        "  talon  the talon and, if you took it, your discard\n"
        "  score  the match score table\n"
        "  help   this list\n"
        "  quit   save the match and stop (resume with ts358 play --resume FILE)\n"
        "  Exchange: give cards one at a time, stop to end.\n"
        "  Discard: four cards in one line."
    ),
    "hint.thinking": "Thinking (Ctrl-C cancels the hint)...",
    "hint.title": "Expected deal score per card (strong computer player):",
    "hint.best": "best",
    "hint.unavailable": "No hint available: {reason}",
    "hint.between_deals": "there is no decision to advise on between deals",
    "hint.cancelled": "Hint cancelled.",
    "hint.estimate": "(estimates: {solved} {solved:layout|layouts} solved, {bounded} cut short by time and counted by the bounds proven)",
    "hint.tied": "(estimates: no layout solved, {bounded} cut short by time; the bounds proven do not tell apart the {count} best-scored choices, so none is marked best)",
    "last.none": "No trick has been completed in this deal yet.",
    "last.trick": "Last trick ({number}): {cards}  won by {winner}.",
    "last.trick_you": "Last trick ({number}): {cards}  won by you.",
    "hint.title_choose": "Expected deal score per game (strong computer player):",
    "hint.title_discard": "Expected deal score of the best discards found (strong computer player):",
    "hint.title_give": "Expected deal score per card to give (strong computer player):",
    "hint.give_note": "(each as if the exchange ended with that card)",
    "hint.stop": "stop",
    "hint.layouts": "(average over {layouts} {layouts:sampled layout|sampled layouts}, each solved exactly)",
    "hint.rollouts": "(estimates: no layout could be solved in time; {layouts} {layouts:sampled layout|sampled layouts} played out by the rule of thumb)",
    "hint.forced": "Only one choice:",
    "hint.rule_of_thumb": "Not valued ({reason}); the rule of thumb's choice:",
    "hint.why_return": "the strong player does not value returns",
    "hint.why_unsolved": "no sampled layout could be solved in time this early in the deal",
    "talon.none": "The talon has not been shown yet in this deal.",
    "talon.unseen": "{name} took the talon without showing it.",
    "table.talon_yours": "Talon (only you saw it): {cards}",
    "ev.talon_taken": "{name} takes the talon without showing it.",
    "ev.talon_taken_you": "You take the talon without showing it: {cards}.",
    "ev.your_discard": "Your discard: {cards}.",
    # scores
    "score.title": "Match score",
    "score.deal": "Deal",
    "score.game": "Game",
    "score.chooser": "Chooser",
    "score.total": "Total",
    "score.none": "No deal has been finished yet.",
    "summary.title": "Deal {number}: {game} (chooser: {name})",
    "col.player": "Player",
    "col.role": "Role",
    "col.tricks": "Tricks",
    "col.score": "Score",
    "col.total": "Total",
    # analysis
    "analysis.running": "Analysing the deal double dummy (--no-analysis skips this)...",
    "analysis.title": "Double-dummy analysis: each player's score before their card, (-n) its cost",
    "analysis.trick": "Trick",
    "analysis.lost": "Lost by own cards (score before minus after): {list}",
    "analysis.lost_part": "Lost by own cards from trick {first} on (score before minus after): {list}",
    "analysis.all_best": "Every card you played was among the best.",
    "analysis.alt": "Trick {number}: you played {card} (score {score}); better: {best} (score {best_score})",
    "analysis.partial": "Time limit reached: analysed from trick {number} on.",
    "analysis.none": "Analysis skipped (time limit).",
    "analysis.cancelled": "Analysis cancelled (Ctrl-C); the match goes on.",
    # match
    "match.start": "Match of {deals} {deals:deal|deals}, {rules} rules, {level} opponents, seed {seed}.",
    "match.seats": "You play against {left} (on your left) and {right} (on your right).",
    "match.first_dealer": "First dealer: {name}.",
    "match.saved": "Match saved to {path}",
    "match.resume_hint": "Resume with: ts358 play --resume {path}",
    "match.resumed": "Resumed the match from {path}: deal {number} of {total}.",
    "match.finished_already": "This match is already finished.",
    "match.final": "Final standings",
    "match.won": "You won!",
    "end.twelve-tricks": "The first player to take 12 tricks in one deal wins the match (after {deals} deals at the latest, the totals decide).",
    "end.target": "The match ends after the deal in which a total reaches {target} (after {deals} deals at the latest).",
    "match.twelve": "{name} took {count} tricks in one deal and wins the match.",
    "match.shared": "You share first place!",
    "match.lost": "You finished in place {place}.",
    "match.result": "Your result: {result} (total × 10). Statistics: ts358 stats",
    "match.interrupted": "Interrupted.",
    "match.stopped": "Stopped ({signal}).",
    "match.record": "Record written to {path}",
    "bot.fault": "{name} (a bot) erred: {kind} ({detail}); the rule of thumb made this decision",
    "bot.handed_over": "{name} (a bot) failed: {kind} ({detail}); the rule of thumb plays its seat for the rest of the match",
    "bot.kind.no_start": "it did not start",
    "bot.kind.late": "no answer in time",
    "bot.kind.malformed": "a line that is not JSON",
    "bot.kind.illegal": "a decision the rules do not allow",
    "bot.kind.oversized": "a line too long",
    "bot.kind.flood": "too many lines",
    "bot.kind.died": "it ended",
    # --auto output
    "auto.start": "{deals} {deals:deal|deals}, seed {seed}, {rules} rules, {level} players",
    "auto.deal": "Deal {number}: {game}, chooser {chooser} (8), third {third} (5), dealer {dealer} (3)",
    "auto.exchange": "  exchange: {giver} gives {given} to {receiver}, gets {returned}",
    "auto.exchange_none": "  exchange: {giver} gives no card to {receiver}",
    "auto.talon": "  talon: {talon}; discard: {discard}",
    "auto.trick_won": "won by {winner}",
    "auto.tricks": "  tricks: {list}",
    "auto.scores": "  scores: {list}",
    "auto.totals": "  totals: {list}",
    "auto.final": "Final standings:",
    # stats
    "stats.title": "Statistics",
    "stats.none": "No finished matches yet: play one with ts358 play.",
    "stats.played": "Played",
    "stats.won": "Won",
    "stats.win_rate": "Win rate",
    "stats.avg_total": "Average total",
    "stats.best_total": "Best total",
    "stats.level": "Level",
    "stats.chooser_games": "Your games as chooser",
    "stats.made": "Made",
    "stats.chosen": "Chosen",
    "stats.leaderboard": "Leaderboard (won matches, result = total × 10)",
    "stats.no_wins": "No won match yet.",
    "stats.rank": "#",
    "stats.result": "Result",
    "stats.date": "Date",
    "stats.deals": "Deals",
    "stats.bad_lines": "{path}: {count} damaged {count:line|lines} skipped",
    # ts358 serve: the page in the browser
    "web.new_match": "New match",
    "web.start": "Start",
    "web.deals": "Deals",
    "web.level": "Opponents",
    "web.rules": "Rules",
    "web.language": "Language",
    "web.humans": "People at the table",
    "web.bot_none": "the level above",
    "web.bot_remote": "a bot on another computer",
    "web.bot_links": "Bots on other computers: each takes its seat with its token (docs/bots.md).",
    "web.humans_1": "you against two computer players",
    "web.humans_more": "{count} people (links for friends)",
    "web.pace": "Pace of the computer players' cards (seconds)",
    "web.analysis": "Double-dummy review after each deal",
    "web.seed": "Seed (to replay a match)",
    "web.random": "random",
    "web.saves": "Saved matches",
    "web.no_saves": "No saved match.",
    "web.unreadable": "Saves that can't be resumed (the files stay in the saves folder):",
    "web.resume": "Resume",
    "web.save_line": "{id}: deal {number} of {total}, {level}",
    "web.stats": "Statistics",
    "web.home": "Start page",
    "web.links": "Links for your friends: each opens one seat; keep them private.",
    "web.link_seat": "Seat of {name}",
    "web.player": "Player {number}",
    "web.your_name": "Your name",
    "web.join": "Take my seat",
    "web.delete": "Delete",
    "web.delete_confirm": "Delete this saved match for good?",
    "web.rules_page": "Rules",
    "web.analysis_board": "Analysis board",
    "web.you_mark": "(you)",
    "web.tricks_label": "tricks",
    "web.total_label": "score",
    "web.trick": "The trick",
    "web.play_card": "Play {card}",
    "web.tap_card": "Tap a card, then here",
    "web.close": "Close",
    "web.you_won": "You won the match.",
    "web.your_place": "Your place: {place}.",
    "lang.en": "English",
    "lang.pl": "Polski",
    "lang.cs": "Čeština",
    "web.hint": "Hint",
    "web.stop": "Stop",
    "web.discard": "Discard",
    "web.next": "Next deal",
    "web.last": "Last trick",
    "web.score": "Score sheet",
    "web.hand": "Your hand",
    "web.choose": "Choose the game from your first six cards.",
    "web.choose_all": "Choose the game.",
    "web.discard_pick": "Pick 4 cards to discard ({count} picked), then confirm.",
    "web.play": "Your card.",
    "web.waiting": "Waiting for {name}.",
    "web.waiting_next": "Waiting for the others to go on.",
    "web.thinking": "Thinking...",
    "web.analysing": "Analysing the deal double dummy...",
    "web.chart": "Each player's double-dummy score before their card, trick by trick",
    "web.won_by": "won by {name}",
    "web.talon": "Talon",
    "web.your_discard": "Your discard",
    "web.exchange": "Exchange",
    "web.human": "person",
    "web.computer": "computer",
    "web.offline": "not connected",
    "web.reconnecting": "Connection lost: reconnecting...",
    "web.gone": "This table is not on the server (it was stopped or the link is wrong).",
    "web.finished": "The match is over.",
    "web.watching": "Watching",
    "online.no_hints": "No hints at an online table: its matches are rated.",
    "online.no_rename": "Your name at an online table is your account's.",
    "online.old_link": "this seat's link is old: open the table from the lobby again",
    "online.not_yours": "this seat is someone else's",
    "online.bad_name": "a name is 1 to {last} characters that can be printed, not {text}",
    "online.wrong_password": "wrong name or password",
    "online.password_length": "a password is {first}-{last} characters",
    "online.name_taken": "the name {name} is taken",
    "online.seat_taken": "that seat is taken",
    "online.table_full": "the table is full",
    "online.seated": "you sit at seat {number} of this table already",
    "online.not_open": "the table's match has started or ended: you can watch a match in play",
    "online.started": "the table's match has started already",
    "online.owner_starts": "only the table's owner starts it before every seat is taken",
    "online.no_seat": "you have no seat at this table",
    "online.watch_it": "you have no seat at this table in play: you can watch it",
    "online.no_table": "no table {text}",
    "online.too_many": "too many requests: try again in {seconds} s",
    "online.sign_in_first": "sign in first",
    "online.out_of_date": "the page is out of date: reload it (CSRF token)",
    "online.database": "the server's database is not answering: try again soon",
    "lobby.app.title": "3-5-8 online",
    "lobby.app.retry": "Try again",
    "lobby.app.rules_page": "Rules",
    "lobby.app.language": "Language",
    "lobby.app.network": "The server can't be reached: check the connection and try again.",
    "lobby.sign.up": "Sign up",
    "lobby.sign.up_title": "New here? Sign up",
    "lobby.sign.up_note": "Your name is shown at the tables and on the leaderboard.",
    "lobby.sign.in": "Sign in",
    "lobby.sign.in_title": "Sign in",
    "lobby.sign.guest": "Play as a guest",
    "lobby.sign.guest_title": "Or play as a guest",
    "lobby.sign.guest_note": "No password; a guest's matches are not on the leaderboard.",
    "lobby.sign.out": "Sign out",
    "lobby.sign.as": "Signed in as",
    "lobby.sign.name": "Name",
    "lobby.sign.password": "Password",
    "lobby.sign.new_password": "Password (8 characters or more)",
    "lobby.kind.guest": "guest",
    "lobby.tables.title": "Tables",
    "lobby.tables.none": "No table is open: create one.",
    "lobby.tables.shared": "The table of your link",
    "lobby.tables.sign_to_sit": "Sign in (or play as a guest) to take a seat.",
    "lobby.table.deals": "{count} {count:deal|deals}",
    "lobby.table.level": "computer players: {level}",
    "lobby.table.owner": "table of {name}",
    "lobby.table.private": "private",
    "lobby.table.link": "Link for friends:",
    "lobby.table.copy": "Copy",
    "lobby.table.copied": "Copied",
    "lobby.table.fill": "Computer players take the free seats.",
    "lobby.table.you": "you",
    "lobby.seat.free": "free",
    "lobby.seat.away": "away: a computer plays",
    "lobby.seat.computer": "computer ({level})",
    "lobby.status.open": "waiting for players",
    "lobby.status.playing": "in play",
    "lobby.status.finished": "finished",
    "lobby.status.abandoned": "abandoned",
    "lobby.action.sit": "Sit here",
    "lobby.action.leave": "Leave",
    "lobby.action.start": "Start",
    "lobby.action.play": "Play",
    "lobby.action.watch": "Watch",
    "lobby.create.title": "New table",
    "lobby.create.rules": "Rules",
    "lobby.create.deals": "Length (deals)",
    "lobby.create.level": "Computer players",
    "lobby.create.lang": "Language",
    "lobby.create.private": "Private: only with its link",
    "lobby.create.pace": "Pace of the computer players (seconds)",
    "lobby.create.submit": "Create the table",
    "lobby.create.done": "Your table is open: friends sit at it from the lobby or by its link.",
    "lobby.board.title": "Leaderboard",
    "lobby.board.rules": "Rules",
    "lobby.board.none": "Nobody has played under these rules yet.",
    "lobby.board.rank": "#",
    "lobby.board.name": "Name",
    "lobby.board.rating": "Rating",
    "lobby.board.matches": "Matches",
    "lobby.history.title": "Your matches",
    "lobby.history.none": "No match finished yet.",
    "lobby.history.rating": "{rules}: {rating} ({count} {count:match|matches})",
    "lobby.history.place": "Place {place} of 3",
    "lobby.history.total": "total {total}",
    "lobby.history.change": "rating {before} → {after}",
    "web.keys": "Keys: 1-6 choose a game, arrows and Enter pick a card, s stop, d discard, h hint, l last trick, n next deal.",
    "web.bad_message": "message not understood: {reason}",
    "web.not_your_turn": "it is not your turn",
    "web.wrong_decision": "now {what} is asked, not {asked}",
    "web.between_deals": "the deal is over: press Next deal first",
    "web.hint_busy": "a hint is being computed already",
    "web.server_busy": "the server is busy with other hints: ask again in a moment",
    "web.review_busy": "no review of this deal: the server is busy with other reviews",
    "web.kind.choose": "choosing the game",
    "web.kind.give": "giving a card",
    "web.kind.return": "returning a card",
    "web.kind.discard": "the discard",
    "web.kind.play": "playing a card",
    "web.lobby_local": "The start page works only on the computer that runs ts358 serve.",
    "board.open_label": "A position (one-line notation or a position file's TOML) or a match record (JSON)",
    "board.open": "Open",
    "board.upload": "Upload a record",
    "board.deal": "Deal",
    "board.deal_option": "Deal {deal}: {game}, scores {scores}",
    "board.export": "Export and link",
    "board.notation": "Notation",
    "board.link": "Link to this position",
    "board.closed": "The connection to the server closed: reload the page.",
    "board.empty": "Open a position or a match record.",
    "board.heading": "{game}, {rules} rules",
    "board.over": "the deal is over",
    "board.to_play": "{role} to play",
    "board.draft": "Not a position yet: {error}",
    "board.trick": "Trick in progress",
    "board.no_trick": "No trick in progress; the {role} leads",
    "board.tricks": "tricks {count}",
    "board.value": "value {value}",
    "board.no_cards": "no cards",
    "board.back": "Back",
    "board.forward": "Forward",
    "board.best_line": "Play the best line",
    "board.edit": "Edit",
    "board.step": "step {step} of {steps}",
    "board.card": "Card",
    "board.tricks_score": "Tricks (score)",
    "board.best": "best",
    "board.solving": "Solving...",
    "board.solving_for": "Solving... {seconds} s",
    "board.exact": "All values exact ({seconds} s)",
    "board.edit_title": "Edit the position",
    "board.game": "Game",
    "board.leader": "Who leads (or led the trick)",
    "board.move_card": "Move a card",
    "board.to": "to",
    "board.move": "Move",
    "board.set_trick": "Set the trick",
    "board.trick_hint": "cards separated by commas (empty: none)",
}

_PL: dict[str, str] = {
    "seat.you": "Ty",
    "seat.left": "Bartek",
    "seat.right": "Marek",
    "role.chooser": "wybierający",
    "role.third": "trzeci",
    "role.dealer": "rozdający",
    "role.top.chooser": "rozdający",
    "role.top.third": "na lewo od rozdającego",
    "role.top.dealer": "na prawo od rozdającego",
    "game.spades": "pik",
    "game.hearts": "kier",
    "game.diamonds": "karo",
    "game.clubs": "trefl",
    "game.no-trump": "bez atu",
    "game.no-tricks": "bez lew",
    "rules.house": "domowe",
    "rules.kurnik": "Kurnik",
    "rules.sergeant-major": "Sergeant Major",
    "rules.9-5-2": "9-5-2",
    "rules.overtrump": "przebijanie",
    "rules.custom": "własne",
    "level.easy": "łatwy",
    "level.medium": "średni",
    "level.hard": "trudny",
    "level.expert": "ekspert",
    "table.deal": "Rozdanie {number} z {total}",
    "table.game": "gra: {game}",
    "table.no_game": "gra jeszcze niewybrana",
    "table.trump": "atu",
    "table.tricks_at_most": "{taken}, najwyżej {limit}",
    "table.games_left": "Pozostałe gry",
    "table.none_left": "brak",
    "table.on_table": "Na stole:",
    "table.you_lead": "Wychodzisz",
    "table.your_hand": "Twoje karty",
    "table.first_six": "Twoje pierwsze sześć kart (pozostałe dziesięć po wyborze gry)",
    "table.talon": "Musik (widzą go wszyscy): {cards}",
    "table.used": "już wybrano",
    "prompt.play": "Twoja karta (np. {example} albo jej numer; help = polecenia)",
    "prompt.choose": "Wybierz grę (nazwa albo numer)",
    "prompt.give": "Którą kartę dostanie {name}? (jeszcze najwyżej {left}; stop kończy wymianę)",
    "prompt.return": "Dostajesz atu {card}: którą kartę oddajesz?",
    "prompt.discard": "Odłóż 4 karty (np. {example} albo ich numery)",
    "err.not_card": "'{text}' to ani karta, ani polecenie (np. {cards} albo numer; help pokazuje polecenia)",
    "err.number": "nie ma karty z numerem {number} (numery od 1 do {last})",
    "prompt.next_deal": "Enter: rozdanie {number} z {total} (quit: zapisz i zakończ)",
    "err.next_deal": "'{text}' to nie polecenie: Enter rozpoczyna następne rozdanie (help pokazuje polecenia)",
    "err.not_in_hand": "nie masz karty {card}",
    "err.follow": "nie możesz zagrać {card}: musisz dołożyć do koloru ({suit})",
    "err.must_trump": "nie możesz zagrać {card}: nie masz koloru {suit}, więc musisz dać atu ({trump})",
    "err.not_game": "'{text}' to nie nazwa gry (do wyboru: {games})",
    "err.game_used": "nie możesz już wybrać gry {game} w tej partii (zostały: {games})",
    "err.discard_count": "odłóż dokładnie 4 różne karty, nie {count}",
    "err.no_trump_give": "{card} to atu: według tych zasad atu się nie oddaje",
    "err.illegal": "niedozwolone: {reason}",
    "err.stop_only_give": "stop kończy wymianę; teraz musisz oddać kartę",
    "prompt.play_only": "Twoja karta (Enter zagrywa {card}, jedyną dozwoloną; help = polecenia)",
    "err.discard_twice": "{card} podano dwa razy: odłóż 4 różne karty",
    "ev.chose": "{name} wybiera: {game}.",
    "ev.you_chose": "Wybierasz: {game}.",
    "ev.you_gave": "Dajesz {given}, {name} oddaje {returned}.",
    "ev.gave_you": "{name} daje ci {given}; oddajesz {returned}.",
    "ev.you_gave_none": "Nie dajesz graczowi {name} żadnej karty.",
    "ev.gave_you_none": "{name} nie daje ci żadnej karty.",
    "ev.others_exchanged": "{a} i {b} wymieniają {count} {count:kartę|karty|kart}.",
    "ev.others_none": "{a} nie daje graczowi {b} żadnej karty.",
    "ev.talon": "Musik odkryty: {cards}; bierze go {name}.",
    "ev.talon_you": "Musik odkryty: {cards}; bierzesz go.",
    "ev.trick": "Lewa {number}: {cards}  bierze {winner}.",
    "ev.trick_you": "Lewa {number}: {cards}  bierzesz ją.",
    "short.no-trump": "BA",
    "short.no-tricks": "BL",
    "help.title": "Polecenia (działają przy każdym pytaniu):",
    "help.text": (
        "  karta: {cards} albo jej numer na ręce\n"
        "  hint   oczekiwany wynik każdego możliwego wyboru (silny gracz komputerowy)\n"
        "  last   ostatnia lewa\n"
        "  talon  musik i twoje odłożone karty (gdy musik jest twój)\n"
        "  score  tabela wyników partii\n"
        "  help   ta lista\n"
        "  quit   zapisz partię i zakończ (wznowienie: ts358 play --resume PLIK)\n"
        "  Wymiana: dawaj karty po jednej, stop kończy.\n"
        "  Odkładanie: cztery karty w jednym wierszu."
    ),
    "hint.thinking": "Myślę (Ctrl-C przerywa podpowiedź)...",
    "hint.title": "Oczekiwany wynik rozdania dla każdej karty (silny gracz komputerowy):",
    "hint.best": "najlepszy wybór",
    "hint.unavailable": "Podpowiedź niedostępna: {reason}",
    "hint.between_deals": "między rozdaniami nie ma decyzji do podpowiedzi",
    "hint.cancelled": "Podpowiedź przerwana.",
    "hint.estimate": "(oszacowanie: rozwiązano {solved} {solved:układ|układy|układów}, przerwano z braku czasu {bounded} {bounded:układ|układy|układów} i policzono według udowodnionych granic)",
    "hint.tied": "(oszacowanie: żadnego układu nie rozwiązano, przerwano z braku czasu {bounded} {bounded:układ|układy|układów}; udowodnione granice nie rozróżniają {count} najwyżej ocenionych możliwości, więc żadna nie jest oznaczona jako najlepsza)",
    "last.none": "W tym rozdaniu nie ma jeszcze zakończonej lewy.",
    "last.trick": "Ostatnia lewa ({number}): {cards}  bierze {winner}.",
    "last.trick_you": "Ostatnia lewa ({number}): {cards}  bierzesz ją.",
    "hint.title_choose": "Oczekiwany wynik rozdania dla każdej gry (silny gracz komputerowy):",
    "hint.title_discard": "Oczekiwany wynik rozdania dla najlepszych znalezionych odłożeń (silny gracz komputerowy):",
    "hint.title_give": "Oczekiwany wynik rozdania dla każdej karty do oddania (silny gracz komputerowy):",
    "hint.give_note": "(każda tak, jakby wymiana kończyła się na tej karcie)",
    "hint.stop": "stop",
    "hint.layouts": "(średnia z {layouts} {layouts:losowanego układu|losowanych układów|losowanych układów}, każdy rozwiązany dokładnie)",
    "hint.rollouts": "(oszacowanie: żadnego układu nie udało się rozwiązać na czas; {layouts} {layouts:losowy układ rozegrany|losowe układy rozegrane|losowych układów rozegranych} według prostych zasad)",
    "hint.forced": "Jest tylko jeden wybór:",
    "hint.rule_of_thumb": "Bez oceny ({reason}); wybór według prostych zasad:",
    "hint.why_return": "silny gracz komputerowy nie ocenia oddawanych kart",
    "hint.why_unsolved": "tak wcześnie w rozdaniu żadnego losowanego układu nie da się rozwiązać na czas",
    "talon.none": "W tym rozdaniu musik nie został jeszcze odkryty.",
    "talon.unseen": "{name} bierze musik, nie pokazując go.",
    "table.talon_yours": "Musik (widzisz go tylko ty): {cards}",
    "ev.talon_taken": "{name} bierze musik, nie pokazując go.",
    "ev.talon_taken_you": "Bierzesz musik, nie pokazując go: {cards}.",
    "ev.your_discard": "Twoje odłożone karty: {cards}.",
    "score.title": "Wyniki partii",
    "score.deal": "Rozdanie",
    "score.game": "Gra",
    "score.chooser": "Wybierający",
    "score.total": "Suma",
    "score.none": "Żadne rozdanie nie zostało jeszcze zakończone.",
    "summary.title": "Rozdanie {number}: {game} (wybierający: {name})",
    "col.player": "Gracz",
    "col.role": "Rola",
    "col.tricks": "Lewy",
    "col.score": "Wynik",
    "col.total": "Suma",
    "analysis.running": "Analiza rozdania w otwarte karty (--no-analysis ją pomija)...",
    "analysis.title": "Analiza w otwarte karty: wynik gracza przed jego kartą, (-n) jej koszt",
    "analysis.trick": "Lewa",
    "analysis.lost": "Straty z własnych zagrań (wynik przed zagraniem minus wynik po nim): {list}",
    "analysis.lost_part": "Straty z własnych zagrań od lewy {first} (wynik przed zagraniem minus wynik po nim): {list}",
    "analysis.all_best": "Każda twoja karta była jedną z najlepszych.",
    "analysis.alt": "Lewa {number}: twoja karta {card} (wynik {score}); lepiej: {best} (wynik {best_score})",
    "analysis.partial": "Limit czasu: analiza od lewy {number}.",
    "analysis.none": "Analiza pominięta (limit czasu).",
    "analysis.cancelled": "Analiza przerwana (Ctrl-C); partia toczy się dalej.",
    "match.start": "Partia nr {seed}: {deals} {deals:rozdanie|rozdania|rozdań}, zasady {rules}, poziom przeciwników: {level}.",
    "match.seats": "Twoi przeciwnicy: {left} (po twojej lewej) i {right} (po prawej).",
    "match.first_dealer": "Pierwszy rozdający: {name}.",
    "match.saved": "Partia zapisana w pliku {path}",
    "match.resume_hint": "Wznowienie: ts358 play --resume {path}",
    "match.resumed": "Wznowiono partię z pliku {path}: rozdanie {number} z {total}.",
    "match.finished_already": "Ta partia jest już zakończona.",
    "match.final": "Wyniki końcowe",
    "match.won": "Zwycięstwo!",
    "end.twelve-tricks": "Partię wygrywa pierwszy, kto weźmie 12 lew w jednym rozdaniu (najpóźniej po {deals} rozdaniach decydują sumy).",
    "end.target": "Partia kończy się po rozdaniu, w którym czyjaś suma osiągnie {target} (najpóźniej po {deals} rozdaniach).",
    "match.twelve": "{name}: {count} lew w jednym rozdaniu, wygrana partia.",
    "match.shared": "Dzielisz pierwsze miejsce!",
    "match.lost": "Zajmujesz {place}. miejsce.",
    "match.result": "Twój wynik: {result} (suma × 10). Statystyki: ts358 stats",
    "match.interrupted": "Przerwano.",
    "match.stopped": "Zatrzymano ({signal}).",
    "match.record": "Zapis partii w pliku {path}",
    "bot.fault": "{name} (bot) popełnił błąd: {kind} ({detail}); tę decyzję podjęła prosta reguła",
    "bot.handed_over": "{name} (bot) zawiódł: {kind} ({detail}); do końca partii jego miejsce gra prosta reguła",
    "bot.kind.no_start": "nie uruchomił się",
    "bot.kind.late": "brak odpowiedzi na czas",
    "bot.kind.malformed": "wiersz, który nie jest JSON-em",
    "bot.kind.illegal": "decyzja niezgodna z zasadami",
    "bot.kind.oversized": "za długi wiersz",
    "bot.kind.flood": "za dużo wierszy",
    "bot.kind.died": "zakończył działanie",
    "auto.start": "Partia {seed}: {deals} {deals:rozdanie|rozdania|rozdań}, zasady {rules}, poziom: {level}",
    "auto.deal": "Rozdanie {number}: {game}, wybierający {chooser} (8), trzeci {third} (5), rozdający {dealer} (3)",
    "auto.exchange": "  wymiana: {giver} daje {given}, {receiver} oddaje {returned}",
    "auto.exchange_none": "  wymiana: {giver} nie daje graczowi {receiver} żadnej karty",
    "auto.talon": "  musik: {talon}; odłożone: {discard}",
    "auto.trick_won": "bierze {winner}",
    "auto.tricks": "  lewy: {list}",
    "auto.scores": "  wyniki: {list}",
    "auto.totals": "  sumy: {list}",
    "auto.final": "Wyniki końcowe:",
    "stats.title": "Statystyki",
    "stats.none": "Nie ma jeszcze zakończonych partii; zagraj: ts358 play.",
    "stats.played": "Rozegrane",
    "stats.won": "Wygrane",
    "stats.win_rate": "% wygranych",
    "stats.avg_total": "Średnia suma",
    "stats.best_total": "Najlepsza suma",
    "stats.level": "Poziom",
    "stats.chooser_games": "Twoje gry jako wybierający",
    "stats.made": "Ugrane",
    "stats.chosen": "Wybrane",
    "stats.leaderboard": "Ranking (wygrane partie, wynik = suma × 10)",
    "stats.no_wins": "Nie ma jeszcze wygranej partii.",
    "stats.rank": "#",
    "stats.result": "Wynik",
    "stats.date": "Data",
    "stats.deals": "Rozdania",
    "stats.bad_lines": "{path}: pominięto {count} {count:uszkodzony wiersz|uszkodzone wiersze|uszkodzonych wierszy}",
    "web.new_match": "Nowa partia",
    "web.start": "Graj",
    "web.deals": "Rozdania",
    "web.level": "Poziom przeciwników",
    "web.rules": "Zasady",
    "web.language": "Język",
    "web.humans": "Ludzie przy stole",
    "web.bot_none": "poziom powyżej",
    "web.bot_remote": "bot na innym komputerze",
    "web.bot_links": "Boty na innych komputerach: każdy zajmuje swoje miejsce swoim tokenem (docs/bots.md).",
    "web.humans_1": "ty i dwóch graczy komputerowych",
    "web.humans_more": "{count} {count:osoba|osoby|osób} (linki dla znajomych)",
    "web.pace": "Tempo gry komputera (sekundy na kartę)",
    "web.analysis": "Analiza w otwarte karty po każdym rozdaniu",
    "web.seed": "Numer partii (ten sam numer da te same karty)",
    "web.random": "losowy",
    "web.saves": "Zapisane partie",
    "web.no_saves": "Brak zapisanych partii.",
    "web.unreadable": "Zapisy, których nie można wznowić (pliki zostają w folderze zapisów):",
    "web.resume": "Wznów",
    "web.save_line": "{id}: rozdanie {number} z {total}, poziom: {level}",
    "web.stats": "Statystyki",
    "web.home": "Strona startowa",
    "web.links": "Linki dla znajomych: każdy otwiera jedno miejsce; nie pokazuj ich innym.",
    "web.link_seat": "Miejsce gracza {name}",
    "web.player": "Gracz {number}",
    "web.your_name": "Twoje imię",
    "web.join": "Siadam do stołu",
    "web.delete": "Usuń",
    "web.delete_confirm": "Na pewno usunąć tę zapisaną partię?",
    "web.rules_page": "Zasady gry",
    "web.analysis_board": "Plansza analizy",
    "web.you_mark": "(ty)",
    "web.tricks_label": "lewy",
    "web.total_label": "wynik",
    "web.trick": "Lewa",
    "web.play_card": "Zagraj {card}",
    "web.tap_card": "Dotknij karty, potem tutaj",
    "web.close": "Zamknij",
    "web.you_won": "Wygrywasz partię.",
    "web.your_place": "Twoje miejsce: {place}.",
    "lang.en": "English",
    "lang.pl": "Polski",
    "lang.cs": "Čeština",
    "web.hint": "Podpowiedź",
    "web.stop": "Stop",
    "web.discard": "Odłóż",
    "web.next": "Następne rozdanie",
    "web.last": "Ostatnia lewa",
    "web.score": "Wyniki partii",
    "web.hand": "Twoje karty",
    "web.choose": "Wybierz grę na podstawie pierwszych sześciu kart.",
    "web.choose_all": "Wybierz grę.",
    "web.discard_pick": "Wskaż 4 karty do odłożenia (wskazane: {count}) i potwierdź.",
    "web.play": "Twoja karta.",
    "web.waiting": "Czekamy na gracza {name}.",
    "web.waiting_next": "Czekamy, aż pozostali przejdą dalej.",
    "web.thinking": "Myślę...",
    "web.analysing": "Analiza rozdania w otwarte karty...",
    "web.chart": "Wynik każdego gracza w otwarte karty przed jego kartą, lewa po lewie",
    "web.won_by": "bierze {name}",
    "web.talon": "Musik",
    "web.your_discard": "Twoje odłożone karty",
    "web.exchange": "Wymiana",
    "web.human": "człowiek",
    "web.computer": "komputer",
    "web.offline": "niepołączony",
    "web.reconnecting": "Utracono połączenie: łączę ponownie...",
    "web.gone": "Tego stołu nie ma na serwerze (serwer zatrzymano albo link jest błędny).",
    "web.finished": "Partia zakończona.",
    "web.watching": "Oglądasz",
    "online.no_hints": "Przy stole online nie ma podpowiedzi: partie są rankingowe.",
    "online.no_rename": "Przy stole online nazywasz się tak jak na koncie.",
    "online.old_link": "ten link do miejsca jest nieaktualny: otwórz stół z listy stołów",
    "online.not_yours": "to miejsce należy do kogoś innego",
    "online.bad_name": "nazwa ma od 1 do {last} znaków, bez znaków sterujących, a nie {text}",
    "online.wrong_password": "zła nazwa albo hasło",
    "online.password_length": "hasło ma od {first} do {last} znaków",
    "online.name_taken": "nazwa {name} jest już zajęta",
    "online.seat_taken": "to miejsce jest zajęte",
    "online.table_full": "przy stole nie ma wolnych miejsc",
    "online.seated": "siedzisz już przy tym stole, na miejscu {number}",
    "online.not_open": "partia przy tym stole trwa albo się skończyła: partię w grze można oglądać",
    "online.started": "partia przy tym stole już się zaczęła",
    "online.owner_starts": "dopóki są wolne miejsca, partię zaczyna tylko gospodarz stołu",
    "online.no_seat": "nie masz miejsca przy tym stole",
    "online.watch_it": "nie grasz przy tym stole: możesz oglądać partię",
    "online.no_table": "nie ma stołu {text}",
    "online.too_many": "za dużo prób: spróbuj ponownie za {seconds} s",
    "online.sign_in_first": "najpierw się zaloguj",
    "online.out_of_date": "strona jest nieaktualna: wczytaj ją ponownie (token CSRF)",
    "online.database": "baza danych serwera nie odpowiada: spróbuj ponownie za chwilę",
    "lobby.app.title": "3-5-8 online",
    "lobby.app.retry": "Spróbuj ponownie",
    "lobby.app.rules_page": "Zasady",
    "lobby.app.language": "Język",
    "lobby.app.network": "Nie można połączyć się z serwerem: sprawdź połączenie i spróbuj ponownie.",
    "lobby.sign.up": "Załóż konto",
    "lobby.sign.up_title": "Pierwszy raz tutaj? Załóż konto",
    "lobby.sign.up_note": "Twoja nazwa jest widoczna przy stołach i w rankingu.",
    "lobby.sign.in": "Zaloguj się",
    "lobby.sign.in_title": "Logowanie",
    "lobby.sign.guest": "Graj jako gość",
    "lobby.sign.guest_title": "Albo graj jako gość",
    "lobby.sign.guest_note": "Bez hasła; partii gościa nie ma w rankingu.",
    "lobby.sign.out": "Wyloguj się",
    "lobby.sign.as": "Zalogowano jako",
    "lobby.sign.name": "Nazwa",
    "lobby.sign.password": "Hasło",
    "lobby.sign.new_password": "Hasło (co najmniej 8 znaków)",
    "lobby.kind.guest": "gość",
    "lobby.tables.title": "Stoły",
    "lobby.tables.none": "Żaden stół nie jest otwarty: załóż nowy.",
    "lobby.tables.shared": "Stół z twojego linku",
    "lobby.tables.sign_to_sit": "Zaloguj się (albo graj jako gość), żeby zająć miejsce.",
    "lobby.table.deals": "{count} {count:rozdanie|rozdania|rozdań}",
    "lobby.table.level": "gracze komputerowi: {level}",
    "lobby.table.owner": "gospodarz: {name}",
    "lobby.table.private": "prywatny",
    "lobby.table.link": "Link dla znajomych:",
    "lobby.table.copy": "Kopiuj",
    "lobby.table.copied": "Skopiowano",
    "lobby.table.fill": "Wolne miejsca zajmą gracze komputerowi.",
    "lobby.table.you": "ty",
    "lobby.seat.free": "wolne",
    "lobby.seat.away": "poza stołem: gra komputer",
    "lobby.seat.computer": "komputer ({level})",
    "lobby.status.open": "czeka na graczy",
    "lobby.status.playing": "w grze",
    "lobby.status.finished": "zakończony",
    "lobby.status.abandoned": "porzucony",
    "lobby.action.sit": "Usiądź tutaj",
    "lobby.action.leave": "Odejdź",
    "lobby.action.start": "Zacznij",
    "lobby.action.play": "Graj",
    "lobby.action.watch": "Oglądaj",
    "lobby.create.title": "Nowy stół",
    "lobby.create.rules": "Zasady",
    "lobby.create.deals": "Długość (rozdania)",
    "lobby.create.level": "Gracze komputerowi",
    "lobby.create.lang": "Język",
    "lobby.create.private": "Prywatny: tylko przez link",
    "lobby.create.pace": "Tempo graczy komputerowych (sekundy)",
    "lobby.create.submit": "Załóż stół",
    "lobby.create.done": "Twój stół jest otwarty: znajomi dosiądą się z listy stołów albo przez link.",
    "lobby.board.title": "Ranking",
    "lobby.board.rules": "Zasady",
    "lobby.board.none": "Nikt jeszcze nie grał według tych zasad.",
    "lobby.board.rank": "#",
    "lobby.board.name": "Nazwa",
    "lobby.board.rating": "Ocena",
    "lobby.board.matches": "Partie",
    "lobby.history.title": "Twoje partie",
    "lobby.history.none": "Żadna partia jeszcze się nie skończyła.",
    "lobby.history.rating": "{rules}: {rating} ({count} {count:partia|partie|partii})",
    "lobby.history.place": "Miejsce {place} z 3",
    "lobby.history.total": "razem {total}",
    "lobby.history.change": "ocena {before} → {after}",
    "web.keys": "Klawisze: 1-6 wybór gry, strzałki i Enter wybór karty, s stop, d odłóż, h podpowiedź, l ostatnia lewa, n następne rozdanie.",
    "web.bad_message": "niezrozumiała wiadomość: {reason}",
    "web.not_your_turn": "to nie twoja kolej",
    "web.wrong_decision": "teraz trzeba: {what}, nie: {asked}",
    "web.between_deals": "rozdanie skończone: najpierw kliknij Następne rozdanie",
    "web.hint_busy": "podpowiedź jest już liczona",
    "web.server_busy": "serwer liczy inne podpowiedzi: poproś ponownie za chwilę",
    "web.review_busy": "bez analizy tego rozdania: serwer analizuje inne rozdania",
    "web.kind.choose": "wybór gry",
    "web.kind.give": "oddanie karty",
    "web.kind.return": "zwrot karty",
    "web.kind.discard": "odłożenie kart",
    "web.kind.play": "zagranie karty",
    "web.lobby_local": "Strona startowa działa tylko na komputerze, na którym działa ts358 serve.",
    "board.open_label": "Pozycja (zapis w jednym wierszu albo TOML pliku pozycji) lub zapis partii (JSON)",
    "board.open": "Otwórz",
    "board.upload": "Wczytaj zapis partii",
    "board.deal": "Rozdanie",
    "board.deal_option": "Rozdanie {deal}: {game}, wyniki {scores}",
    "board.export": "Eksport i link",
    "board.notation": "Zapis",
    "board.link": "Link do tej pozycji",
    "board.closed": "Połączenie z serwerem zostało zamknięte: odśwież stronę.",
    "board.empty": "Otwórz pozycję albo zapis partii.",
    "board.heading": "{game}, zasady: {rules}",
    "board.over": "rozdanie skończone",
    "board.to_play": "gra: {role}",
    "board.draft": "To jeszcze nie jest pozycja: {error}",
    "board.trick": "Bieżąca lewa",
    "board.no_trick": "Żadna lewa nie jest w toku; wychodzi: {role}",
    "board.tricks": "lewy: {count}",
    "board.value": "wartość: {value}",
    "board.no_cards": "brak kart",
    "board.back": "Wstecz",
    "board.forward": "Dalej",
    "board.best_line": "Zagraj najlepszą linię",
    "board.edit": "Edytuj",
    "board.step": "krok {step} z {steps}",
    "board.card": "Karta",
    "board.tricks_score": "Lewy (wynik)",
    "board.best": "najlepsza",
    "board.solving": "Liczę...",
    "board.solving_for": "Liczę... {seconds} s",
    "board.exact": "Wszystkie wartości dokładne ({seconds} s)",
    "board.edit_title": "Edycja pozycji",
    "board.game": "Gra",
    "board.leader": "Kto wychodzi (lub wyszedł do lewy)",
    "board.move_card": "Przenieś kartę",
    "board.to": "do",
    "board.move": "Przenieś",
    "board.set_trick": "Ustaw lewę",
    "board.trick_hint": "karty rozdzielone przecinkami (puste: brak)",
}

_CS: dict[str, str] = {
    "seat.you": "Vy",
    "seat.left": "Petr",
    "seat.right": "Honza",
    "role.chooser": "hlásící",
    "role.third": "třetí",
    "role.dealer": "rozdávající",
    "role.top.chooser": "rozdávající",
    "role.top.third": "vlevo od rozdávajícího",
    "role.top.dealer": "vpravo od rozdávajícího",
    "game.spades": "piky",
    "game.hearts": "srdce",
    "game.diamonds": "káry",
    "game.clubs": "kříže",
    "game.no-trump": "bez trumfů",
    "game.no-tricks": "bez štychů",
    "rules.house": "domácí",
    "rules.kurnik": "Kurnik",
    "rules.sergeant-major": "Sergeant Major",
    "rules.9-5-2": "9-5-2",
    "rules.overtrump": "přebíjení",
    "rules.custom": "vlastní",
    "level.easy": "lehká",
    "level.medium": "střední",
    "level.hard": "těžká",
    "level.expert": "expertní",
    "table.deal": "Rozdání {number} z {total}",
    "table.game": "hra: {game}",
    "table.no_game": "hra ještě není zvolena",
    "table.trump": "trumf",
    "table.tricks_at_most": "{taken}, nejvýše {limit}",
    "table.games_left": "Zbývající hry",
    "table.none_left": "žádné",
    "table.on_table": "Na stole:",
    "table.you_lead": "Vynášíte",
    "table.your_hand": "Vaše karty",
    "table.first_six": "Vašich prvních šest karet (zbylých deset po volbě hry)",
    "table.talon": "Talon (vidí ho všichni): {cards}",
    "table.used": "už hráno",
    "prompt.play": "Vaše karta (např. {example} nebo její číslo; help = příkazy)",
    "prompt.choose": "Zvolte hru (název nebo číslo)",
    "prompt.give": "Kterou kartu dostane {name}? (ještě nejvýše {left}; stop ukončí výměnu)",
    "prompt.return": "Dostáváte trumf {card}: kterou kartu vrátíte?",
    "prompt.discard": "Odložte 4 karty (např. {example} nebo jejich čísla)",
    "err.not_card": "'{text}' není karta ani příkaz (např. {cards} nebo číslo; help vypíše příkazy)",
    "err.number": "žádná karta nemá číslo {number} (čísla jsou 1 až {last})",
    "prompt.play_only": "Vaše karta (Enter zahraje {card}, jedinou povolenou; help = příkazy)",
    "prompt.next_deal": "Enter: rozdání {number} z {total} (quit: uložit a skončit)",
    "err.next_deal": "'{text}' není příkaz: Enter zahájí další rozdání (help vypíše příkazy)",
    "err.not_in_hand": "kartu {card} nemáte",
    "err.follow": "{card} nelze zahrát: musíte přiznat barvu ({suit})",
    "err.must_trump": "{card} nelze zahrát: nemáte barvu {suit}, proto musíte dát trumf ({trump})",
    "err.not_game": "'{text}' není název hry (na výběr: {games})",
    "err.game_used": "{game} už v této partii hlásit nemůžete (zbývají: {games})",
    "err.discard_count": "odložte přesně 4 různé karty, ne {count}",
    "err.no_trump_give": "{card} je trumf: podle těchto pravidel se trumfy nedávají",
    "err.discard_twice": "{card} je uvedena dvakrát: odložte 4 různé karty",
    "err.illegal": "nelze: {reason}",
    "err.stop_only_give": "stop ukončí výměnu; teď musíte vrátit kartu",
    "ev.chose": "{name} hlásí: {game}.",
    "ev.you_chose": "Hlásíte: {game}.",
    "ev.you_gave": "Dáváte {given}, {name} vrací {returned}.",
    "ev.gave_you": "{name} vám dává {given}; vracíte {returned}.",
    "ev.you_gave_none": "Hráči {name} nedáváte žádnou kartu.",
    "ev.gave_you_none": "{name} vám nedává žádnou kartu.",
    "ev.others_exchanged": "{a} a {b} si vyměňují {count} {count:kartu|karty|karet}.",
    "ev.others_none": "{a} nedává hráči {b} žádnou kartu.",
    "ev.talon": "Talon je otočen: {cards}; bere si ho {name}.",
    "ev.talon_you": "Talon je otočen: {cards}; berete si ho.",
    "ev.trick": "Štych {number}: {cards}  bere {winner}.",
    "ev.trick_you": "Štych {number}: {cards}  berete ho.",
    "short.no-trump": "BT",
    "short.no-tricks": "BŠ",
    "help.title": "Příkazy (platí u každé otázky):",
    "help.text": (
        "  karta: {cards} nebo její číslo v ruce\n"
        "  hint   očekávaný výsledek rozdání každé možné volby (silný počítačový hráč)\n"
        "  last   poslední štych\n"
        "  talon  talon a vaše odložené karty (když je talon váš)\n"
        "  score  tabulka skóre partie\n"
        "  help   tento seznam\n"
        "  quit   uložit partii a skončit (pokračování: ts358 play --resume SOUBOR)\n"
        "  Výměna: dávejte karty po jedné, stop ji ukončí.\n"
        "  Odložení: čtyři karty na jednom řádku."
    ),
    "hint.thinking": "Přemýšlím (Ctrl-C radu zruší)...",
    "hint.title": "Očekávaný výsledek rozdání pro každou kartu (silný počítačový hráč):",
    "hint.best": "nejlepší volba",
    "hint.unavailable": "Rada není k dispozici: {reason}",
    "hint.between_deals": "mezi rozdáními není o čem radit",
    "hint.cancelled": "Rada zrušena.",
    "hint.estimate": "(odhad: {solved} {solved:rozložení vyřešeno|rozložení vyřešena|rozložení vyřešeno}, {bounded} {bounded:přerušeno|přerušena|přerušeno} pro nedostatek času a {bounded:započteno|započtena|započteno} podle dokázaných mezí)",
    "hint.tied": "(odhad: žádné rozložení nebylo vyřešeno, {bounded} {bounded:přerušeno|přerušena|přerušeno} pro nedostatek času; dokázané meze nerozlišují {count} {count:nejlépe hodnocenou možnost|nejlépe hodnocené možnosti|nejlépe hodnocených možností}, proto žádná není označena jako nejlepší)",
    "last.none": "V tomto rozdání ještě nebyl dohrán žádný štych.",
    "last.trick": "Poslední štych ({number}): {cards}  bere {winner}.",
    "last.trick_you": "Poslední štych ({number}): {cards}  berete ho.",
    "hint.title_choose": "Očekávaný výsledek rozdání pro každou hru (silný počítačový hráč):",
    "hint.title_discard": "Očekávaný výsledek rozdání pro nejlepší nalezená odložení (silný počítačový hráč):",
    "hint.title_give": "Očekávaný výsledek rozdání pro každou kartu k dání (silný počítačový hráč):",
    "hint.give_note": "(každá, jako by výměna touto kartou skončila)",
    "hint.stop": "stop",
    "hint.layouts": "(průměr z {layouts} {layouts:vylosovaného rozložení|vylosovaných rozložení|vylosovaných rozložení}, každé vyřešené přesně)",
    "hint.rollouts": "(odhad: žádné rozložení nešlo včas vyřešit; {layouts} {layouts:vylosované rozložení dohráno|vylosovaná rozložení dohrána|vylosovaných rozložení dohráno} podle jednoduchých pravidel)",
    "hint.forced": "Je jen jedna možnost:",
    "hint.rule_of_thumb": "Bez ocenění ({reason}); volba podle jednoduchých pravidel:",
    "hint.why_return": "silný počítačový hráč vracené karty neoceňuje",
    "hint.why_unsolved": "takto brzy v rozdání nelze včas vyřešit žádné vylosované rozložení",
    "talon.none": "Talon v tomto rozdání ještě nebyl otočen.",
    "talon.unseen": "{name} si vzal talon, aniž by ho ukázal.",
    "table.talon_yours": "Talon (viděli jste ho jen vy): {cards}",
    "ev.talon_taken": "{name} si bere talon, aniž by ho ukázal.",
    "ev.talon_taken_you": "Berete si talon, aniž byste ho ukázali: {cards}.",
    "ev.your_discard": "Vaše odložené karty: {cards}.",
    "score.title": "Skóre partie",
    "score.deal": "Rozdání",
    "score.game": "Hra",
    "score.chooser": "Hlásící",
    "score.total": "Součet",
    "score.none": "Ještě neskončilo žádné rozdání.",
    "summary.title": "Rozdání {number}: {game} (hlásící: {name})",
    "col.player": "Hráč",
    "col.role": "Role",
    "col.tricks": "Štychy",
    "col.score": "Body",
    "col.total": "Součet",
    "analysis.running": "Analyzuji rozdání s otevřenými kartami (--no-analysis ji vynechá)...",
    "analysis.title": "Analýza s otevřenými kartami: výsledek hráče před jeho kartou, (-n) ztráta způsobená kartou",
    "analysis.trick": "Štych",
    "analysis.lost": "Ztráty vlastními kartami (výsledek před zahráním minus výsledek po něm): {list}",
    "analysis.lost_part": "Ztráty vlastními kartami od štychu {first} (výsledek před zahráním minus výsledek po něm): {list}",
    "analysis.all_best": "Každá vaše karta patřila k nejlepším.",
    "analysis.alt": "Štych {number}: vaše karta {card} (body {score}); lépe: {best} (body {best_score})",
    "analysis.partial": "Časový limit: analýza od štychu {number}.",
    "analysis.none": "Analýza vynechána (časový limit).",
    "analysis.cancelled": "Analýza zrušena (Ctrl-C); partie pokračuje.",
    "match.start": "Partie č. {seed}: {deals} rozdání, pravidla {rules}, úroveň soupeřů: {level}.",
    "match.seats": "Vaši soupeři: {left} (po vaší levici) a {right} (po pravici).",
    "match.first_dealer": "První rozdávající: {name}.",
    "match.saved": "Partie uložena do souboru {path}",
    "match.resume_hint": "Pokračování: ts358 play --resume {path}",
    "match.resumed": "Pokračuje partie ze souboru {path}: rozdání {number} z {total}.",
    "match.finished_already": "Tato partie už skončila.",
    "match.final": "Konečné pořadí",
    "match.won": "Vítězství!",
    "end.twelve-tricks": "Partii vyhrává první, kdo v jednom rozdání získá 12 štychů (nejpozději po {deals} rozdáních rozhodnou součty).",
    "end.target": "Partie končí po rozdání, v němž něčí součet dosáhne {target} (nejpozději po {deals} rozdáních).",
    "match.twelve": "{name}: {count} štychů v jednom rozdání, vítězství v partii.",
    "match.shared": "Dělíte se o první místo!",
    "match.lost": "Končíte na {place}. místě.",
    "match.result": "Váš výsledek: {result} (součet × 10). Statistika: ts358 stats",
    "match.interrupted": "Přerušeno.",
    "match.stopped": "Zastaveno ({signal}).",
    "match.record": "Záznam partie uložen do souboru {path}",
    "bot.fault": "{name} (bot) chyboval: {kind} ({detail}); toto rozhodnutí udělalo jednoduché pravidlo",
    "bot.handed_over": "{name} (bot) selhal: {kind} ({detail}); do konce partie jeho místo hraje jednoduché pravidlo",
    "bot.kind.no_start": "nespustil se",
    "bot.kind.late": "neodpověděl včas",
    "bot.kind.malformed": "řádek, který není JSON",
    "bot.kind.illegal": "rozhodnutí, které pravidla nedovolují",
    "bot.kind.oversized": "příliš dlouhý řádek",
    "bot.kind.flood": "příliš mnoho řádků",
    "bot.kind.died": "skončil",
    "auto.start": "Partie {seed}: {deals} rozdání, pravidla {rules}, hráči: {level}",
    "auto.deal": "Rozdání {number}: {game}, hlásící {chooser} (8), třetí {third} (5), rozdávající {dealer} (3)",
    "auto.exchange": "  výměna: {giver} dává {given}, {receiver} vrací {returned}",
    "auto.exchange_none": "  výměna: {giver} nedává hráči {receiver} žádnou kartu",
    "auto.talon": "  talon: {talon}; odloženo: {discard}",
    "auto.trick_won": "bere {winner}",
    "auto.tricks": "  štychy: {list}",
    "auto.scores": "  body: {list}",
    "auto.totals": "  součty: {list}",
    "auto.final": "Konečné pořadí:",
    "stats.title": "Statistika",
    "stats.none": "Zatím žádná dohraná partie; zahrajte si: ts358 play.",
    "stats.played": "Odehráno",
    "stats.won": "Vyhráno",
    "stats.win_rate": "Podíl výher",
    "stats.avg_total": "Průměrný součet",
    "stats.best_total": "Nejlepší součet",
    "stats.level": "Úroveň",
    "stats.chooser_games": "Vaše hry jako hlásící",
    "stats.made": "Splněno",
    "stats.chosen": "Zvoleno",
    "stats.leaderboard": "Žebříček (vyhrané partie, výsledek = součet × 10)",
    "stats.no_wins": "Zatím žádná vyhraná partie.",
    "stats.rank": "#",
    "stats.result": "Výsledek",
    "stats.date": "Datum",
    "stats.deals": "Rozdání",
    "stats.bad_lines": "{path}: {count:přeskočen|přeskočeny|přeskočeno} {count} {count:poškozený řádek|poškozené řádky|poškozených řádků}",
    "web.new_match": "Nová partie",
    "web.start": "Hrát",
    "web.deals": "Rozdání",
    "web.level": "Úroveň soupeřů",
    "web.rules": "Pravidla",
    "web.language": "Jazyk",
    "web.humans": "Lidé u stolu",
    "web.bot_none": "úroveň výše",
    "web.bot_remote": "bot na jiném počítači",
    "web.bot_links": "Boti na jiných počítačích: každý zaujme své místo svým tokenem (docs/bots.md).",
    "web.humans_1": "vy a dva počítačoví hráči",
    "web.humans_more": "{count} {count:člověk|lidé|lidí} (odkazy pro přátele)",
    "web.pace": "Rychlost hry počítače (sekundy na kartu)",
    "web.analysis": "Analýza s otevřenými kartami po každém rozdání",
    "web.seed": "Číslo partie (stejné číslo rozdá stejné karty)",
    "web.random": "náhodné",
    "web.saves": "Uložené partie",
    "web.no_saves": "Žádná uložená partie.",
    "web.unreadable": "Uložené partie, ve kterých nelze pokračovat (soubory zůstávají ve složce):",
    "web.resume": "Pokračovat",
    "web.save_line": "{id}: rozdání {number} z {total}, úroveň: {level}",
    "web.stats": "Statistiky",
    "web.home": "Úvodní stránka",
    "web.links": "Odkazy pro přátele: každý otevírá jedno místo; neukazujte je jiným.",
    "web.link_seat": "Místo hráče {name}",
    "web.player": "Hráč {number}",
    "web.your_name": "Vaše jméno",
    "web.join": "Přisednout ke stolu",
    "web.delete": "Smazat",
    "web.delete_confirm": "Opravdu smazat tuto uloženou partii?",
    "web.rules_page": "Pravidla",
    "web.analysis_board": "Analýza",
    "web.you_mark": "(vy)",
    "web.tricks_label": "štychy",
    "web.total_label": "body",
    "web.trick": "Štych",
    "web.play_card": "Zahrát {card}",
    "web.tap_card": "Klepněte na kartu, pak sem",
    "web.close": "Zavřít",
    "web.you_won": "Partii jste vyhráli.",
    "web.your_place": "Vaše místo: {place}.",
    "lang.en": "English",
    "lang.pl": "Polski",
    "lang.cs": "Čeština",
    "web.hint": "Rada",
    "web.stop": "Stop",
    "web.discard": "Odložit",
    "web.next": "Další rozdání",
    "web.last": "Poslední štych",
    "web.score": "Výsledky partie",
    "web.hand": "Vaše karty",
    "web.choose": "Zvolte hru podle prvních šesti karet.",
    "web.choose_all": "Zvolte hru.",
    "web.discard_pick": "Vyberte 4 karty k odložení (vybráno: {count}) a potvrďte.",
    "web.play": "Vaše karta.",
    "web.waiting": "Čeká se na hráče {name}.",
    "web.waiting_next": "Čeká se, až ostatní půjdou dál.",
    "web.thinking": "Přemýšlím...",
    "web.analysing": "Analýza rozdání s otevřenými kartami...",
    "web.chart": "Výsledek každého hráče s otevřenými kartami před jeho kartou, štych po štychu",
    "web.won_by": "bere {name}",
    "web.talon": "Talon",
    "web.your_discard": "Vaše odložené karty",
    "web.exchange": "Výměna",
    "web.human": "člověk",
    "web.computer": "počítač",
    "web.offline": "nepřipojen",
    "web.reconnecting": "Spojení ztraceno: připojuji znovu...",
    "web.gone": "Tento stůl na serveru není (server byl zastaven nebo je odkaz chybný).",
    "web.finished": "Partie skončila.",
    "web.watching": "Sledujete",
    "online.no_hints": "U online stolu nejsou nápovědy: partie se započítávají do hodnocení.",
    "online.no_rename": "U online stolu máte jméno svého účtu.",
    "online.old_link": "tento odkaz na místo je zastaralý: otevřete stůl ze seznamu stolů",
    "online.not_yours": "toto místo patří někomu jinému",
    "online.bad_name": "jméno má 1 až {last} znaků, bez řídicích znaků, ne {text}",
    "online.wrong_password": "špatné jméno nebo heslo",
    "online.password_length": "heslo má {first} až {last} znaků",
    "online.name_taken": "jméno {name} už má někdo jiný",
    "online.seat_taken": "toto místo je obsazené",
    "online.table_full": "u stolu není volné místo",
    "online.seated": "u tohoto stolu už sedíte, na místě {number}",
    "online.not_open": "partie u tohoto stolu běží nebo skončila: partii ve hře můžete sledovat",
    "online.started": "partie u tohoto stolu už začala",
    "online.owner_starts": "dokud jsou volná místa, partii zahajuje jen hostitel stolu",
    "online.no_seat": "u tohoto stolu nemáte místo",
    "online.watch_it": "u tohoto stolu nehrajete: můžete partii sledovat",
    "online.no_table": "stůl {text} neexistuje",
    "online.too_many": "příliš mnoho pokusů: zkuste to znovu za {seconds} s",
    "online.sign_in_first": "nejdřív se přihlaste",
    "online.out_of_date": "stránka je zastaralá: načtěte ji znovu (token CSRF)",
    "online.database": "databáze serveru neodpovídá: zkuste to znovu za chvíli",
    "lobby.app.title": "3-5-8 online",
    "lobby.app.retry": "Zkusit znovu",
    "lobby.app.rules_page": "Pravidla",
    "lobby.app.language": "Jazyk",
    "lobby.app.network": "Server není dostupný: zkontrolujte připojení a zkuste to znovu.",
    "lobby.sign.up": "Zaregistrovat se",
    "lobby.sign.up_title": "Jste tu poprvé? Zaregistrujte se",
    "lobby.sign.up_note": "Vaše jméno se zobrazuje u stolů a v žebříčku.",
    "lobby.sign.in": "Přihlásit se",
    "lobby.sign.in_title": "Přihlášení",
    "lobby.sign.guest": "Hrát jako host",
    "lobby.sign.guest_title": "Nebo hrajte jako host",
    "lobby.sign.guest_note": "Bez hesla; partie hosta se do žebříčku nepočítají.",
    "lobby.sign.out": "Odhlásit se",
    "lobby.sign.as": "Účet:",
    "lobby.sign.name": "Jméno",
    "lobby.sign.password": "Heslo",
    "lobby.sign.new_password": "Heslo (alespoň 8 znaků)",
    "lobby.kind.guest": "host",
    "lobby.tables.title": "Stoly",
    "lobby.tables.none": "Žádný stůl není otevřený: založte nový.",
    "lobby.tables.shared": "Stůl z vašeho odkazu",
    "lobby.tables.sign_to_sit": "Chcete-li si přisednout, přihlaste se (nebo hrajte jako host).",
    "lobby.table.deals": "{count} {count:rozdání|rozdání|rozdání}",
    "lobby.table.level": "počítačoví hráči: {level}",
    "lobby.table.owner": "hostitel: {name}",
    "lobby.table.private": "soukromý",
    "lobby.table.link": "Odkaz pro přátele:",
    "lobby.table.copy": "Kopírovat",
    "lobby.table.copied": "Zkopírováno",
    "lobby.table.fill": "Volná místa obsadí počítačoví hráči.",
    "lobby.table.you": "vy",
    "lobby.seat.free": "volné",
    "lobby.seat.away": "mimo stůl: hraje počítač",
    "lobby.seat.computer": "počítač ({level})",
    "lobby.status.open": "čeká na hráče",
    "lobby.status.playing": "hraje se",
    "lobby.status.finished": "dohráno",
    "lobby.status.abandoned": "opuštěno",
    "lobby.action.sit": "Přisednout si",
    "lobby.action.leave": "Odejít",
    "lobby.action.start": "Začít",
    "lobby.action.play": "Hrát",
    "lobby.action.watch": "Sledovat",
    "lobby.create.title": "Nový stůl",
    "lobby.create.rules": "Pravidla",
    "lobby.create.deals": "Délka (rozdání)",
    "lobby.create.level": "Počítačoví hráči",
    "lobby.create.lang": "Jazyk",
    "lobby.create.private": "Soukromý: jen přes odkaz",
    "lobby.create.pace": "Tempo počítačových hráčů (sekundy)",
    "lobby.create.submit": "Založit stůl",
    "lobby.create.done": "Váš stůl je otevřený: přátelé si přisednou ze seznamu stolů nebo přes odkaz.",
    "lobby.board.title": "Žebříček",
    "lobby.board.rules": "Pravidla",
    "lobby.board.none": "Podle těchto pravidel zatím nikdo nehrál.",
    "lobby.board.rank": "#",
    "lobby.board.name": "Jméno",
    "lobby.board.rating": "Hodnocení",
    "lobby.board.matches": "Partie",
    "lobby.history.title": "Vaše partie",
    "lobby.history.none": "Zatím žádná dohraná partie.",
    "lobby.history.rating": "{rules}: {rating} ({count} {count:partie|partie|partií})",
    "lobby.history.place": "{place}. místo ze 3",
    "lobby.history.total": "celkem {total}",
    "lobby.history.change": "hodnocení {before} → {after}",
    "web.keys": "Klávesy: 1-6 volba hry, šipky a Enter volba karty, s stop, d odložit, h rada, l poslední štych, n další rozdání.",
    "web.bad_message": "nesrozumitelná zpráva: {reason}",
    "web.not_your_turn": "nejste na tahu",
    "web.wrong_decision": "teď je na řadě: {what}, ne: {asked}",
    "web.between_deals": "rozdání skončilo: nejdřív klikněte na Další rozdání",
    "web.hint_busy": "rada se už počítá",
    "web.server_busy": "server počítá jiné rady: zeptejte se znovu za chvíli",
    "web.review_busy": "bez rozboru této hry: server rozebírá jiné hry",
    "web.kind.choose": "volba hry",
    "web.kind.give": "předání karty",
    "web.kind.return": "vrácení karty",
    "web.kind.discard": "odložení karet",
    "web.kind.play": "zahrání karty",
    "web.lobby_local": "Úvodní stránka funguje jen na počítači, na kterém běží ts358 serve.",
    "board.open_label": "Pozice (zápis na jednom řádku nebo TOML souboru pozice) nebo záznam partie (JSON)",
    "board.open": "Otevřít",
    "board.upload": "Nahrát záznam partie",
    "board.deal": "Rozdání",
    "board.deal_option": "Rozdání {deal}: {game}, výsledky {scores}",
    "board.export": "Export a odkaz",
    "board.notation": "Zápis",
    "board.link": "Odkaz na tuto pozici",
    "board.closed": "Spojení se serverem se uzavřelo: načtěte stránku znovu.",
    "board.empty": "Otevřete pozici nebo záznam partie.",
    "board.heading": "{game}, pravidla: {rules}",
    "board.over": "rozdání skončilo",
    "board.to_play": "na tahu: {role}",
    "board.draft": "Zatím to není pozice: {error}",
    "board.trick": "Rozehraný štych",
    "board.no_trick": "Žádný štych není rozehraný; vynáší: {role}",
    "board.tricks": "štychy: {count}",
    "board.value": "hodnota: {value}",
    "board.no_cards": "žádné karty",
    "board.back": "Zpět",
    "board.forward": "Vpřed",
    "board.best_line": "Zahrát nejlepší linii",
    "board.edit": "Upravit",
    "board.step": "krok {step} z {steps}",
    "board.card": "Karta",
    "board.tricks_score": "Štychy (výsledek)",
    "board.best": "nejlepší",
    "board.solving": "Počítám...",
    "board.solving_for": "Počítám... {seconds} s",
    "board.exact": "Všechny hodnoty přesné ({seconds} s)",
    "board.edit_title": "Úprava pozice",
    "board.game": "Hra",
    "board.leader": "Kdo vynáší (nebo vynesl do štychu)",
    "board.move_card": "Přesunout kartu",
    "board.to": "k",
    "board.move": "Přesunout",
    "board.set_trick": "Nastavit štych",
    "board.trick_hint": "karty oddělené čárkami (prázdné: žádný)",
}

MESSAGES: dict[str, dict[str, str]] = {"en": _EN, "pl": _PL, "cs": _CS}
"""Every message by language; every language has every key (checked by the tests)."""


def plural_form(lang: str, count: int) -> int:
    """Which plural form of ``lang`` goes with ``count`` whole things, as an index into a
    message's forms: English has two (1; other), Polish three (1; 2-4, 22-24, 32-34 ...
    but not 12-14; other: 0, 5-21, 25-31 ...), Czech three (1; 2-4; other). These are the
    whole-number categories of Unicode CLDR (en: one, other; pl: one, few, many; cs: one,
    few, other)."""
    if count == 1:
        return 0
    if lang == "pl":
        return 1 if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14) else 2
    if lang == "cs":
        return 1 if count in (2, 3, 4) else 2
    return 1


class _Count:
    """A whole number in a message: ``{n}`` is the number, ``{n:karta|karty|kart}`` the
    plural form that goes with it."""

    __slots__ = ("lang", "value")

    def __init__(self, value: int, lang: str) -> None:
        self.value = value
        self.lang = lang

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            return spec.split("|")[plural_form(self.lang, self.value)]
        return format(self.value, spec)


def t(key: str, lang: str, /, **fmt: object) -> str:
    """The message ``key`` in ``lang``, formatted with ``fmt``; falls back to English, then
    to the key itself. A whole number also picks the plural form of the words that go with
    it: ``{count:card|cards}``, in the order of :func:`plural_form`
    (``{count:karta|karty|kart}``)."""
    table = MESSAGES.get(lang, _EN)
    if key not in table:
        table, lang = _EN, "en"
    template = table.get(key, key)
    if not fmt:
        return template
    return template.format(
        **{name: _Count(v, lang) if type(v) is int else v for name, v in fmt.items()}
    )


def detect_language(env: Mapping[str, str] | None = None) -> str:
    """The language of the locale: the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
    ``LANGUAGE`` that is set (then :func:`locale.getlocale`) decides; pl and cs are
    recognised, anything else gives English."""
    env = os.environ if env is None else env
    candidates: list[str] = []
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(name)
        if value:
            candidates.append(value)
            break
    if not candidates and env is os.environ:
        try:
            code = locale.getlocale()[0]
        except ValueError:
            code = None
        if code:
            candidates.append(code)
    for value in candidates:
        code = value.split(":")[0].split(".")[0].split("@")[0].lower()
        prefix = code.split("_")[0].split("-")[0]
        if prefix in MESSAGES:
            return prefix
        if prefix == "cz":
            return "cs"
    return "en"


def game_name(game: Contract, lang: str) -> str:
    """The game as players say it in ``lang``: pik / piky / spades, bez atu, ..."""
    return t(f"game.{game.label}", lang)


def role_name(role: Role, lang: str, rules: Rules | None = None) -> str:
    """A role as the players name it: under ``top = dealer`` (Sergeant Major) the chooser is
    the dealer and the others are named by their place beside the dealer."""
    if rules is not None and rules.top is Top.DEALER:
        return t(f"role.top.{role.label}", lang)
    return t(f"role.{role.label}", lang)


def _fold(text: str) -> str:
    """Lower case without diacritics, spaces and hyphens: 'Bez štychů' -> 'bezstychu'."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return plain.replace("ł", "l").replace(" ", "").replace("-", "").replace("_", "")


_GAME_WORDS: dict[str, Contract] = {}
for _table in MESSAGES.values():
    for _game in Contract:
        _GAME_WORDS[_fold(_table[f"game.{_game.label}"])] = _game
    # The short names the table shows (NT, NoTr, BA, BL, BT, BŠ), in every language.
    for _game in (Contract.NO_TRUMP, Contract.NO_TRICKS):
        _GAME_WORDS[_fold(_table[f"short.{_game.label}"])] = _game
_GAME_WORDS.update(
    {
        "nt": Contract.NO_TRUMP,
        "notrump": Contract.NO_TRUMP,
        "ba": Contract.NO_TRUMP,
        "misere": Contract.NO_TRICKS,
        "ml": Contract.NO_TRICKS,
        "bl": Contract.NO_TRICKS,
        "kiery": Contract.HEARTS,
        "piki": Contract.SPADES,
        "trefle": Contract.CLUBS,
        "spade": Contract.SPADES,
        "heart": Contract.HEARTS,
        "diamond": Contract.DIAMONDS,
        "club": Contract.CLUBS,
    }
)


def parse_game(text: str) -> Contract:
    """A game from its name in any language (``kier``, ``srdce``, ``bez štychů``,
    ``bez stychu``, ``no-trump``), its short name on the table in any language (``NT``,
    ``NoTr``, ``BA``, ``BL``, ``BT``, ``BŠ``), a suit letter or symbol; NotationError
    otherwise."""
    key = _fold(text)
    if key in _GAME_WORDS:
        return _GAME_WORDS[key]
    try:
        return Contract(Suit.parse(text).value)
    except NotationError:
        pass
    raise NotationError(f"not a game: {text!r}")


SUIT_SYMBOLS = "♠♥♦♣"


def can_encode_symbols(stream: object) -> bool:
    """Whether ``stream``'s encoding can show ♠♥♦♣ (else cards are written AS, TH, ...)."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        SUIT_SYMBOLS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


# How each language writes the ranks, 2 to ace (docs/rules.md#how-cards-are-written): ten
# is 10 everywhere; Polish players write the queen D (dama) and the jack W (walet); Czech
# players use the international letters of their French-suited packs (kluk and král both
# begin with K). The engine's own notation (``str(card)``, ``Card.parse``, records, saves,
# the bot protocol) is not a language's and keeps T, J, Q.
_NUMBERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
RANK_LETTERS: dict[str, tuple[str, ...]] = {
    "en": (*_NUMBERS, "J", "Q", "K", "A"),
    "pl": (*_NUMBERS, "W", "D", "K", "A"),
    "cs": (*_NUMBERS, "J", "Q", "K", "A"),
}
"""The ranks as each language writes them, by :class:`~ts358.cards.Rank` value."""

# Letters a language's players type beyond the engine's (which are accepted everywhere):
# none of them is a suit letter read as a rank or the other way round (D is a suit letter
# too, but "DH" read by the engine is nothing, and "D10" is the ten of diamonds either way).
_INPUT_RANKS: dict[str, dict[str, Rank]] = {
    "en": {},
    "pl": {"D": Rank.QUEEN, "W": Rank.JACK},
    "cs": {"D": Rank.QUEEN},
}


def rank_text(rank: Rank, lang: str = "en") -> str:
    """The rank as ``lang`` writes it: ``10`` for ten, ``D`` and ``W`` for the Polish queen
    and jack."""
    return RANK_LETTERS.get(lang, RANK_LETTERS["en"])[rank]


def card_text(card: Card, symbols: bool, lang: str = "en") -> str:
    """The card as ``lang`` writes it, for people: ``10♥``, ``Q♠`` (Polish ``D♠``), or with
    suit letters ``10H``, ``QS`` (``DS``). Not the engine's notation (``str(card)``:
    ``TH``), which records, saves and bots use.

    >>> card_text(Card.parse("TH"), True), card_text(Card.parse("QS"), False, "pl")
    ('10♥', 'DS')
    """
    suit = card.suit.symbol if symbols else card.suit.letter
    return rank_text(card.rank, lang) + suit


def parse_card(text: str, lang: str = "en") -> Card:
    """A card typed by a person of ``lang``: any notation of :meth:`Card.parse`
    (``QH``, ``Q♥``, ``10h``, ``th``, ``♥Q``) or the language's own letters (Polish ``D♥``,
    ``W♦``, ``dh``; Czech ``D♥``); NotationError otherwise. Kept out of the engine's
    parser, which reads records and bots and has one notation.

    >>> parse_card("W♦", "pl"), parse_card("d10", "pl"), parse_card("10h")
    (Card.parse('JD'), Card.parse('TD'), Card.parse('TH'))
    """
    token = text.strip()
    try:
        return Card.parse(token)
    except NotationError:
        pass
    ranks = _INPUT_RANKS.get(lang, {})
    key = token.upper()
    if len(key) >= 2:
        for suit_part, rank_part in ((key[-1], key[:-1]), (key[0], key[1:])):
            rank = ranks.get(rank_part)
            if rank is None:
                continue
            try:
                return Card(Suit.parse(suit_part), rank)
            except NotationError:
                continue
    raise NotationError(f"not a card: {quote(text)}")


def decimal_text(value: float, lang: str = "en", places: int = 2, signed: bool = False) -> str:
    """``value`` with ``places`` decimals as ``lang`` writes it: ``-1.50`` in English,
    ``-1,50`` in Polish and Czech; with ``signed`` a plus sign before a positive value. A
    value that rounds to zero is written without a sign of its own (``0.00``, ``+0.00``),
    never ``-0.00``.

    >>> decimal_text(-1.5, "pl"), decimal_text(0.25, "en", signed=True)
    ('-1,50', '+0.25')
    """
    if round(value, places) == 0:
        value = 0.0
    text = f"{value:{'+' if signed else ''}.{places}f}"
    return text.replace(".", ",") if lang in ("pl", "cs") else text


def suit_text(suit: Suit, symbols: bool) -> str:
    return suit.symbol if symbols else suit.letter


def game_short(game: Contract, symbols: bool, lang: str) -> str:
    """A short game name for tight places: the suit symbol (or letter) for a trump game,
    NT / BA / BT for no-trump, NoTr / BL / BŠ for no-tricks."""
    if game.trump is not None:
        return suit_text(game.trump, symbols)
    return t(f"short.{game.label}", lang)


def games_text(games: Iterable[Contract], lang: str) -> str:
    """Game names in the fixed order spades ... no-tricks, comma-separated."""
    return ", ".join(game_name(g, lang) for g in sorted(games))


_ADVICE_TITLES = {
    DecisionKind.PLAY: "hint.title",
    DecisionKind.CHOOSE: "hint.title_choose",
    DecisionKind.DISCARD: "hint.title_discard",
    DecisionKind.GIVE: "hint.title_give",
}
_REFUSALS = {
    Reason.GAME_USED: "err.game_used",
    Reason.NOT_HELD: "err.not_in_hand",
    Reason.TRUMP_NOT_GIVEN: "err.no_trump_give",
    Reason.DISCARD_TWICE: "err.discard_twice",
    Reason.DISCARD_COUNT: "err.discard_count",
    Reason.MUST_FOLLOW: "err.follow",
    Reason.MUST_TRUMP: "err.must_trump",
}


class Translator:
    """The messages in one language (en, pl or cs; ValueError otherwise): ``tr(key,
    **fmt)`` as :func:`t`, and the words for the game's values (games, roles, seats, a
    refusal, a bot's fault, a hint's title).

    >>> Translator("pl").game(Contract.HEARTS)
    'kier'
    """

    __slots__ = ("lang",)

    def __init__(self, lang: str = "en") -> None:
        if lang not in MESSAGES:
            raise ValueError(f"not a language: {lang!r} (one of {', '.join(LANGUAGES)})")
        self.lang = lang

    def __call__(self, key: str, /, **fmt: object) -> str:
        return t(key, self.lang, **fmt)

    def __repr__(self) -> str:
        return f"Translator({self.lang!r})"

    def game(self, game: Contract) -> str:
        """The game as players say it: pik / piky / spades, bez atu, ..."""
        return game_name(game, self.lang)

    def games(self, games: Iterable[Contract]) -> str:
        """Game names in the fixed order spades ... no-tricks, comma-separated."""
        return games_text(games, self.lang)

    def role(self, role: Role, rules: Rules | None = None) -> str:
        return role_name(role, self.lang, rules)

    def game_short(self, game: Contract, symbols: bool) -> str:
        """A short game name for tight places (:func:`game_short`)."""
        return game_short(game, symbols, self.lang)

    def card(self, card: Card, symbols: bool = True) -> str:
        """The card as this language writes it (:func:`card_text`): ``10♥``, Polish
        ``D♠``; with suit letters when not ``symbols``."""
        return card_text(card, symbols, self.lang)

    def cards(self, cards: Iterable[Card], symbols: bool = True) -> str:
        """Cards as this language writes them, separated by spaces, in the order given."""
        return " ".join(card_text(c, symbols, self.lang) for c in cards)

    def parse_card(self, text: str) -> Card:
        """A card as a person of this language types it (:func:`parse_card`)."""
        return parse_card(text, self.lang)

    def decimal(self, value: float, places: int = 2, signed: bool = False) -> str:
        """A number with ``places`` decimals as this language writes it
        (:func:`decimal_text`): ``-1,50`` in Polish and Czech, ``-1.50`` in English."""
        return decimal_text(value, self.lang, places, signed)

    def seat_names(self, human: int | None) -> tuple[str, str, str]:
        """Display names by seat as ``human`` sees the table: you, then the players on
        your left and right (clockwise: the seat after yours plays after you, so sits on
        your left); North, East, West when nobody is watching."""
        if human is None:
            return ("North", "East", "West")
        names = ["", "", ""]
        names[human] = self("seat.you")
        names[(human + 1) % 3] = self("seat.left")
        names[(human + 2) % 3] = self("seat.right")
        return (names[0], names[1], names[2])

    def refusal(self, refusal: Refusal, symbols: bool = True) -> str:
        """Why a person's decision is refused, in the person's words (cards with suit
        symbols or letters); a reason no person's answer can have (a decision that is not
        due, a malformed one) as the engine says it."""
        key = _REFUSALS.get(refusal.reason)
        if key is None:
            return self("err.illegal", reason=str(refusal))
        card = self.card(refusal.card, symbols) if refusal.card is not None else "?"
        suit = suit_text(refusal.suit, symbols) if refusal.suit is not None else "?"
        trump = suit_text(refusal.trump, symbols) if refusal.trump is not None else "?"
        game = self.game(refusal.game) if refusal.game is not None else "?"
        return self(
            key,
            card=card,
            suit=suit,
            trump=trump,
            game=game,
            games=self.games(refusal.games),
            count=refusal.count,
        )

    def fault(self, name: str, fault: Fault) -> str:
        """A bot's fault as the people at the table are told it."""
        key = "bot.handed_over" if fault.handed_over else "bot.fault"
        return self(key, name=name, kind=self(f"bot.kind.{fault.kind}"), detail=fault.detail)

    def rules(self, rules: Rules) -> str:
        """The name of a rule set: its preset's, or "custom"."""
        return self(f"rules.{rules.label}")

    def end(self, rules: Rules) -> str | None:
        """How a match that ends on a condition ends (None for one of a number of deals)."""
        if rules.end is MatchEnd.DEALS:
            return None
        return self(f"end.{rules.end.label}", deals=rules.length, target=rules.target_score)

    def tricks(
        self, taken: int, role: Role, game: Contract | None, rules: Rules | None = None
    ) -> str:
        """Tricks taken against the target, ``2/5``, or in no-tricks the limit: ``2, at
        most 3`` (``rules``' targets; None: the house's)."""
        rules = rules or Rules()
        if game is Contract.NO_TRICKS:
            return self("table.tricks_at_most", taken=taken, limit=rules.limit(role))
        return f"{taken}/{rules.target(role)}"

    def advice_title(self, advice: Advice[Answer]) -> str:
        """The first line of a hint: what it shows, or (an option only, or nothing valued)
        the sentence that goes before the one choice."""
        if advice.basis is Basis.FORCED:
            return self("hint.forced")
        if advice.basis is Basis.RULE_OF_THUMB:
            why = "hint.why_return" if advice.kind is DecisionKind.RETURN else "hint.why_unsolved"
            return self("hint.rule_of_thumb", reason=self(why))
        return self(_ADVICE_TITLES[advice.kind])

    def advice_note(self, advice: Advice[Answer]) -> str:
        """What a valued hint's scores rest on (layouts solved, estimates, rollouts), and why
        no option is marked best when nothing proven tells the best ones apart
        (:attr:`~ts358.players.advice.Advice.best_marks`); empty when nothing was valued."""
        if advice.basis is Basis.ROLLOUTS:
            return self("hint.rollouts", layouts=advice.layouts)
        if advice.basis is not Basis.SOLVED:
            return ""
        if advice.exact:
            return self("hint.layouts", layouts=advice.layouts)
        if not advice.told_apart:  # no layout solved, the best options' bounds alike
            return self("hint.tied", bounded=advice.bounded, count=advice.tied)
        return self("hint.estimate", solved=advice.solved, bounded=advice.bounded)
