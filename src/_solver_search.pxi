# The search: null-window tests at lead and follow nodes, the greedy playout that
# guesses the first target, and the driver that narrows the value (_solve_value).

# ---------------------------------------------------------------- search

cdef inline void _sort_moves(int* moves, int* scores, int nmoves) noexcept nogil:
    """Insertion sort, highest score first."""
    cdef int i, j, card, tmp
    for i in range(1, nmoves):
        card = moves[i]
        tmp = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < tmp:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = card
        scores[j + 1] = tmp


cdef inline uint64_t _overtrump_rel(uint64_t hand, int suit, int trump, int t0,
                                   int t1) noexcept nogil:
    """Under the overtrump rule, the cards the third hand's legal moves depended on: where
    it cannot follow the suit led but holds trumps and the second hand ruffed, its moves are
    its trumps above that ruff (all of them if none is above), so the ruff's rank is
    relevant. With that card exact (and so every trump above it: partition search), the
    same trumps are legal in every position the result covers. Else none: the rule then
    plays as the house rule (the second hand never faces a trump before its own)."""
    if (trump < 0 or hand & suit_mask(suit) or not hand & suit_mask(trump)
            or card_suit(t1) != trump or card_suit(t0) == trump):
        return 0
    return (<uint64_t>1) << t1


cdef inline int _search(SolverState* st, int target, uint64_t* rel) noexcept nogil:
    """f >= target? answered with a bound b on f (fail-soft): b >= target proves f >= b,
    b < target proves f <= b. A node passes up the bound of the move that decided it, or,
    where every move was tried, the loosest of theirs; quick bounds and table entries give
    theirs. The table stores these bounds, which are often tighter than the target asked:
    later searches with other targets (the next step of _solve_value, or the same position
    reached with P holding another number of tricks) cut there too. rel: the relevant
    cards, which cover the bound as they cover the answer."""
    cdef uint64_t inplay
    cdef int i
    if st.ntrick == 0:
        return _search_lead(st, target, rel)
    inplay = st.hands[0] | st.hands[1] | st.hands[2]
    for i in range(st.ntrick):
        inplay |= (<uint64_t>1) << st.trick[i]
    return _search_follow(st, target, rel, inplay)


cdef inline uint64_t _next_owners(uint64_t h0r, uint64_t h1r, const uint64_t* ends,
                                  int k) noexcept nogil:
    """The seats holding each suit's k-th card, from the relative-rank hands and the suits'
    end bits (see _boundary_key), one byte per suit: 0, 1 or 2, 3 for none."""
    cdef uint64_t out = 0, card, start = 1
    cdef int s
    for s in range(4):
        card = ends[s] >> k
        if card >= start:
            out |= <uint64_t>(0 if h0r & card else (1 if h1r & card else 2)) << (8 * s)
        else:
            out |= <uint64_t>3 << (8 * s)
        start = ends[s]
    return out


cdef inline bint _tops_exact(int code, uint64_t inplay, int k) noexcept nogil:
    """An entry keeps the top k cards of every suit exact (all, where fewer)."""
    cdef int s, n
    for s in range(4):
        n = popcount(inplay & suit_mask(s))
        if ((code >> (4 * s)) & 15) < (k if n > k else n):
            return 0
    return 1


