# Quick bounds at trick starts: sure tricks and kept top cards (_quick_bounds), and the
# no-tricks bounds (_misere_bounds), with the small helpers they share with the search.

# ---------------------------------------------------------------- search helpers

cdef inline int _check_signals(SolverState* st) noexcept nogil:
    cdef PyObject* r
    st.check_at += st.check_every
    with gil:
        if _py_check_signals() != 0:
            st.abort = 1
        elif st.stop_requested or (st.deadline > 0 and _monotonic() >= st.deadline):
            st.abort = 3
        elif st.progress != NULL:
            r = _py_call4(st.progress, "Liii", st.nodes, st.cur_card, st.cur_lo + st.cur_won,
                          st.cur_hi + st.cur_won)
            if r == NULL:
                st.abort = 1
            Py_XDECREF(r)
    if not st.abort and st.node_limit and st.nodes >= st.node_limit:
        st.abort = 2
    return st.abort


cdef inline int _seat(int x) noexcept nogil:
    """x % 3 for 0 <= x < 6 (a seat plus an offset): a compare, not a division."""
    return x - 3 if x >= 3 else x


cdef inline int _ilog2(int64_t x) noexcept nogil:
    cdef int r = 0
    while x > 1:
        x >>= 1
        r += 1
    return r


cdef inline int _order_value(int card, int trump) noexcept nogil:
    """Cost of giving a card away: rank, trumps dearer than any side card."""
    if card_suit(card) == trump:
        return card_rank(card) + 16
    return card_rank(card)


cdef inline uint64_t _rank_winner(const int* cards, int w) noexcept nogil:
    """The winning card of a complete trick as a relevant card if it beat another card of
    its suit (its rank decided the trick), else nothing."""
    cdef int i, s = card_suit(cards[w])
    for i in range(3):
        if i != w and card_suit(cards[i]) == s:
            return (<uint64_t>1) << cards[w]
    return 0


cdef inline int _top_seq(uint64_t mine, uint64_t lane, uint64_t* low) noexcept nogil:
    """Number of top cards of a suit (in play: lane) held in `mine`; low: the lowest of them."""
    cdef uint64_t others = lane & ~mine
    cdef uint64_t tops
    if others:
        tops = mine & _above(highest_card(others))
    else:
        tops = mine & lane
    if tops:
        low[0] = tops & (~tops + 1)
        return popcount(tops)
    return 0


cdef inline int _beaten(uint64_t mine, uint64_t theirs) noexcept nogil:
    """How many cards of `mine` can each be beaten by a different higher card of `theirs`
    (one suit): matched from the top, each card of `mine` takes any unused higher one, so
    a card is beaten when more of `theirs` lie above it than were used above it. The loop
    visits only the cards of `mine`."""
    cdef int card, count = 0
    while mine:
        card = highest_card(mine)
        mine ^= (<uint64_t>1) << card
        if popcount(theirs & _above(card)) > count:
            count += 1
    return count


cdef inline bint _can_ruff(SolverState* st, int o, int s) noexcept nogil:
    """Seat o can ruff a lead of suit s: s is a side suit of a trump contract, o holds none
    of it and holds a trump."""
    return (st.trump >= 0 and s != st.trump and not (st.hands[o] & suit_mask(s))
            and (st.hands[o] & suit_mask(st.trump)) != 0)


cdef inline int _longest_other(SolverState* st, int X, uint64_t lane) noexcept nogil:
    """The most cards of lane that one seat other than X holds."""
    cdef int o, k, most = 0
    for o in range(3):
        if o != X:
            k = popcount(st.hands[o] & lane)
            if k > most:
                most = k
    return most


cdef int _sure_on_lead(SolverState* st, int X, uint64_t inplay, uint64_t* rel) noexcept nogil:
    """Tricks seat X on lead takes for sure by cashing top cards (trumps first, side suits
    only as long as every other seat holding trumps still follows, unless X's top trumps
    draw all the others' trumps first). Where X's top cards of a suit are at least as many
    as any other seat's cards of it, they draw that suit and X's lower cards of it win
    too, in a side suit once no other seat can ruff. The lowest top card of each suit
    counted goes into rel: with the hand shapes it fixes all of that."""
    cdef int s, c, limit, o, count = 0, drawn = 0
    cdef uint64_t lane, low, mine
    cdef int trump = st.trump
    if trump >= 0:
        lane = inplay & suit_mask(trump)
        if st.hands[X] & lane:
            drawn = _top_seq(st.hands[X] & lane, lane, &low) >= _longest_other(st, X, lane)
        else:
            drawn = lane == 0
    for s in range(4):
        lane = inplay & suit_mask(s)
        mine = st.hands[X] & lane
        if not mine:
            continue
        c = _top_seq(mine, lane, &low)
        if c == 0:
            continue
        if trump < 0 or s == trump or drawn:
            if c >= _longest_other(st, X, lane):
                c = popcount(mine)
        else:
            limit = 99
            for o in range(3):
                if o != X and st.hands[o] & suit_mask(trump):
                    limit = min(limit, popcount(st.hands[o] & lane))
            if limit < c:
                c = limit
                if c == 0:
                    continue
                low = (<uint64_t>1) << nth_card(mine & lane, popcount(mine & lane) - c)
        count += c
        rel[0] |= low
    return count


