# Move ordering: fitted lead scores and rules, follow scores, the cut-off cache.

cdef inline int _pair_trump_lead_fit(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Fitted adjustment to the order of the pair's leads in trump contracts (fitted like
    _lead_fit, but against each lead's place in the rule-and-history order; docs/solver.md,
    Log: move ordering): not into P's ruff, not the top card, rather to the partner's top
    card or ruff, and suits where P holds few cards."""
    cdef int s = card_suit(card)
    cdef int L = st.leader
    cdef int P = st.player
    cdef int partner = 3 - L - P
    cdef uint64_t lane = inplay & suit_mask(s)
    cdef uint64_t pl = st.hands[P] & lane
    cdef int winner = highest_card(lane) == card
    cdef int ruff = _can_ruff(st, P, s)
    cdef int partner_top = (st.hands[partner] >> highest_card(lane)) & 1
    cdef int partner_ruff = _can_ruff(st, partner, s)
    cdef int second = not winner and popcount(lane & _above(card)) == 1
    cdef int above = min(popcount(pl & _above(card)), 4)
    cdef uint64_t mine = st.hands[L] & lane
    return (-10 * winner - 30 * ruff + 10 * (winner != 0 and ruff != 0) + 10 * partner_top
            - (partner_top != 0 and ruff != 0) + 10 * partner_ruff - popcount(mine)
            + 3 * second - 10 * (card == lowest_card(mine)) - 3 * above - 10 * min(popcount(pl), 6))


cdef inline int _lead_score(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Move-ordering score for a card led (higher first)."""
    cdef int s = card_suit(card)
    cdef int L = st.leader
    cdef int P = st.player
    cdef int o, partner, rank = card_rank(card)
    cdef uint64_t lane = inplay & suit_mask(s)
    cdef uint64_t above = lane & _above(card)
    cdef uint64_t below = lane & _below(card)
    cdef uint64_t pl, mine, theirs, ptn
    cdef int sure_duck, voids, nb, na, lowest, forcing, pb, sc
    if st.misere:
        # Weights fitted to which leads cut in logged no-tricks searches (full deals, 5 or
        # more tricks left, nodes where some leads cut and some did not); they put a
        # cutting lead first far more often than the hand-written rules they replaced
        # (docs/solver.md, Log: move ordering).
        pl = st.hands[P] & lane
        if L == P:
            # P: lead from short suits that both opponents still hold; a card under all of
            # one opponent's cards ducks for sure, but P's lowest card of the suit is
            # better kept (as a later exit) unless some opponent's card lies below it.
            sure_duck = 0
            voids = 0
            for o in range(3):
                if o != P:
                    theirs = st.hands[o] & lane
                    if not theirs:
                        voids += 1
                    elif lowest_card(theirs) > card:
                        sure_duck = 1
            theirs = lane & ~pl
            nb = popcount(theirs & below)
            na = popcount(theirs & above)
            lowest = card == lowest_card(pl)
            sc = 2000 - 100 * popcount(pl) - 100 * voids + sure_duck * rank + min(nb, 4) - min(na, 4)
            if lowest:
                sc += -100 if sure_duck and nb == 0 else (1 if nb >= 2 else 0) - 1
            return sc
        # The pair: lead cards P can play under (so P spends its low cards), from the
        # leader's short suits and suits the partner is out of; not suits P is out of (P
        # sheds its dangerous cards); forcing P at once (the pair's last low card of the
        # suit, all of P's above) comes late.
        partner = 3 - L - P
        mine = st.hands[L] & lane
        ptn = st.hands[partner] & lane
        forcing = pl != 0 and card == lowest_card(mine) and lowest_card(pl) > card and (
            not ptn or lowest_card(pl) > lowest_card(ptn))
        pb = popcount(pl & below)
        sc = 3000 - 100 * forcing + 100 * min(pb, 4) - 30 * popcount(mine)
        if not pl:
            sc -= 100 * (1 + rank)
        if not ptn:
            sc += 100
        if card == lowest_card(mine):
            sc -= 10
        if pb == 0 and (pl & above):
            sc -= 30
        return sc
    # Trump and no-trump: weights fitted like the no-tricks ones above, ahead of the
    # hand-written rules and the history (which order the ties), as they put a cutting
    # lead first more often.
    return 2048 * _lead_fit(st, card, inplay) + _lead_rules(st, card, inplay)