cdef int _search_lead(SolverState* st, int target, uint64_t* rel) noexcept nogil:
    """f >= target? at a trick boundary (st.ntrick == 0), as a bound on f (fail-soft, see
    _search). rel: the relevant cards."""
    cdef int n = st.tricks_left
    cdef int L = st.leader
    cdef int P = st.player
    cdef int i, k, w, nmoves, card, r, maximizer, lo, hi, best, s, nfound, live, same, killer
    cdef TTEntry* found[FOUND_MAX]
    cdef uint64_t chain[CHAIN]
    cdef uint64_t chain2[CHAIN]
    cdef uint64_t* cur = chain
    cdef int split, hot, nchain1 = 0
    cdef int nchain
    cdef int cards[3]
    cdef int moves[32]          # 16 leads at most, and those put off (a team's search)
    cdef uint64_t inplay, hand, reps, key, bit, h0r, h1r, mask, emask, total, gaps, crel, acc
    cdef uint64_t rlo, rhi, skip
    cdef uint64_t put_off = 0, here = 0, mine = 0, answer = 0
    cdef uint64_t* busy = NULL
    cdef uint64_t ends[4]
    cdef int code
    cdef uint64_t hsh
    cdef int64_t nodes0
    cdef int sibling = NO_MOVE
    cdef int elo, ehi
    cdef uint64_t bidx
    cdef uint64_t wkey, wh0, wh1
    cdef TTEntry* b
    cdef TTEntry* e
    cdef uint32_t* cslot
    cdef uint32_t ctag
    cdef int hint, first
    rel[0] = 0
    if target <= 0:
        return 0
    if target > n:
        return n
    if n == 1:
        for i in range(3):
            cards[i] = lowest_card(st.hands[_seat(L + i)])
        k = trick_winner_c(cards, 3, st.trump)
        rel[0] = _rank_winner(cards, k)
        return 1 if _seat(L + k) == P else 0
    st.nodes += 1
    if st.nodes >= st.check_at:
        if _check_signals(st):
            return 0
    if st.team != NULL:
        if _team_decided(st):
            st.abort = 6
            return 0
        if st.member >= 0 and _team_unwinds(st, n):
            st.abort = 8
            return 0
    nodes0 = st.nodes
    inplay = st.hands[0] | st.hands[1] | st.hands[2]

    # The table's bucket first, so that its memory arrives while the bounds are computed
    # (worth the work wasted where the bounds decide; docs/solver.md, Log: table).
    key = _boundary_key(st, inplay, &h0r, &h1r, &mask, ends)
    hsh = _mix64(key ^ _mix64((h0r & mask) * 3 + (h1r & mask)))
    key &= CHECK
    total = ends[0] + ends[1] + ends[2] + ends[3]
    chain[0] = _chain_bucket(st, hsh, 0)
    bidx = chain[0]
    live = _live(st, bidx)
    b = st.tt + bidx * BUCKET
    ts_prefetch(b + (live - 1 if live else 0))

    # Quick tricks.
    _quick_bounds(st, inplay, &lo, &hi, &rlo, &rhi)
    if lo >= target:
        rel[0] = rlo
        return lo
    if hi < target:
        rel[0] = rhi
        return hi

    # Table.
    best = NO_MOVE
    nfound = 0
    # The live entries of a bucket are a prefix (see _tt_store), scanned newest first: a
    # search revisits the positions it stored last most often. A full bucket continues in the
    # next bucket of the position's chain: some coarse positions (suit lengths and top
    # owners) collect thousands of entries in the heavy deals, and with one bucket's room
    # the searches kept replacing and recomputing them. Buckets of 128 in chains of 16 hold
    # as much for one position as 256 in chains of 8, while a scan passes fewer entries of
    # other positions: that lets no-tricks chain too, where 256-entry buckets made the
    # hottest scans too slow to chain (docs/solver.md, Log: table).
    nchain = 0
    split = 0
    while True:
        same = 0
        for i in range(live - 1, -1, -1):
            e = &b[i]
            if (e.key & CHECK) != key:
                continue
            same += 1
            # The newest move of the coarse position (used only if no entry for these cards
            # has one: see below).
            if sibling == NO_MOVE:
                sibling = _e_best(e)
            # The entry's cards must be among the probe's (a first test without the mask).
            if ((e.h0 & ~h0r) | (e.h1 & ~h1r)) & HAND:
                continue
            emask = _code_mask(e.h0 >> 48, ends, total)
            if (h0r & emask) != (e.h0 & HAND) or (h1r & emask) != (e.h1 & HAND):
                continue
            if nfound < FOUND_MAX:
                found[nfound] = e
            nfound += 1
            elo = _e_lo(e)
            ehi = _e_hi(e)
            if elo >= target or ehi < target:
                if st.check != NULL:
                    # Another thread may be writing the entry: it decides only as its
                    # check word confirms it, read again (SolverState.check).
                    if not _checked(st, e, &wkey, &wh0, &wh1):
                        continue
                    emask = _code_mask(wh0 >> 48, ends, total)
                    if ((wkey & CHECK) != key or (h0r & emask) != (wh0 & HAND)
                            or (h1r & emask) != (wh1 & HAND)):
                        continue
                    elo = (wkey >> 52) & 31
                    ehi = (wkey >> 57) & 31
                    if elo < target and ehi >= target:
                        continue
                rel[0] = _rel_of(emask, inplay)
                _touch(st, e)
                return elo if elo >= target else ehi
            if best == NO_MOVE:
                best = _e_best(e)
        nchain += 1
        hot = live == BUCKET and same >= BUCKET // 4
        if nchain == 1 and hot and not split:
            split = 1
        # Only a bucket filled mostly by this coarse position continues: a table kept over
        # many solves (a computer player's) fills every bucket with many positions, and
        # chains there only made every scan longer.
        if not hot or nchain == CHAIN:
            if split == 1:
                # Where one coarse position fills its first bucket (the heavy deals, whose
                # probes scan long), its entries that keep each suit's next card exact too
                # (the top two in trump and no-trump, most of the entries there; the top
                # four in no-tricks) go to a second chain, hashed on the owners of those
                # cards too, which shortens those scans. A position whose first bucket is
                # no longer so full misses them there: that costs a search, never a wrong
                # value (docs/solver.md, Log: table).
                split = 2
                nchain1 = nchain
                cur = chain2
                hsh = _mix64(hsh ^ _mix64(_next_owners(h0r, h1r, ends, st.mink + 1) + 1))
                nchain = 0
                cur[0] = _chain_bucket(st, hsh, 0)
                bidx = cur[0]
                live = _live(st, bidx)
                b = st.tt + bidx * BUCKET
                continue
            break
        cur[nchain] = _chain_bucket(st, hsh, nchain)
        bidx = cur[nchain]
        live = _live(st, bidx)
        b = st.tt + bidx * BUCKET

    # No entry for these cards: the best lead of the newest entry of the same coarse position
    # (suit lengths, leader, top owners) with other low cards is often this one's best too
    # (the newest rather than the costliest: docs/solver.md, Log: move ordering).
    if best == NO_MOVE:
        best = sibling
    maximizer = (L == P) != st.misere
    hand = st.hands[L]
    gaps = DECK & ~inplay
    reps = _run_tops(hand, gaps)
    if best != NO_MOVE and best >> 4 < 4:    # (a shared table's torn read is only a hint)
        s = best >> 4
        k = popcount(inplay & suit_mask(s)) - 1 - (best & 15)
        best = -1
        if k >= 0:
            card = nth_card(inplay & suit_mask(s), k)
            if (hand >> card) & 1:
                # Any card of a run may have been stored: use the run's top.
                best = lowest_card(reps & ~_below(card))
    else:
        best = -1
    # The killer lead (the leader's lead that cut elsewhere at this depth where the order's
    # first failed) comes right after the table's move where the fitted orders are
    # weakest, and only there: the pair's leads in trump contracts and in no-tricks, P's
    # in no-trump (docs/solver.md, Log: move ordering).
    killer = st.killer[n][L] if (L != P) == (st.trump >= 0 or st.misere != 0) else -1
    # The cut-off cache (trump and no-trump): the lead that last cut with the leader holding
    # exactly these cards, whatever the others hold, right after the table's move. It
    # generalises over the other hands, which the table's move does not (docs/solver.md,
    # Log: move ordering).
    hint = -1
    if not st.misere:
        cslot = _cut_slot(st, hand, L, &ctag)
        hint = _cut_hint(cslot, ctag, hand, reps)
    # The table's move, else the cut-off cache's, is tried alone: the others are scored only
    # if it does not cut.
    first = best if best >= 0 else hint
    if first >= 0:
        moves[0] = first
        nmoves = 1
    else:
        nmoves = _order_leads(st, reps, -1, hint, killer, inplay, moves)

    if st.team != NULL and n >= DEFER_FROM:
        here = _position_hash(st)
        if st.member >= 0:
            answer = _answer_key(st, here, target, n)
            _team_enter(st, n, answer)
    # No move reaching the leader's aim: the bound is the loosest of the moves' bounds.
    r = -1 if maximizer else n
    best = -1
    acc = 0
    skip = 0
    i = -1
    while True:
        i += 1
        if i == nmoves:
            if i > 1 or first < 0:
                break
            nmoves = 1 + _order_leads(st, reps & ~((<uint64_t>1) << first), first, hint,
                                      killer, inplay, moves + 1)
            if nmoves == 1:
                break
        card = moves[i]
        if (skip >> card) & 1:
            continue
        bit = (<uint64_t>1) << card
        busy = NULL
        if here and i > 0 and not put_off & bit:
            # In a team, a lead another thread is searching now waits until the others
            # have been tried (ABDADA; see _solver_team.pxi).
            if _team_put_off(st, here, card, &busy, &mine):
                put_off |= bit
                moves[nmoves] = card
                nmoves += 1
                continue
        st.hands[L] ^= bit
        st.trick[0] = card
        st.ntrick = 1
        k = _search_follow(st, target, &crel, inplay)
        st.ntrick = 0
        st.hands[L] ^= bit
        if busy != NULL:
            _team_release(busy, mine)
        if st.abort:
            if answer:
                _team_leave(st, n)
                if st.abort == 8 and st.unwind_n == n:
                    # Another thread answered this node: its answer is in the table (else,
                    # where a race lost it, the node is searched again).
                    st.abort = 0
                    return _search_lead(st, target, rel)
            return 0
        crel = _run_adjust(crel, card, hand & ~bit, gaps)
        if (k >= target) == maximizer:
            r = k
            best = card
            acc = crel
            if card != hint and not st.misere:
                cslot[0] = ctag | <uint32_t>card
            if i > 0:
                st.killer[n][L] = card
                if st.hist[L != P][card] < 63:
                    st.hist[L != P][card] += 1
            break
        r = max(r, k) if maximizer else min(r, k)
        acc |= crel
        skip |= _small_twins(crel, card, hand)
    rel[0] = acc
    mask = _exact_mask(acc, inplay, st.mink, &code)
    if best >= 0:
        s = card_suit(best)
        best = s * 16 + popcount(inplay & suit_mask(s) & _above(best))
    else:
        best = NO_MOVE
    if split:
        if _tops_exact(code, inplay, st.mink + 1):
            cur = chain2
        else:
            cur = chain
            nchain = nchain1
    # The result as bounds: f >= r, or f <= r.
    _tt_store(st, cur, nchain, found, nfound, key, h0r & mask, h1r & mask, code,
              r if r >= target else 0, n if r >= target else r, best,
              _ilog2(st.nodes - nodes0 + 1))
    if answer:
        _team_answered(st, n, answer)
    return r


