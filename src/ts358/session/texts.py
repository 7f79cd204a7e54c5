"""The texts of ``ts358 play`` and ``ts358 stats`` in English, Polish and Czech.

A small message catalogue: :data:`MESSAGES` maps a language code to a dict of keys to
``str.format`` templates, and :func:`t` looks a key up in the current language
(:func:`set_language`), falling back to English. :func:`detect_language` reads the locale
(``LC_ALL``, ``LC_MESSAGES``, ``LANG``, ``LANGUAGE``, then :func:`locale.getlocale`).

Game names are the ones players say (pl: pik, kier, karo, trefl, bez atu, bez lew; cs:
piky, srdce, káry, kříže, bez trumfů, bez štychů); :func:`parse_game` reads a game in any
of the three languages, with or without diacritics.
"""

from __future__ import annotations

import locale
import os
import unicodedata
from collections.abc import Iterable, Mapping

from ts358.cards import Card, NotationError, Suit
from ts358.rules import Contract, Role

__all__ = [
    "LANGUAGES",
    "MESSAGES",
    "can_encode_symbols",
    "card_text",
    "detect_language",
    "game_name",
    "game_short",
    "games_text",
    "get_language",
    "parse_game",
    "role_name",
    "set_language",
    "suit_text",
    "t",
]

LANGUAGES = ("en", "pl", "cs")