cdef inline int _replies(SolverState* st, int o, int s, uint64_t gaps) noexcept nogil:
    """How many different answers (one per run of equivalent cards) seat o has to a lead
    of suit s (as if no trump were in the trick yet: under the overtrump rule a void seat
    that must go over another's ruff may have fewer; this only orders moves)."""
    return popcount(_run_tops(st.hands[o], gaps)
                    & legal_mask(st.hands[o], s, st.trump, st.void_rule, NULL, 0))


cdef inline int _lead_fit(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Fitted lead score in trump and no-trump games. Leader's side: prefer suits where the
    other side holds few cards, not the leader's lowest card; in no-trump P cashes its
    top sequences, in trump contracts P leads side suits it is long in (ruffing leads
    count as cashing for no one). The pair's leads in trump contracts: see
    _pair_trump_lead_fit.

    In trump contracts, each answer the other side has to the lead costs one point: after
    a lead that succeeds, every answer must be refuted, so leads that leave few (the
    other side follows from few runs rather than discards or ruffs freely) make smaller
    proofs. Not used in no-trump, where it gained nothing (docs/solver.md, Log: move
    ordering)."""
    cdef int s = card_suit(card)
    cdef int L = st.leader
    cdef int P = st.player
    cdef int trump = st.trump
    cdef uint64_t lane = inplay & suit_mask(s)
    cdef uint64_t mine = st.hands[L] & lane
    cdef uint64_t others = lane & ~mine
    cdef uint64_t gaps = DECK & ~inplay
    cdef int o, winner, length, seq, lowest, second, voids = 0, theirs = 0, ruff = 0
    cdef int answers = 0
    winner = highest_card(lane) == card
    length = popcount(mine)
    seq = popcount(mine & _above(highest_card(others))) if others else length
    lowest = card == lowest_card(mine)
    for o in range(3):
        if o != L and (L == P or o == P):
            if not (st.hands[o] & lane):
                voids += 1
                if _can_ruff(st, o, s):
                    ruff = 1
            theirs += popcount(st.hands[o] & lane)
            if trump >= 0:
                answers += _replies(st, o, s, gaps)
    if theirs > 6:
        theirs = 6
    if trump < 0:
        if L == P:
            return 30 * (winner + seq - voids - lowest - theirs) + length
        return voids - 100 * theirs
    if L != P:
        return -answers
    second = (not winner) and popcount(lane & _above(card)) == 1
    return (ruff - 3 * (winner and ruff) + length - 3 * (s == trump) + voids + second - lowest
            - theirs - answers)


cdef inline int _lead_rules(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Hand-written lead score in trump and no-trump games (higher first)."""
    cdef int s = card_suit(card)
    cdef int L = st.leader
    cdef int P = st.player
    cdef int o, partner, rank = card_rank(card)
    cdef uint64_t lane = inplay & suit_mask(s)
    cdef uint64_t above = lane & _above(card)
    cdef int ruffable = 0
    for o in range(3):
        if o != L and (o == P) != (L == P) and _can_ruff(st, o, s):
            ruffable = 1
    if not above:
        if ruffable:
            return 40 + rank
        return 200 + rank           # a winner: cash it
    if L != P:
        partner = 3 - L - P
        if (st.hands[partner] & lane) and highest_card(lane) == highest_card(st.hands[partner] & lane):
            if not ruffable:
                return 150 - rank   # low to partner's top card
    if ruffable:
        return 10 - rank
    return 60 - rank


cdef inline int _order_follows(SolverState* st, uint64_t reps, int mover,
                               int* moves) noexcept nogil:
    """Put the mover's cards reps into moves, best first (_follow_score); returns how many.
    Only for two or more cards: a single card needs no scores."""
    cdef int L = st.leader
    cdef int P = st.player
    cdef int nt = st.ntrick
    cdef int trump = st.trump
    cdef int card, wins, side_winning, third_max, nmoves = 0
    cdef int scores[16]
    cdef int winner_idx = trick_winner_c(st.trick, nt, trump)
    # Is the trick currently won by the mover's side?
    side_winning = (_seat(L + winner_idx) == P) == (mover == P)
    # Second hand: the best card the third hand can play (-1: none that can win).
    third_max = -1
    if nt == 1:
        third_max = _third_card(st, card_suit(st.trick[0]))
    while reps:
        card = lowest_card(reps)
        reps &= reps - 1
        moves[nmoves] = card
        wins = beats(card, st.trick[winner_idx], trump)
        scores[nmoves] = _follow_score(st, card, wins, side_winning, mover, third_max)
        nmoves += 1
    _sort_moves(moves, scores, nmoves)
    return nmoves


cdef int _order_leads(SolverState* st, uint64_t reps, int best, int hint, int killer,
                      uint64_t inplay, int* moves) noexcept nogil:
    """The leads (reps, the tops of the leader's runs) in search order into moves; returns
    how many. best: the table's move (-1: none), hint: the cut-off cache's, killer: the
    killer lead, first in that order; the rest by _lead_score and the cutoff history, the
    pair's leads in trump contracts then by _pair_trump_lead_fit."""
    cdef int L = st.leader
    cdef int P = st.player
    cdef int nmoves = 0, i, card
    cdef int scores[16]
    while reps:
        card = lowest_card(reps)
        reps &= reps - 1
        moves[nmoves] = card
        if card == best:
            scores[nmoves] = 1 << 30
        elif card == hint:
            scores[nmoves] = (1 << 29) + 1
        elif card == killer:
            scores[nmoves] = 1 << 29
        else:
            scores[nmoves] = _lead_score(st, card, inplay) + 20 * st.hist[L != P][card]
        nmoves += 1
    _sort_moves(moves, scores, nmoves)
    if st.trump >= 0 and L != P:
        # The pair's leads in trump contracts: the fit below trades its features against
        # the place in the order above (10 per place), the table's move and the killer
        # staying first.
        for i in range(nmoves):
            if scores[i] < 1 << 29:
                scores[i] = -10 * i + _pair_trump_lead_fit(st, moves[i], inplay)
        _sort_moves(moves, scores, nmoves)
    return nmoves


cdef inline uint32_t* _cut_slot(SolverState* st, uint64_t cards, uint64_t node,
                               uint32_t* tag) noexcept nogil:
    """The cut-off cache's entry for a node keyed by a card set and a number saying what
    node it is (tag: what the entry holds with no card when it is this node's)."""
    cdef uint64_t h = _mix64(cards ^ _mix64(node ^ st.meta))
    tag[0] = <uint32_t>(h >> 40) << 8
    return &st.cut[h & ((1 << CUT_BITS) - 1)]


cdef inline int _cut_hint(uint32_t* slot, uint32_t tag, uint64_t hand, uint64_t reps) noexcept nogil:
    """The card a cut-off cache entry remembers as the top of its run among reps (the
    mover's moves), or -1."""
    cdef int card
    if (slot[0] >> 8) != (tag >> 8):
        return -1
    card = slot[0] & 255
    if not (hand >> card) & 1:
        return -1
    reps &= ~_below(card) & suit_mask(card_suit(card))
    return lowest_card(reps) if reps else -1


cdef inline void _to_front(int* moves, int nmoves, int card) noexcept nogil:
    """Move a card, if among the moves, to the front (the others keep their order)."""
    cdef int i = nmoves - 1
    while i > 0 and moves[i] != card:
        i -= 1
    while i > 0:
        moves[i] = moves[i - 1]
        moves[i - 1] = card
        i -= 1


cdef inline int _best_reply(uint64_t hand, int lead_suit, int trump, int void_rule) noexcept nogil:
    """The strongest card a hand can play to a trick led in lead_suit: its highest card of
    the suit, else its highest trump when it may ruff, else -1 (it cannot win)."""
    cdef uint64_t x = hand & suit_mask(lead_suit)
    if x:
        return highest_card(x)
    if trump >= 0:
        x = hand & suit_mask(trump)
        if x:
            return highest_card(x)
    return -1


cdef inline int _third_card(SolverState* st, int lead_suit) noexcept nogil:
    """For the second hand's move ordering: in trump and no-trump the strongest card the
    third hand can play (_best_reply); in no-tricks its lowest card of the suit led (-1:
    void)."""
    cdef uint64_t x
    cdef int third = _seat(st.leader + 2)
    if st.misere:
        x = st.hands[third] & suit_mask(lead_suit)
        return lowest_card(x) if x else -1
    return _best_reply(st.hands[third], lead_suit, st.trump, st.void_rule)


cdef inline int _misere_follow_score(SolverState* st, int card, int wins, int side_winning,
                                     int mover, int third_max) noexcept nogil:
    """No-tricks: move-ordering score for a card played to a trick (higher first).

    First come weights fitted to which cards cut in logged full-deal searches: everyone
    discards from short suits; P plays high without winning (a card the third hand must
    overtake ducks too) and discards high; the pair plays high but never over P's
    winning card unless the partner, third, must go over it anyway (an absolute rule on
    top of the fit, which alone let high cards go over: see below). The earlier
    hand-written rules order the ties: P ducks with its highest card that does not win,
    else wins high; the pair stays under P, else plays low."""
    cdef int s = card_suit(card)
    cdef int rank = card_rank(card)
    cdef uint64_t mine = st.hands[mover] & suit_mask(s)
    cdef int length = popcount(mine)
    cdef int follows = s == card_suit(st.trick[0])
    cdef int lowest = card == lowest_card(mine)
    cdef int highest = card == highest_card(mine)
    cdef int overtake = st.ntrick == 1 and follows and third_max >= 0 and third_max > card
    cdef int last_wins = st.ntrick == 2 and wins != 0
    cdef int fit, rule, plen
    if mover == st.player:
        fit = -3 * wins + rank - lowest - 100 * length + 3 * overtake - 3 * last_wins
        if not follows:
            fit += 10 * rank + 3 * length
        rule = 100 + rank if not wins or overtake else rank
    else:
        plen = popcount(st.hands[st.player] & suit_mask(s))
        if plen > 5:
            plen = 5
        fit = (wins + 10 * (rank + highest - lowest) - 100 * length + 30 * overtake
               + 10 * last_wins + 3 * plen)
        if not follows:
            fit += 3 * (rank - length)
        if wins and not side_winning and not (st.ntrick == 1 and third_max > st.trick[0]):
            # Over P's winning card only once no card keeps P winning, unless the third
            # hand (the partner) must go over P anyway. The fit's penalty of 100 was
            # smaller than the rank terms, so a high card went over P first; hence a
            # penalty no other term can outweigh (docs/solver.md, Log: move ordering).
            fit -= 1000
        rule = 100 + rank if not wins else 50 - rank
    return 256 * fit + rule


cdef inline int _follow_score(SolverState* st, int card, int wins, int side_winning,
                              int mover, int third_max) noexcept nogil:
    """Move-ordering score for a card played to a trick (higher first)."""
    cdef int v = _order_value(card, st.trump)
    cdef int third_partner
    if st.misere:
        return _misere_follow_score(st, card, wins, side_winning, mover, third_max)
    if st.ntrick == 1:
        # Second hand: a winner only counts if the third hand cannot beat it.
        third_partner = (mover != st.player) and (st.leader == st.player)
        if third_partner:
            # Partner plays last: low if the partner can take the trick anyway.
            if third_max >= 0 and beats(third_max, st.trick[0], st.trump):
                return 100 - v
            if wins:
                return 100 - v if third_max < 0 or not beats(third_max, card, st.trump) else 40 - v
            return 70 - v
        if side_winning and (third_max < 0 or not beats(third_max, st.trick[0], st.trump)):
            # The partner's lead wins whatever the third hand plays: play low, not over
            # it (ahead of the sure-winner rule below, which went over it first).
            return 100 - v if not wins else 30 - v
        if wins and (third_max < 0 or not beats(third_max, card, st.trump)):
            return 100 - v      # a sure winner, cheapest first
        return 70 - v if not wins else 40 - v
    if side_winning:
        if not wins:
            return 100 - v
        return 50 - v
    if wins:
        return 100 - v
    return 50 - v