cdef int _search_follow(SolverState* st, int target, uint64_t* rel,
                        uint64_t inplay) noexcept nogil:
    """f >= target? with 1 or 2 cards on the table. rel: the relevant cards. inplay: the
    cards in the hands and the trick, the same from the trick's lead to its end (passed
    down rather than gathered again at every node)."""
    cdef int nt = st.ntrick
    cdef int L = st.leader
    cdef int P = st.player
    cdef int mover = _seat(L + nt)
    cdef int trump = st.trump
    cdef int i, k, w, win, won, nmoves, card, r, maximizer, suit
    cdef int moves[32]          # 16 cards at most, and those put off (a team's search)
    cdef uint64_t hand, legal, reps, bit, gaps, crel, acc, skip
    cdef uint64_t put_off = 0, here = 0, mine = 0
    cdef uint64_t* busy = NULL
    cdef int saved_left
    cdef int t0 = st.trick[0]
    cdef int t1 = st.trick[1]
    cdef uint32_t* cslot
    cdef uint32_t ctag
    cdef int hint = -1
    rel[0] = 0
    st.nodes += 1
    if st.nodes >= st.check_at:
        if _check_signals(st):
            return 0
    hand = st.hands[mover]
    suit = card_suit(t0)
    legal = legal_mask(hand, suit, trump, st.void_rule, st.trick, nt)
    gaps = DECK & ~inplay
    reps = _run_tops(hand, gaps) & legal
    maximizer = (mover == P) != st.misere
    if reps & (reps - 1):
        if not st.misere:
            # The cut-off cache (trump and no-trump): the card that last cut with the same
            # cards of the suit led in play, the same card winning the trick so far, and the
            # mover holding the same cards of the suit (or, when it cannot follow, the same
            # hand), first, and alone: the others are ordered only if it does not cut, which
            # it mostly does. In no-tricks the fitted order is better without it
            # (docs/solver.md, Log: move ordering).
            cslot = _cut_slot(st, (inplay & suit_mask(suit)) * 3
                              + (hand & suit_mask(suit) if hand & suit_mask(suit) else hand),
                              (nt * 3 + mover) * 64
                              + (t0 if nt == 1 or not beats(t1, t0, trump) else t1) + 3, &ctag)
            hint = _cut_hint(cslot, ctag, hand, reps)
        if hint >= 0:
            moves[0] = hint
            nmoves = 1
        else:
            nmoves = _order_follows(st, reps, mover, moves)
    else:
        # One run of cards to play: nothing to order.
        moves[0] = lowest_card(reps)
        nmoves = 1

    if st.team != NULL and st.tricks_left >= DEFER_FROM and (nmoves > 1 or hint >= 0):
        here = _mix64(_position_hash(st) ^ ((<uint64_t>(t0 + 1) << 8)
                                             | (<uint64_t>(t1 + 1) if nt == 2 else 0)))
    r = -1 if maximizer else st.tricks_left
    acc = 0
    skip = 0
    i = -1
    while True:
        i += 1
        if i == nmoves:
            if i > 1 or hint < 0:
                break
            # The cut-off cache's card did not cut: the others, in order.
            nmoves = 1 + _order_follows(st, reps & ~((<uint64_t>1) << hint), mover, moves + 1)
        card = moves[i]
        if (skip >> card) & 1:
            continue
        bit = (<uint64_t>1) << card
        busy = NULL
        if here and i > 0 and not put_off & bit:
            # As at a lead (see _search_lead).
            if _team_put_off(st, here, card, &busy, &mine):
                put_off |= bit
                moves[nmoves] = card
                nmoves += 1
                continue
        st.hands[mover] ^= bit
        st.trick[nt] = card
        if nt == 2:
            win = trick_winner_c(st.trick, 3, trump)
            w = _seat(L + win)
            saved_left = st.tricks_left
            st.leader = w
            st.ntrick = 0
            st.tricks_left = saved_left - 1
            won = 1 if w == P else 0
            k = _search_lead(st, target - won, &crel) + won
            st.tricks_left = saved_left
            st.leader = L
            st.ntrick = 2
            st.trick[0] = t0
            st.trick[1] = t1
            st.trick[2] = card
            crel |= _rank_winner(st.trick, win)
        else:
            st.ntrick = nt + 1
            k = _search_follow(st, target, &crel, inplay)
            st.ntrick = nt
        st.hands[mover] ^= bit
        if busy != NULL:
            _team_release(busy, mine)
        if st.abort:
            return 0
        crel = _run_adjust(crel, card, hand & ~bit, gaps)
        if (k >= target) == maximizer:
            r = k
            acc = crel
            if card != hint and not st.misere and reps & (reps - 1):
                cslot[0] = ctag | <uint32_t>card
            break
        r = max(r, k) if maximizer else min(r, k)
        acc |= crel
        skip |= _small_twins(crel, card, hand)
    rel[0] = acc
    if st.void_rule == OVERTRUMP and nt == 2:
        rel[0] = acc | _overtrump_rel(hand, suit, trump, t0, t1)
    return r