_EN: dict[str, str] = {
    # seats, roles, games, rules, levels
    "seat.you": "You",
    "seat.left": "Left",
    "seat.right": "Right",
    "role.chooser": "chooser",
    "role.third": "third",
    "role.dealer": "dealer",
    "game.spades": "spades",
    "game.hearts": "hearts",
    "game.diamonds": "diamonds",
    "game.clubs": "clubs",
    "game.no-trump": "no-trump",
    "game.no-tricks": "no-tricks",
    "rules.house": "house",
    "rules.kurnik": "Kurnik",
    "level.easy": "easy",
    "level.medium": "medium",
    "level.hard": "hard",
    # the table
    "table.deal": "Deal {number} of {total}",
    "table.game": "game: {game}",
    "table.no_game": "game not chosen yet",
    "table.trump": "trump",
    "table.tricks": "tricks {taken}/{need}",
    "table.tricks_at_most": "tricks {taken}, at most {limit}",
    "table.total": "total {total}",
    "table.games_left": "games left: {games}",
    "table.none_left": "none",
    "table.on_table": "On the table:",
    "table.to_lead": "{name} to lead",
    "table.your_hand": "Your hand",
    "table.first_six": "Your first six cards (the other ten after the choice)",
    "table.talon": "Talon (shown to all): {cards}",
    "table.used": "used",
    # prompts
    "prompt.play": "Your card (e.g. {example} or its number; help = commands)",
    "prompt.choose": "Choose the game: name or number",
    "prompt.give": "Give a card to {name} (at most {left} more) or stop",
    "prompt.return": "You received the trump {card}: which card do you return?",
    "prompt.discard": "Discard 4 cards in one line (e.g. {example} or four numbers)",
    "prompt.next_deal": "Enter: deal {number} of {total} (quit: save and stop)",
    # input errors (the prompt repeats)
    "err.not_card": "'{text}' is neither a card nor a command (e.g. QH, Q♥, 10h or a number; help lists the commands)",
    "err.number": "there is no card number {number} (1 to {last})",
    "err.not_in_hand": "{card} is not in your hand",
    "err.follow": "{card} is not allowed: you must follow suit ({suit})",
    "err.must_trump": "{card} is not allowed: you have no {suit}, so you must play a trump ({trump})",
    "err.not_game": "'{text}' is not a game (one of: {games})",
    "err.game_used": "you have already played {game} in this match (left: {games})",
    "err.discard_count": "discard exactly 4 different cards, not {count}",
    "err.no_trump_give": "{card} is a trump: trumps are not exchanged under these rules",
    "err.illegal": "not allowed: {reason}",
    "err.stop_only_give": "stop ends the exchange; now you have to answer with a card",
    # what happened
    "ev.chose": "{name} chose {game}.",
    "ev.you_gave": "You gave {given} to {name} and got back {returned}.",
    "ev.gave_you": "{name} gave you {given}; you returned {returned}.",
    "ev.others_exchanged": "{count} card(s) changed hands between {a} and {b}.",
    "ev.talon": "The talon is shown: {cards}; {name} takes it.",
    "ev.trick": "Trick {number}: {cards}  won by {winner}.",
    "ev.your_discard": "You discarded {cards}.",
    "ev.you_chose": "You chose {game}.",
    "ev.talon_you": "The talon is shown: {cards}; you take it.",
    "short.no-trump": "NT",
    "short.no-tricks": "NoTr",
    # commands
    "help.title": "Commands (accepted at every prompt):",
    "help.text": (
        "  a card: QH, Q♥, 10h, th, or its number in your hand\n"
        "  hint   the strong computer player's expected deal score for each card you may play\n"
        "  last   the last trick\n"
        "  score  the match score table\n"
        "  help   this list\n"
        "  quit   save the match and stop (resume with ts358 play --resume FILE)\n"
        "  Exchange: give cards one at a time, stop to end. Discard: four cards in one line."
    ),
    "hint.thinking": "Thinking (Ctrl-C cancels the hint)...",
    "hint.title": "Expected deal score per card (strong computer player):",
    "hint.best": "best",
    "hint.unavailable": "No hint available: {reason}",
    "hint.only_play": "hints are given when you play a card",
    "hint.too_early": "this early in the deal no sampled layout can be solved in time; ask again after a few tricks",
    "hint.cancelled": "Hint cancelled.",
    "hint.estimate": "(estimates: {solved} layouts solved, {bounded} cut short by time and counted by the bounds proven)",
    "last.none": "No trick has been completed in this deal yet.",
    "last.trick": "Last trick ({number}): {cards}  won by {winner}.",
    # scores
    "score.title": "Match score",
    "score.deal": "Deal",
    "score.game": "Game",
    "score.chooser": "Chose",
    "score.total": "Total",
    "score.none": "No deal has been finished yet.",
    "summary.title": "Deal {number}: {game}, chosen by {name}",
    "col.player": "Player",
    "col.role": "Role",
    "col.tricks": "Tricks",
    "col.score": "Score",
    "col.total": "Total",
    # analysis
    "analysis.running": "Analysing the deal double dummy (--no-analysis skips this)...",
    "analysis.title": "Analysis: each player's double-dummy score before their card in each trick (alone against the other two, all cards seen); (-n): what that card cost",
    "analysis.trick": "Trick",
    "analysis.lost": "Lost by own cards (a card's cost = its player's score before it minus after it): {list}",
    "analysis.lost_part": "Lost by own cards from trick {first} on (a card's cost = its player's score before it minus after it): {list}",
    "analysis.all_best": "Every card you played was among the best.",
    "analysis.alt": "Trick {number}: you played {card} (score {score}); better: {best} (score {best_score})",
    "analysis.partial": "Time limit reached: analysed from trick {number} on.",
    "analysis.none": "Analysis skipped (time limit).",
    "analysis.cancelled": "Analysis cancelled (Ctrl-C); the match goes on.",
    # match
    "match.start": "Match of {deals} deals, {rules} rules, {level} opponents, seed {seed}.",
    "match.seats": "You play against {left} (on your left) and {right} (on your right).",
    "match.first_dealer": "First dealer: {name}.",
    "match.saved": "Match saved to {path}",
    "match.resume_hint": "Resume with: ts358 play --resume {path}",
    "match.resumed": "Resumed the match from {path}: deal {number} of {total}.",
    "match.finished_already": "This match is already finished.",
    "match.final": "Final standings",
    "match.place": "{place}. {name}  {total}",
    "match.won": "You won!",
    "match.shared": "You share first place!",
    "match.lost": "You finished in place {place}.",
    "match.result": "Your result: {result} (total × 10). Statistics: ts358 stats",
    "match.interrupted": "Interrupted.",
    "match.stopped": "Stopped ({signal}).",
    "match.record": "Record written to {path}",
    # --auto output
    "auto.start": "Match of {deals} deals, seed {seed}, {rules} rules, {level} players: {names}",
    "auto.deal": "Deal {number}: dealer {dealer} (3), chooser {chooser} (8), third {third} (5); game: {game}",
    "auto.exchange": "  exchange: {giver} gives {given} to {receiver}, gets {returned}",
    "auto.talon": "  talon: {talon}; discard: {discard}",
    "auto.trick_won": "won by {winner}",
    "auto.tricks": "  tricks: {list}",
    "auto.scores": "  scores: {list}",
    "auto.totals": "  totals: {list}",
    "auto.final": "Final standings:",
    # stats
    "stats.title": "Statistics",
    "stats.none": "No finished matches yet: play one with ts358 play.",
    "stats.played": "Matches played",
    "stats.won": "Matches won",
    "stats.win_rate": "Win rate",
    "stats.avg_total": "Average total",
    "stats.best_total": "Best total",
    "stats.level": "Level",
    "stats.chooser_games": "Your games as chooser",
    "stats.made": "made",
    "stats.leaderboard": "Leaderboard (won matches, result = total × 10)",
    "stats.no_wins": "No won match yet.",
    "stats.rank": "#",
    "stats.result": "Result",
    "stats.date": "Date",
    "stats.deals": "Deals",
    "stats.bad_lines": "{path}: {count} damaged line(s) skipped",
}