cdef inline int _keeps_tops(SolverState* st, uint64_t inplay, int X, int a,
                            int b, uint64_t* rel, bint seqs) noexcept nogil:
    """Seats a and b (a == b: one seat) leading every trick until X's side wins one, in
    no-trump or with a and b out of trumps: X's side wins a trick for each suit whose
    top card X holds and for each trump of X, if X can keep those cards to the end; 0 if
    this argument gives nothing. (With X's partner in the fourth seat, only the first
    trick is sure: the partner's trumps may fall on X's, and X may not get the lead.)

    X discards only when void in the suit led (holding trumps it ruffs instead, and
    wins). A suit t where X lacks the top is led at most (a's or b's longer length in t)
    times, as every holder follows each lead, so it forces at most that minus X's length
    discards. X discards its excess cards of such suits (which keeps it following) and
    the cards below the top in its top suits. If those cover the forced discards, X never
    discards a counted card, so each is played to a lead of its own suit or as a ruff,
    winning, or cashed on X's lead after its first win; if not, each discard beyond them
    costs one counted card at most. And X holding a trump never discards before its first
    win: it ruffs.

    That much depends on the suit lengths and on which suits' top card X holds: the top
    card of each side suit goes into rel. Every table entry keeps the top cards exact
    anyway, but the caller's position may hold a higher card of the suit (led to this
    trick), and its search must not take the lower cards of that suit for equivalent
    (_small_twins) when one of them would have left another seat with the top.

    With seqs, the spare cards left over also keep the cards of X's top sequences below
    the top card: cashed after the top card, each wins too; so do X's lower cards of a
    suit where the sequence is at least as long as a's and b's cards of it, which it draws.
    The lowest card kept of each such sequence goes into rel (for the lower cards, the
    sequence's lowest: with the hand shapes it fixes the rest)."""
    cdef int s, j, k = 0, forced = 0, spare = 0, xn, qn, bn, trumps = 0
    cdef uint64_t lane, mine, low, tops = 0
    cdef int seq[4]
    if st.trump >= 0 and (st.hands[a] | st.hands[b]) & suit_mask(st.trump):
        return 0
    for s in range(4):
        lane = inplay & suit_mask(s)
        if not lane:
            continue
        mine = st.hands[X] & lane
        xn = popcount(mine)
        if s == st.trump:
            k += xn
            trumps = xn
            continue
        tops |= (<uint64_t>1) << highest_card(lane)
        seq[s] = 0
        if mine and highest_card(mine) == highest_card(lane):
            k += 1
            spare += xn - 1
            if seqs:
                seq[s] = _top_seq(mine, lane, &low)
            continue
        qn = popcount(st.hands[a] & lane)
        bn = popcount(st.hands[b] & lane)
        if bn > qn:
            qn = bn
        if qn > xn:
            forced += qn - xn
        else:
            spare += xn - qn
    if trumps:
        # It ruffs instead of discarding: no discard is forced, every spare card stays.
        forced = 0
        spare = 99
    if forced > spare:
        k -= forced - spare
        spare = forced
    if k <= 0:
        return 0
    rel[0] |= tops
    if seqs:
        spare -= forced
        for s in range(4):
            if spare == 0:
                break
            if s == st.trump or not (inplay & suit_mask(s)):
                continue
            lane = inplay & suit_mask(s)
            mine = st.hands[X] & lane
            j = seq[s] - 1
            if seq[s] and seq[s] >= popcount(st.hands[a] & lane) and seq[s] >= popcount(st.hands[b] & lane):
                j = popcount(mine) - 1
            if j <= 0:
                continue
            if j > spare:
                j = spare
            spare -= j
            k += j
            rel[0] |= (<uint64_t>1) << nth_card(mine, popcount(mine) - min(j + 1, seq[s]))
    return k