cdef int _playout(SolverState* st0) noexcept nogil:
    """f along one greedy playout: every seat plays its first card in move order."""
    cdef SolverState tmp = st0[0]
    cdef SolverState* st = &tmp
    cdef int P = st.player
    cdef int trump = st.trump
    cdef int taken = 0
    cdef int nt, L, mover, card, best, sc, bestsc, k, winner_idx, side_winning, third_max
    cdef uint64_t inplay, reps, gaps, hand
    while st.tricks_left > 0:
        nt = st.ntrick
        L = st.leader
        mover = (L + nt) % 3
        hand = st.hands[mover]
        inplay = st.hands[0] | st.hands[1] | st.hands[2]
        for k in range(nt):
            inplay |= (<uint64_t>1) << st.trick[k]
        gaps = DECK & ~inplay
        best = -1
        bestsc = -(1 << 30)
        if nt == 0:
            reps = _run_tops(hand, gaps)
            while reps:
                card = lowest_card(reps)
                reps &= reps - 1
                sc = _lead_score(st, card, inplay)
                if sc > bestsc:
                    bestsc = sc
                    best = card
        else:
            reps = _run_tops(hand, gaps) & legal_mask(hand, card_suit(st.trick[0]), trump,
                                                      st.void_rule, st.trick, nt)
            winner_idx = trick_winner_c(st.trick, nt, trump)
            side_winning = (((L + winner_idx) % 3) == P) == (mover == P)
            third_max = -1
            if nt == 1:
                third_max = _third_card(st, card_suit(st.trick[0]))
            while reps:
                card = lowest_card(reps)
                reps &= reps - 1
                sc = _follow_score(st, card, beats(card, st.trick[winner_idx], trump),
                                   side_winning, mover, third_max)
                if sc > bestsc:
                    bestsc = sc
                    best = card
        st.hands[mover] ^= (<uint64_t>1) << best
        st.trick[nt] = best
        if nt == 2:
            k = (L + trick_winner_c(st.trick, 3, trump)) % 3
            if k == P:
                taken += 1
            st.leader = k
            st.ntrick = 0
            st.tricks_left -= 1
        else:
            st.ntrick = nt + 1
    return taken