_PL: dict[str, str] = {
    "seat.you": "Ty",
    "seat.left": "Lewy",
    "seat.right": "Prawy",
    "role.chooser": "wybierający",
    "role.third": "trzeci",
    "role.dealer": "rozdający",
    "game.spades": "pik",
    "game.hearts": "kier",
    "game.diamonds": "karo",
    "game.clubs": "trefl",
    "game.no-trump": "bez atu",
    "game.no-tricks": "bez lew",
    "rules.house": "domowe",
    "rules.kurnik": "Kurnik",
    "level.easy": "łatwi",
    "level.medium": "średni",
    "level.hard": "trudni",
    "table.deal": "Rozdanie {number} z {total}",
    "table.game": "gra: {game}",
    "table.no_game": "gra jeszcze nie wybrana",
    "table.trump": "atu",
    "table.tricks": "lewy {taken}/{need}",
    "table.tricks_at_most": "lewy {taken}, najwyżej {limit}",
    "table.total": "suma {total}",
    "table.games_left": "gry do wyboru: {games}",
    "table.none_left": "brak",
    "table.on_table": "Na stole:",
    "table.to_lead": "{name} wychodzi",
    "table.your_hand": "Twoje karty",
    "table.first_six": "Twoje pierwsze sześć kart (pozostałe dziesięć po wyborze)",
    "table.talon": "Musik (widzą wszyscy): {cards}",
    "table.used": "wykorzystana",
    "prompt.play": "Twoja karta (np. {example} albo jej numer; help = polecenia)",
    "prompt.choose": "Wybierz grę: nazwa albo numer",
    "prompt.give": "Daj kartę graczowi {name} (jeszcze najwyżej {left}) albo stop",
    "prompt.return": "Dostajesz atu {card}: którą kartę oddajesz?",
    "prompt.discard": "Odrzuć 4 karty w jednej linii (np. {example} albo cztery numery)",
    "prompt.next_deal": "Enter: rozdanie {number} z {total} (quit: zapisz i zakończ)",
    "err.not_card": "'{text}' to ani karta, ani polecenie (np. QH, Q♥, 10h albo numer; help pokazuje polecenia)",
    "err.number": "nie ma karty numer {number} (1 do {last})",
    "err.not_in_hand": "nie masz karty {card}",
    "err.follow": "{card} nie wolno: musisz dołożyć do koloru ({suit})",
    "err.must_trump": "{card} nie wolno: nie masz koloru {suit}, więc musisz dać atu ({trump})",
    "err.not_game": "'{text}' to nie gra (do wyboru: {games})",
    "err.game_used": "grę {game} już w tej partii grałeś (zostały: {games})",
    "err.discard_count": "odrzuć dokładnie 4 różne karty, nie {count}",
    "err.no_trump_give": "{card} to atu: według tych zasad atu się nie wymienia",
    "err.illegal": "nie wolno: {reason}",
    "err.stop_only_give": "stop kończy wymianę; teraz trzeba odpowiedzieć kartą",
    "ev.chose": "{name} wybiera: {game}.",
    "ev.you_gave": "Dajesz {given} graczowi {name}, wraca {returned}.",
    "ev.gave_you": "{name} daje ci {given}; oddajesz {returned}.",
    "ev.others_exchanged": "Między graczami {a} i {b} wymieniono kart: {count}.",
    "ev.talon": "Musik odkryty: {cards}; bierze go {name}.",
    "ev.trick": "Lewa {number}: {cards}  bierze {winner}.",
    "ev.your_discard": "Odrzucasz {cards}.",
    "ev.you_chose": "Wybierasz: {game}.",
    "ev.talon_you": "Musik odkryty: {cards}; bierzesz go.",
    "short.no-trump": "BA",
    "short.no-tricks": "BL",
    "help.title": "Polecenia (działają przy każdym pytaniu):",
    "help.text": (
        "  karta: QH, Q♥, 10h, th albo jej numer na ręce\n"
        "  hint   oczekiwany wynik rozdania dla każdej dozwolonej karty według silnego komputera\n"
        "  last   ostatnia lewa\n"
        "  score  tabela wyników partii\n"
        "  help   ta lista\n"
        "  quit   zapisz partię i zakończ (dalej: ts358 play --resume PLIK)\n"
        "  Wymiana: dawaj karty po jednej, stop kończy. Odrzucanie: cztery karty w jednej linii."
    ),
    "hint.thinking": "Myślę (Ctrl-C przerywa podpowiedź)...",
    "hint.title": "Oczekiwany wynik rozdania dla każdej karty (silny komputer):",
    "hint.best": "najlepsza",
    "hint.unavailable": "Podpowiedź niedostępna: {reason}",
    "hint.only_play": "podpowiedzi są przy zagrywaniu karty",
    "hint.too_early": "tak wcześnie w rozdaniu żadnego losowanego układu nie da się rozwiązać na czas; zapytaj po kilku lewach",
    "hint.cancelled": "Podpowiedź przerwana.",
    "hint.estimate": "(szacunek: rozwiązanych układów {solved}, przerwanych z braku czasu {bounded}, liczonych według udowodnionych granic)",
    "last.none": "W tym rozdaniu nie ma jeszcze zakończonej lewy.",
    "last.trick": "Ostatnia lewa ({number}): {cards}  bierze {winner}.",
    "score.title": "Wyniki partii",
    "score.deal": "Rozdanie",
    "score.game": "Gra",
    "score.chooser": "Wybrał",
    "score.total": "Suma",
    "score.none": "Żadne rozdanie nie zostało jeszcze zakończone.",
    "summary.title": "Rozdanie {number}: {game}, wybrał {name}",
    "col.player": "Gracz",
    "col.role": "Rola",
    "col.tricks": "Lewy",
    "col.score": "Wynik",
    "col.total": "Suma",
    "analysis.running": "Analiza rozdania w otwarte karty (--no-analysis ją pomija)...",
    "analysis.title": "Analiza: wynik każdego gracza w otwarte karty przed jego kartą w każdej lewie (sam przeciw dwóm, wszystkie karty widoczne); (-n): ile ta karta kosztowała",
    "analysis.trick": "Lewa",
    "analysis.lost": "Stracone własnymi kartami (koszt karty = wynik gracza przed nią minus po niej): {list}",
    "analysis.lost_part": "Stracone własnymi kartami od lewy {first} (koszt karty = wynik gracza przed nią minus po niej): {list}",
    "analysis.all_best": "Każda twoja karta była jedną z najlepszych.",
    "analysis.alt": "Lewa {number}: zagrałeś {card} (wynik {score}); lepiej: {best} (wynik {best_score})",
    "analysis.partial": "Limit czasu: analiza od lewy {number}.",
    "analysis.none": "Analiza pominięta (limit czasu).",
    "analysis.cancelled": "Analiza przerwana (Ctrl-C); gra toczy się dalej.",
    "match.start": "Partia: {deals} rozdań, zasady {rules}, przeciwnicy: {level}, ziarno {seed}.",
    "match.seats": "Grasz przeciw graczom {left} (po twojej lewej) i {right} (po prawej).",
    "match.first_dealer": "Pierwszy rozdaje: {name}.",
    "match.saved": "Partia zapisana w {path}",
    "match.resume_hint": "Dalej: ts358 play --resume {path}",
    "match.resumed": "Wznowiono partię z {path}: rozdanie {number} z {total}.",
    "match.finished_already": "Ta partia jest już zakończona.",
    "match.final": "Wyniki końcowe",
    "match.place": "{place}. {name}  {total}",
    "match.won": "Wygrałeś!",
    "match.shared": "Dzielisz pierwsze miejsce!",
    "match.lost": "Zajmujesz miejsce {place}.",
    "match.result": "Twój wynik: {result} (suma × 10). Statystyki: ts358 stats",
    "match.interrupted": "Przerwano.",
    "match.stopped": "Zatrzymano ({signal}).",
    "match.record": "Zapis partii w {path}",
    "auto.start": "Partia: {deals} rozdań, ziarno {seed}, zasady {rules}, gracze: {level}: {names}",
    "auto.deal": "Rozdanie {number}: rozdaje {dealer} (3), wybiera {chooser} (8), trzeci {third} (5); gra: {game}",
    "auto.exchange": "  wymiana: {giver} daje {given} graczowi {receiver}, dostaje {returned}",
    "auto.talon": "  musik: {talon}; odrzucone: {discard}",
    "auto.trick_won": "bierze {winner}",
    "auto.tricks": "  lewy: {list}",
    "auto.scores": "  wyniki: {list}",
    "auto.totals": "  sumy: {list}",
    "auto.final": "Wyniki końcowe:",
    "stats.title": "Statystyki",
    "stats.none": "Brak zakończonych partii: zagraj przez ts358 play.",
    "stats.played": "Rozegrane partie",
    "stats.won": "Wygrane partie",
    "stats.win_rate": "Procent wygranych",
    "stats.avg_total": "Średnia suma",
    "stats.best_total": "Najlepsza suma",
    "stats.level": "Poziom",
    "stats.chooser_games": "Twoje gry jako wybierający",
    "stats.made": "ugrane",
    "stats.leaderboard": "Ranking (wygrane partie, wynik = suma × 10)",
    "stats.no_wins": "Jeszcze żadnej wygranej partii.",
    "stats.rank": "#",
    "stats.result": "Wynik",
    "stats.date": "Data",
    "stats.deals": "Rozdania",
    "stats.bad_lines": "{path}: pominięto uszkodzone linie: {count}",
}