cdef void _quick_bounds(SolverState* st, uint64_t inplay, int* lo, int* hi,
                        uint64_t* rlo, uint64_t* rhi) noexcept nogil:
    """Sure bounds on f at a trick boundary, each with the cards that make it hold."""
    cdef int n = st.tricks_left
    cdef int L = st.leader
    cdef int P = st.player
    cdef int s, o, c, c1, c2, cl
    cdef uint64_t lane, low, r, pl, lane_o, tmp, rl
    cdef int trump = st.trump
    lo[0] = 0
    hi[0] = n
    rlo[0] = 0
    rhi[0] = 0
    if not st.misere:
        if trump >= 0:
            lane = inplay & suit_mask(trump)
            pl = st.hands[P] & lane
            # P's top trumps each take a trick, whoever leads.
            c = _top_seq(pl, lane, &low)
            if c:
                lo[0] = c
                rlo[0] = low
            # Every trump is played by the end, and one of P's loses only to a higher trump
            # of an opponent, a different one each time: P takes at least its trumps minus
            # those the opponents' higher trumps can be matched against.
            if pl:
                c = popcount(pl) - _beaten(pl, lane & ~pl)
                if c > lo[0]:
                    lo[0] = c
                    rlo[0] = pl & (~pl + 1)
            # Mirrored for each opponent: its trumps take tricks for the pair except those
            # P's higher trumps beat (the top ones alone need fewer exact cards).
            c1 = 0
            r = 0
            for o in range(3):
                if o == P:
                    continue
                lane_o = st.hands[o] & lane
                if not lane_o:
                    continue
                tmp = lane_o & _above(highest_card(pl)) if pl else lane_o
                c2 = popcount(tmp)
                if c2 > c1:
                    c1 = c2
                    r = (<uint64_t>1) << highest_card(pl) if pl else 0
                c2 = popcount(lane_o) - _beaten(lane_o, pl)
                if c2 > c1:
                    c1 = c2
                    r = lane_o & (~lane_o + 1)
            if c1:
                hi[0] = n - c1
                rhi[0] = r
        if L == P:
            r = 0
            c = _sure_on_lead(st, P, inplay, &r)
            if c > lo[0]:
                lo[0] = c
                rlo[0] = r
            # An opponent that keeps a top card takes a trick.
            r = 0
            if hi[0] == n and (_keeps_tops(st, inplay, _seat(P + 1), P, P, &r, 0)
                               or _keeps_tops(st, inplay, _seat(P + 2), P, P, &r, 0)):
                hi[0] = n - 1
                rhi[0] = r
        else:
            r = 0
            c = _keeps_tops(st, inplay, P, L, 3 - L - P, &r, 1)
            if c > lo[0]:
                lo[0] = c
                rlo[0] = r
            rl = 0
            cl = _sure_on_lead(st, L, inplay, &rl)
            if n - cl < hi[0]:
                hi[0] = n - cl
                rhi[0] = rl
            # Or the leader crosses to the partner's top card of a suit it holds (P
            # following or unable to ruff) and the partner cashes its own sure tricks.
            # Where P holds no trump the leader can cash its own first: P never ruffs,
            # the partner follows suit to them (their ruffs are ruled out as in
            # _sure_on_lead) or discards cards it does not count, if it has enough; the
            # partner's tops stay tops.
            o = 3 - L - P
            for s in range(4):
                lane = inplay & suit_mask(s)
                if not (st.hands[L] & lane) or not (st.hands[o] & lane):
                    continue
                if _can_ruff(st, P, s):
                    continue
                c = _top_seq(st.hands[o] & lane, lane, &low)
                if c == 0:
                    continue
                r = (<uint64_t>1) << highest_card(st.hands[o] & lane)
                c = _sure_on_lead(st, o, inplay, &r)
                if (trump < 0 or not (st.hands[P] & suit_mask(trump))) and popcount(st.hands[o]) - c >= cl:
                    c += cl
                    r |= rl
                if n - c < hi[0]:
                    hi[0] = n - c
                    rhi[0] = r
                break
    else:
        _misere_bounds(st, inplay, lo, hi, rlo, rhi)


cdef inline int _ducks_all(uint64_t mine, uint64_t theirs) noexcept nogil:
    """No-tricks, one suit: can P (mine) play under the pair (theirs) every time the pair
    leads it? Yes if each i-th lowest card of P is below the i-th lowest of the pair, as far
    as both reach. P answers a lead with its highest card below the card led; that keeps
    the condition (the pair's cards that leave only raise its i-th lowest), and so do P's
    discards if it sheds the highest card of a suit."""
    cdef int i = 0, q
    cdef int a = popcount(mine)
    while theirs and i < a:
        q = lowest_card(theirs)
        theirs &= theirs - 1
        i += 1
        if popcount(mine & _below(q)) < i:
            return 0
    return 1