cdef int _solve_value(SolverState* st) noexcept nogil:
    """f for the position in st: null-window tests from a greedy playout's value, each
    next target one past the bound the last test proved (tests around the value are
    needed anyway; this skips most others). Stopped (st.abort): -1, with the bounds the
    finished tests proved in st.cur_lo and st.cur_hi."""
    cdef int lo = 0
    cdef int hi = st.tricks_left
    cdef int t = _playout(st)
    cdef int b
    cdef uint64_t rel
    cdef int64_t limit = st.node_limit
    cdef bint budget, dropped, late = 0
    if st.trump >= 0:
        # In trump contracts the playout gives P about one trick too many, and tests
        # that succeed on the way up cost less than tests that fail on the way down
        # (docs/solver.md, Log: driver, targets and tests).
        t -= 1
    if st.misere:
        # The playout's value is a poor guess in no-tricks (the pair's greedy play lets P
        # off lightly), so the tests climb from 1.
        t = 1
    # In trump contracts the first test runs on a budget of FIRST_BUDGET nodes; past it, it
    # is dropped (the table keeps what it proved) and the tests start one higher. A first
    # test that heavy is mostly P proving one trick below the value, where the playout
    # guessed the value itself: the next test, at the value, costs as much again. The
    # budget lightens the heaviest solves at no cost to the typical ones (docs/solver.md,
    # Log: driver, targets and tests).
    budget = st.trump >= 0
    while True:
        if st.team != NULL:
            _team_bounds(st, &lo, &hi)
        st.cur_lo = lo
        st.cur_hi = hi
        if lo >= hi:
            break
        if t <= lo:
            t = lo + 1
        if t > hi:
            t = hi
        if st.team != NULL:
            st.gen = _team_gen(st)
            st.team_t = t
        else:
            st.gen += (<uint64_t>1) << 62     # a new generation per test (see _tt_store)
        if budget and (limit == 0 or st.nodes + FIRST_BUDGET < limit):
            st.node_limit = st.nodes + FIRST_BUDGET
        b = _search(st, t, &rel)
        st.node_limit = limit
        dropped = budget and st.abort == 2 and (limit == 0 or st.nodes < limit)
        budget = 0
        if st.abort == 6:
            # Another thread of the team decided this test: on from what it proved.
            st.abort = 0
            continue
        if dropped:
            st.abort = 0
            t += 1
            continue
        if st.abort == 5:
            # The test filled the table with its own entries: the table grows fourfold (up
            # to grow_to) and the test runs again from what the table kept, most of the
            # work (docs/solver.md, The table's growth). Growing takes up to about a second
            # (touching the new memory, moving the entries): not with a deadline nearer.
            # A table other solvers use is grown by the caller (abort 5 kept: stopped).
            if st.deadline > 0:
                with gil:
                    late = st.deadline - _monotonic() < GROW_MARGIN
            if st.grow_here or late:
                st.abort = 0
                st.evicted = 0
                st.grow_at = 0
                if not late and _tt_grow(st, min(st.tt_buckets * 4, st.grow_to)):
                    if st.tt_buckets < st.grow_to:
                        st.grow_at = <int64_t>(st.tt_buckets * BUCKET // 2)
                continue
        if st.abort:
            return -1
        if b >= t:
            lo = b
            t = b + 1
        else:
            hi = b
            t = b
        if st.team != NULL:
            _team_prove(st, lo, hi)
    return lo