_CS: dict[str, str] = {
    "seat.you": "Vy",
    "seat.left": "Levý",
    "seat.right": "Pravý",
    "role.chooser": "hlásící",
    "role.third": "třetí",
    "role.dealer": "rozdávající",
    "game.spades": "piky",
    "game.hearts": "srdce",
    "game.diamonds": "káry",
    "game.clubs": "kříže",
    "game.no-trump": "bez trumfů",
    "game.no-tricks": "bez štychů",
    "rules.house": "domácí",
    "rules.kurnik": "Kurnik",
    "level.easy": "lehcí",
    "level.medium": "střední",
    "level.hard": "těžcí",
    "table.deal": "Rozdání {number} z {total}",
    "table.game": "hra: {game}",
    "table.no_game": "hra ještě není zvolena",
    "table.trump": "trumf",
    "table.tricks": "štychy: {taken}/{need}",
    "table.tricks_at_most": "štychy: {taken}, nejvýše {limit}",
    "table.total": "součet {total}",
    "table.games_left": "zbývající hry: {games}",
    "table.none_left": "žádné",
    "table.on_table": "Na stole:",
    "table.to_lead": "{name} vynáší",
    "table.your_hand": "Vaše karty",
    "table.first_six": "Vašich prvních 6 karet (zbylých 10 po volbě)",
    "table.talon": "Talon (vidí všichni): {cards}",
    "table.used": "už hráno",
    "prompt.play": "Vaše karta (např. {example} nebo její číslo; help = příkazy)",
    "prompt.choose": "Zvolte hru: název nebo číslo",
    "prompt.give": "Dejte kartu hráči {name} (ještě nejvýše {left}) nebo stop",
    "prompt.return": "Dostali jste trumf {card}: kterou kartu vrátíte?",
    "prompt.discard": "Odložte 4 karty na jednom řádku (např. {example} nebo čtyři čísla)",
    "prompt.next_deal": "Enter: rozdání {number} z {total} (quit: uložit a skončit)",
    "err.not_card": "'{text}' není karta ani příkaz (např. QH, Q♥, 10h nebo číslo; help vypíše příkazy)",
    "err.number": "karta číslo {number} není (1 až {last})",
    "err.not_in_hand": "kartu {card} nemáte",
    "err.follow": "{card} nelze: musíte přiznat barvu ({suit})",
    "err.must_trump": "{card} nelze: nemáte {suit}, musíte dát trumf ({trump})",
    "err.not_game": "'{text}' není hra (na výběr: {games})",
    "err.game_used": "hru {game} jste v této partii už hráli (zbývají: {games})",
    "err.discard_count": "odložte přesně 4 různé karty, ne {count}",
    "err.no_trump_give": "{card} je trumf: podle těchto pravidel se trumfy nevyměňují",
    "err.illegal": "nelze: {reason}",
    "err.stop_only_give": "stop ukončí výměnu; teď je třeba odpovědět kartou",
    "ev.chose": "{name} volí: {game}.",
    "ev.you_gave": "Dali jste {given} hráči {name}, vrátil {returned}.",
    "ev.gave_you": "{name} vám dal {given}; vrátili jste {returned}.",
    "ev.others_exchanged": "Mezi hráči {a} a {b} se vyměnilo karet: {count}.",
    "ev.talon": "Talon je otočen: {cards}; bere ho {name}.",
    "ev.trick": "Štych {number}: {cards}  bere {winner}.",
    "ev.your_discard": "Odložili jste {cards}.",
    "ev.you_chose": "Zvolili jste: {game}.",
    "ev.talon_you": "Talon je otočen: {cards}; berete ho.",
    "short.no-trump": "BT",
    "short.no-tricks": "BŠ",
    "help.title": "Příkazy (platí při každé otázce):",
    "help.text": (
        "  karta: QH, Q♥, 10h, th nebo její číslo v ruce\n"
        "  hint   očekávaný výsledek rozdání pro každou povolenou kartu podle silného počítače\n"
        "  last   poslední štych\n"
        "  score  tabulka skóre partie\n"
        "  help   tento seznam\n"
        "  quit   uložit partii a skončit (pokračování: ts358 play --resume SOUBOR)\n"
        "  Výměna: dávejte karty po jedné, stop ji ukončí. Odložení: čtyři karty na jednom řádku."
    ),
    "hint.thinking": "Přemýšlím (Ctrl-C nápovědu zruší)...",
    "hint.title": "Očekávaný výsledek rozdání pro každou kartu (silný počítač):",
    "hint.best": "nejlepší",
    "hint.unavailable": "Nápověda není k dispozici: {reason}",
    "hint.only_play": "nápověda je při hraní karty",
    "hint.too_early": "takto brzy v rozdání nelze včas vyřešit žádné vylosované rozložení; zeptejte se po několika štyších",
    "hint.cancelled": "Nápověda zrušena.",
    "hint.estimate": "(odhad: vyřešených rozložení {solved}, {bounded} přerušených pro nedostatek času a započtených podle dokázaných mezí)",
    "last.none": "V tomto rozdání ještě žádný štych neskončil.",
    "last.trick": "Poslední štych ({number}): {cards}  bere {winner}.",
    "score.title": "Skóre partie",
    "score.deal": "Rozdání",
    "score.game": "Hra",
    "score.chooser": "Hlásil",
    "score.total": "Součet",
    "score.none": "Ještě neskončilo žádné rozdání.",
    "summary.title": "Rozdání {number}: {game}, hlásil {name}",
    "col.player": "Hráč",
    "col.role": "Role",
    "col.tricks": "Štychy",
    "col.score": "Body",
    "col.total": "Součet",
    "analysis.running": "Analyzuji rozdání s otevřenými kartami (--no-analysis ji vynechá)...",
    "analysis.title": "Analýza: výsledek každého hráče s otevřenými kartami před jeho kartou v každém štychu (sám proti dvěma, všechny karty vidět); (-n): kolik ta karta stála",
    "analysis.trick": "Štych",
    "analysis.lost": "Ztraceno vlastními kartami (cena karty = výsledek hráče před ní minus po ní): {list}",
    "analysis.lost_part": "Ztraceno vlastními kartami od štychu {first} (cena karty = výsledek hráče před ní minus po ní): {list}",
    "analysis.all_best": "Každá vaše karta patřila k nejlepším.",
    "analysis.alt": "Štych {number}: zahráli jste {card} (body {score}); lépe: {best} (body {best_score})",
    "analysis.partial": "Časový limit: analýza od štychu {number}.",
    "analysis.none": "Analýza vynechána (časový limit).",
    "analysis.cancelled": "Analýza zrušena (Ctrl-C); hra pokračuje.",
    "match.start": "Partie: {deals} rozdání, pravidla {rules}, soupeři: {level}, seed {seed}.",
    "match.seats": "Hrajete proti hráčům {left} (po vaší levici) a {right} (po pravici).",
    "match.first_dealer": "První rozdává: {name}.",
    "match.saved": "Partie uložena do {path}",
    "match.resume_hint": "Pokračování: ts358 play --resume {path}",
    "match.resumed": "Partie z {path} pokračuje: rozdání {number} z {total}.",
    "match.finished_already": "Tato partie už skončila.",
    "match.final": "Konečné pořadí",
    "match.place": "{place}. {name}  {total}",
    "match.won": "Vyhráli jste!",
    "match.shared": "Dělíte se o první místo!",
    "match.lost": "Skončili jste na {place}. místě.",
    "match.result": "Váš výsledek: {result} (součet × 10). Statistika: ts358 stats",
    "match.interrupted": "Přerušeno.",
    "match.stopped": "Zastaveno ({signal}).",
    "match.record": "Záznam partie zapsán do {path}",
    "auto.start": "Partie: {deals} rozdání, seed {seed}, pravidla {rules}, hráči: {level}: {names}",
    "auto.deal": "Rozdání {number}: rozdává {dealer} (3), hlásí {chooser} (8), třetí {third} (5); hra: {game}",
    "auto.exchange": "  výměna: {giver} dává {given} hráči {receiver}, dostává {returned}",
    "auto.talon": "  talon: {talon}; odloženo: {discard}",
    "auto.trick_won": "bere {winner}",
    "auto.tricks": "  štychy: {list}",
    "auto.scores": "  body: {list}",
    "auto.totals": "  součty: {list}",
    "auto.final": "Konečné pořadí:",
    "stats.title": "Statistika",
    "stats.none": "Zatím žádná dohraná partie: hrajte přes ts358 play.",
    "stats.played": "Odehrané partie",
    "stats.won": "Vyhrané partie",
    "stats.win_rate": "Podíl výher",
    "stats.avg_total": "Průměrný součet",
    "stats.best_total": "Nejlepší součet",
    "stats.level": "Úroveň",
    "stats.chooser_games": "Vaše hry jako hlásící",
    "stats.made": "splněno",
    "stats.leaderboard": "Žebříček (vyhrané partie, výsledek = součet × 10)",
    "stats.no_wins": "Zatím žádná vyhraná partie.",
    "stats.rank": "#",
    "stats.result": "Výsledek",
    "stats.date": "Datum",
    "stats.deals": "Rozdání",
    "stats.bad_lines": "{path}: přeskočeno poškozených řádků: {count}",
}