cdef inline void _misere_bounds(SolverState* st, uint64_t inplay, int* lo, int* hi,
                                uint64_t* rlo, uint64_t* rhi) noexcept nogil:
    """No-tricks bounds at a trick boundary. P wins a trick only with the highest card of
    the suit led, and the pair never beats P unless forced (no trumps: a void seat
    discards). Relevant cards: P's lowest card of the suits that decide, which fixes (with
    the hand shapes) how many cards of each seat lie below it."""
    cdef int n = st.tricks_left
    cdef int L = st.leader
    cdef int P = st.player
    cdef int partner = 3 - L - P
    cdef int s, o, c, low, m, lcount, plen, duck = 0, safe = 1
    cdef int cap[4]
    cdef int cap1[4]
    cdef int forcing[4]
    cdef uint64_t lane, pl, lane_o, lane_l, lane_p, tmp, r = 0, rd = 0, rs = 0
    if L == P:
        # P on lead. The pair keeps P on lead, winning, while each opponent can follow
        # P's leads under P's lowest card of the suit led: with, per suit of P and
        # opponent, l cards below P's lowest and h above it (h > 0), P can lead the suit
        # only l times before the opponent must beat it, unless l >= P's length there;
        # the opponent discards its "above" cards first. So P takes at least the least
        # such l tricks (all n if none is limited). An opponent with l == 0 < h: P
        # leading that suit loses the trick.
        m = n
        for s in range(4):
            lane = inplay & suit_mask(s)
            pl = st.hands[P] & lane
            if not pl:
                continue
            low = lowest_card(pl)
            tmp = lane & ~pl
            if not tmp:
                continue
            if highest_card(pl) > lowest_card(tmp):
                safe = 0
            r |= (<uint64_t>1) << low
            for o in range(3):
                if o != P:
                    lane_o = st.hands[o] & lane
                    if not lane_o:
                        continue
                    lcount = popcount(lane_o & _below(low))
                    if lcount < popcount(lane_o) and lcount < popcount(pl) and lcount < m:
                        m = lcount
                    if lcount == 0 and not duck:
                        duck = 1
                        rd = (<uint64_t>1) << low
        if m:
            lo[0] = m
            rlo[0] = r
        if duck:
            if safe:
                # Every card of P is below all the others of its suit: P loses this
                # trick and, never winning, never leads again (see below).
                hi[0] = 0
                rhi[0] = r
            else:
                hi[0] = n - 1
                rhi[0] = rd
        return
    # The pair on lead. A suit of P where both opponents hold a lower card (or the
    # leader does and the partner is void): leading it wins P this trick. P ducks this
    # trick if, in every suit the leader holds, P is void or holds a card below all of
    # the leader's.
    # If in every suit P can duck all the pair's leads (_ducks_all), P never takes a trick:
    # each trick is led by the pair and P plays under it.
    #
    # After such a forcing trick P is on lead, and the count above applies to what is left
    # (the two low cards the pair played there were below P's lowest card of the suit):
    # P takes 1 + that many tricks at least.
    duck = 1
    m = n
    for s in range(4):
        cap[s] = n
        cap1[s] = n
        forcing[s] = 0
        lane = inplay & suit_mask(s)
        pl = st.hands[P] & lane
        if not pl:
            continue
        low = lowest_card(pl)
        plen = popcount(pl)
        tmp = lane & ~pl
        if tmp:
            if not _ducks_all(pl, tmp):
                safe = 0
            rs |= pl & (~pl + 1)
            for o in range(3):
                if o == P:
                    continue
                lane_o = st.hands[o] & lane
                if not lane_o:
                    continue
                lcount = popcount(lane_o & _below(low))
                if lcount < popcount(lane_o):
                    if lcount < plen and lcount < cap[s]:
                        cap[s] = lcount
                    if plen > 1 and lcount - 1 < plen - 1 and lcount - 1 < cap1[s]:
                        cap1[s] = lcount - 1
        lane_l = st.hands[L] & lane
        if not lane_l:
            continue
        r |= (<uint64_t>1) << low
        if lowest_card(lane_l) > low:
            continue
        duck = 0
        lane_p = st.hands[partner] & lane
        if not lane_p or lowest_card(lane_p) < low:
            forcing[s] = 1
    for s in range(4):
        if not forcing[s]:
            continue
        c = cap1[s]
        for o in range(4):
            if o != s and cap[o] < c:
                c = cap[o]
        if c > n - 1:
            c = n - 1
        if c < 0:
            c = 0
        if c + 1 > lo[0]:
            lo[0] = c + 1
            rlo[0] = rs
    if safe:
        hi[0] = 0
        rhi[0] = rs
    elif duck:
        hi[0] = n - 1
        rhi[0] = r