MESSAGES: dict[str, dict[str, str]] = {"en": _EN, "pl": _PL, "cs": _CS}
"""Every message by language; every language has every key (checked by the tests)."""

_current = "en"


def set_language(lang: str) -> None:
    """Make ``lang`` (en, pl or cs) the language of :func:`t`; ValueError otherwise."""
    global _current
    if lang not in MESSAGES:
        raise ValueError(f"not a language: {lang!r} (one of {', '.join(LANGUAGES)})")
    _current = lang


def get_language() -> str:
    """The language :func:`t` uses now."""
    return _current


def t(key: str, lang: str | None = None, /, **fmt: object) -> str:
    """The message ``key`` in ``lang`` (default: the current language), formatted with
    ``fmt``; falls back to English, then to the key itself."""
    table = MESSAGES.get(lang or _current, _EN)
    template = table.get(key, _EN.get(key, key))
    return template.format(**fmt) if fmt else template


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


def game_name(game: Contract, lang: str | None = None) -> str:
    """The game as players say it in ``lang``: pik / piky / spades, bez atu, ..."""
    return t(f"game.{game.label}", lang)


def role_name(role: Role, lang: str | None = None) -> str:
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
    ``bez stychu``, ``no-trump``), a suit letter or symbol; NotationError otherwise."""
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


def card_text(card: Card, symbols: bool) -> str:
    """``A♠`` with symbols, ``AS`` without."""
    return card.symbol() if symbols else str(card)


def suit_text(suit: Suit, symbols: bool) -> str:
    return suit.symbol if symbols else suit.letter


def game_short(game: Contract, symbols: bool, lang: str | None = None) -> str:
    """A short game name for tight places: the suit symbol (or letter) for a trump game,
    NT / BA / BT for no-trump, NoTr / BL / BŠ for no-tricks."""
    if game.trump is not None:
        return suit_text(game.trump, symbols)
    return t(f"short.{game.label}", lang)


def games_text(games: Iterable[Contract], lang: str | None = None) -> str:
    """Game names in the fixed order spades ... no-tricks, comma-separated."""
    return ", ".join(game_name(g, lang) for g in sorted(games))
