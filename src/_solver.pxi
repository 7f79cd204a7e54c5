# The double-dummy solver; included into _core358.pyx so it shares the inline card helpers.
#
# Game: one player P against the other two playing together (paranoid). The solver computes
# f(position) = P's tricks from now on (the trick in progress counts) under minimax, where P
# maximises f in trump and no-trump contracts and minimises it in no-tricks (the other two
# always do the opposite). Everything below is a null-window test "f >= target?" driven by
# an iterating target; the transposition table stores lower and upper bounds on f at trick
# boundaries, keyed on relative ranks (ranks renumbered among the cards still in play).
#
# The search runs without the GIL; every CHECK_INTERVAL nodes it takes the GIL to call
# PyErr_CheckSignals, and on failure unwinds (st.abort) so the wrapper can re-raise.

from libc.stdint cimport uint8_t, int8_t, uint32_t
from libc.stdlib cimport malloc, free
from libc.string cimport memset
from cpython.exc cimport PyErr_Occurred

cdef extern from "Python.h":
    # Declared without an exception spec: a failure leaves the exception set (for the
    # wrapper to re-raise) instead of having Cython report it inside the nogil search.
    int _py_check_signals "PyErr_CheckSignals"() noexcept

cdef enum:
    CHECK_INTERVAL = 1 << 16
    BUCKET = 4              # entries per table bucket
    NO_MOVE = 255


cdef struct TTEntry:
    uint64_t k0             # relative-rank hand of seat 0, spare lane bits hold the meta data
    uint64_t k1             # seat 1, spare bits: the rest of the meta data
    uint64_t k2             # seat 2
    int8_t lo               # lower bound on f
    int8_t hi               # upper bound on f
    uint8_t best            # leader's best move as suit * 16 + relative rank, or NO_MOVE
    uint8_t work            # log2 of the nodes spent on the entry (replacement priority)
    uint32_t spare


cdef struct SolverState:
    uint64_t hands[3]
    int trick[3]
    int ntrick
    int leader
    int tricks_left         # tricks still to be completed, the one in progress included
    int trump               # trump suit or -1
    int contract
    int void_rule
    int player
    int misere              # 1 in no-tricks: P minimises f
    uint64_t meta0[3]       # key bits for k0 / k1 by leader
    uint64_t meta1[3]
    int64_t nodes
    int64_t check_at
    int abort
    TTEntry* tt
    uint64_t tt_mask        # number of buckets - 1


# ---------------------------------------------------------------- relative ranks

# pext (parallel bit extract) of a 13-bit lane in two table lookups: the low 7 bits and
# the high 6 bits of the lane.
cdef uint8_t PEXT7[128 * 128]
cdef uint8_t PEXT6[64 * 64]


cdef void _init_pext_tables() noexcept nogil:
    cdef int m, x, b, out, k
    for m in range(128):
        for x in range(128):
            out = 0
            k = 0
            for b in range(7):
                if (m >> b) & 1:
                    if (x >> b) & 1:
                        out |= 1 << k
                    k += 1
            PEXT7[m * 128 + x] = out
    for m in range(64):
        for x in range(64):
            out = 0
            k = 0
            for b in range(6):
                if (m >> b) & 1:
                    if (x >> b) & 1:
                        out |= 1 << k
                    k += 1
            PEXT6[m * 64 + x] = out


_init_pext_tables()


cdef inline uint64_t _pext13(uint64_t x, uint64_t m) noexcept nogil:
    """The bits of x selected by m (13-bit lanes), packed to the bottom."""
    cdef uint64_t lo = PEXT7[((m & 127) << 7) | (x & 127)]
    cdef uint64_t hi = PEXT6[((m >> 7) << 6) | (x >> 7)]
    return lo | (hi << popcount(m & 127))


cdef inline uint64_t _rel_hand(uint64_t h, uint64_t inplay) noexcept nogil:
    """The hand with each card's rank replaced by its rank among the cards in play."""
    cdef uint64_t out = 0
    cdef int s
    for s in range(4):
        out |= _pext13((h >> (16 * s)) & SUIT_BITS, (inplay >> (16 * s)) & SUIT_BITS) << (16 * s)
    return out


cdef inline int _unrel_card(int rel, uint64_t inplay) noexcept nogil:
    """The card in play whose relative rank in its suit is `rel` (suit * 16 + relative rank)."""
    cdef int s = rel >> 4
    return nth_card(inplay & suit_mask(s), rel & 15)


cdef inline uint64_t _spread_spare(uint64_t bits) noexcept nogil:
    """Up to 12 bits placed in the unused top three bits of each 16-bit lane."""
    return (((bits & 7) << 13) | (((bits >> 3) & 7) << 29) | (((bits >> 6) & 7) << 45)
            | (((bits >> 9) & 7) << 61))


# ---------------------------------------------------------------- equivalent cards

cdef inline uint64_t _run_tops(uint64_t h, uint64_t gaps) noexcept nogil:
    """Cards of h that are the highest of their run: a run is a set of cards of one suit in
    h with only gaps (cards out of play) between them. Occluded fill of h downward through
    the gaps; a card is not a top if the position above it is reached."""
    cdef uint64_t f = h
    cdef uint64_t g = gaps
    f |= g & (f >> 1)
    g &= g >> 1
    f |= g & (f >> 2)
    g &= g >> 2
    f |= g & (f >> 4)
    g &= g >> 4
    f |= g & (f >> 8)
    return h & ~(f >> 1)


# ---------------------------------------------------------------- transposition table

cdef inline uint64_t _hash3(uint64_t a, uint64_t b, uint64_t c) noexcept nogil:
    cdef uint64_t x = a * <uint64_t>0x9E3779B97F4A7C15
    x ^= (b + <uint64_t>0x632BE59BD9B4E019) * <uint64_t>0xC2B2AE3D27D4EB4F
    x = (x ^ (x >> 29)) + c * <uint64_t>0x165667B19E3779F9
    x ^= x >> 32
    x *= <uint64_t>0xD6E8FEB86659FD93
    x ^= x >> 29
    return x


cdef inline TTEntry* _tt_probe(SolverState* st, uint64_t k0, uint64_t k1,
                               uint64_t k2) noexcept nogil:
    cdef TTEntry* b = st.tt + (_hash3(k0, k1, k2) & st.tt_mask) * BUCKET
    cdef int i
    for i in range(BUCKET):
        if b[i].k0 == k0 and b[i].k1 == k1 and b[i].k2 == k2:
            return &b[i]
    return NULL


cdef inline void _tt_store(SolverState* st, uint64_t k0, uint64_t k1, uint64_t k2,
                           int lo, int hi, int best, int work) noexcept nogil:
    cdef TTEntry* b = st.tt + (_hash3(k0, k1, k2) & st.tt_mask) * BUCKET
    cdef TTEntry* e = NULL
    cdef int i
    for i in range(BUCKET):
        if b[i].k0 == k0 and b[i].k1 == k1 and b[i].k2 == k2:
            e = &b[i]
            if lo > e.lo:
                e.lo = lo
            if hi < e.hi:
                e.hi = hi
            if best != NO_MOVE:
                e.best = best
            if work > e.work:
                e.work = work
            return
    # Not present: take an empty slot, else the one that cost the least to compute.
    e = &b[0]
    for i in range(BUCKET):
        if b[i].k0 == 0:
            e = &b[i]
            break
        if b[i].work < e.work:
            e = &b[i]
    e.k0 = k0
    e.k1 = k1
    e.k2 = k2
    e.lo = lo
    e.hi = hi
    e.best = best
    e.work = work


# ---------------------------------------------------------------- search

cdef inline int _check_signals(SolverState* st) noexcept nogil:
    st.check_at += CHECK_INTERVAL
    with gil:
        if _py_check_signals() != 0:
            st.abort = 1
    return st.abort


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


cdef inline int _search(SolverState* st, int target) noexcept nogil:
    if st.ntrick == 0:
        return _search_lead(st, target)
    return _search_follow(st, target)


cdef int _search_lead(SolverState* st, int target) noexcept nogil:
    """f >= target? at a trick boundary (st.ntrick == 0)."""
    cdef int n = st.tricks_left
    cdef int L = st.leader
    cdef int P = st.player
    cdef int i, j, k, w, nmoves, card, r, maximizer, lo, hi, best, bestrel, tmp
    cdef int cards[3]
    cdef int moves[16]
    cdef int scores[16]
    cdef uint64_t inplay, hand, reps, k0, k1, k2, bit
    cdef int64_t nodes0
    cdef TTEntry* e
    if target <= 0:
        return 1
    if target > n:
        return 0
    if n == 1:
        for i in range(3):
            cards[i] = lowest_card(st.hands[(L + i) % 3])
        w = (L + trick_winner_c(cards, 3, st.trump)) % 3
        return 1 if w == P else 0
    st.nodes += 1
    if st.nodes >= st.check_at:
        if _check_signals(st):
            return 0
    nodes0 = st.nodes
    inplay = st.hands[0] | st.hands[1] | st.hands[2]
    k0 = _rel_hand(st.hands[0], inplay) | st.meta0[L]
    k1 = _rel_hand(st.hands[1], inplay) | st.meta1[L]
    k2 = _rel_hand(st.hands[2], inplay)
    lo = 0
    hi = n
    bestrel = NO_MOVE
    e = _tt_probe(st, k0, k1, k2)
    if e != NULL:
        lo = e.lo
        hi = e.hi
        if lo >= target:
            return 1
        if hi < target:
            return 0
        bestrel = e.best

    maximizer = (L == P) != st.misere
    hand = st.hands[L]
    reps = _run_tops(hand, DECK & ~inplay)
    nmoves = 0
    best = -1
    if bestrel != NO_MOVE:
        best = _unrel_card(bestrel, inplay)
        # The stored card may be any card of its run: use the run's top.
        best = lowest_card(reps & ~(((<uint64_t>1) << best) - 1))
    while reps:
        card = lowest_card(reps)
        reps &= reps - 1
        moves[nmoves] = card
        if card == best:
            scores[nmoves] = 1000
        else:
            scores[nmoves] = _lead_score(st, card, inplay)
        nmoves += 1
    # insertion sort, highest score first
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

    r = 0 if maximizer else 1
    best = -1
    for i in range(nmoves):
        card = moves[i]
        bit = (<uint64_t>1) << card
        st.hands[L] ^= bit
        st.trick[0] = card
        st.ntrick = 1
        k = _search_follow(st, target)
        st.ntrick = 0
        st.hands[L] ^= bit
        if st.abort:
            return 0
        if k == maximizer:
            r = k
            best = card
            break
    if r:
        if target > lo:
            lo = target
    else:
        if target - 1 < hi:
            hi = target - 1
    if best >= 0:
        bestrel = card_suit(best) * 16 + popcount(inplay & suit_mask(card_suit(best))
                                                   & (((<uint64_t>1) << best) - 1))
    else:
        bestrel = NO_MOVE
    _tt_store(st, k0, k1, k2, lo, hi, bestrel, _ilog2(st.nodes - nodes0 + 1))
    return r


cdef inline int _lead_score(SolverState* st, int card, uint64_t inplay) noexcept nogil:
    """Move-ordering score for a card led (higher first)."""
    cdef int s = card_suit(card)
    cdef uint64_t above = inplay & suit_mask(s) & ~((((<uint64_t>1) << card) << 1) - 1)
    cdef int top = above == 0
    if st.misere:
        # Everyone tries low leads first.
        return 20 - card_rank(card)
    if top:
        return 100 + card_rank(card)
    return 20 - card_rank(card)


cdef int _search_follow(SolverState* st, int target) noexcept nogil:
    """f >= target? with 1 or 2 cards on the table."""
    cdef int nt = st.ntrick
    cdef int L = st.leader
    cdef int P = st.player
    cdef int mover = (L + nt) % 3
    cdef int trump = st.trump
    cdef int i, j, k, w, nmoves, card, r, maximizer, tmp, winner_idx, wins, side_winning
    cdef int moves[16]
    cdef int scores[16]
    cdef uint64_t inplay, hand, legal, reps, bit
    cdef int saved_left
    cdef int t0 = st.trick[0]
    cdef int t1 = st.trick[1]
    st.nodes += 1
    if st.nodes >= st.check_at:
        if _check_signals(st):
            return 0
    inplay = st.hands[0] | st.hands[1] | st.hands[2]
    for i in range(nt):
        inplay |= (<uint64_t>1) << st.trick[i]
    hand = st.hands[mover]
    legal = legal_mask(hand, card_suit(st.trick[0]), trump, st.void_rule)
    reps = _run_tops(hand, DECK & ~inplay) & legal
    maximizer = (mover == P) != st.misere
    winner_idx = trick_winner_c(st.trick, nt, trump)
    # Is the trick currently won by the mover's side?
    side_winning = (((L + winner_idx) % 3) == P) == (mover == P)
    nmoves = 0
    while reps:
        card = lowest_card(reps)
        reps &= reps - 1
        moves[nmoves] = card
        wins = beats(card, st.trick[winner_idx], trump)
        scores[nmoves] = _follow_score(st, card, wins, side_winning, mover)
        nmoves += 1
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

    r = 0 if maximizer else 1
    for i in range(nmoves):
        card = moves[i]
        bit = (<uint64_t>1) << card
        st.hands[mover] ^= bit
        st.trick[nt] = card
        if nt == 2:
            w = (L + trick_winner_c(st.trick, 3, trump)) % 3
            saved_left = st.tricks_left
            st.leader = w
            st.ntrick = 0
            st.tricks_left = saved_left - 1
            k = _search_lead(st, target - (1 if w == P else 0))
            st.tricks_left = saved_left
            st.leader = L
            st.ntrick = 2
            st.trick[0] = t0
            st.trick[1] = t1
        else:
            st.ntrick = nt + 1
            k = _search_follow(st, target)
            st.ntrick = nt
        st.hands[mover] ^= bit
        if st.abort:
            return 0
        if k == maximizer:
            r = k
            break
    return r


cdef inline int _follow_score(SolverState* st, int card, int wins, int side_winning,
                              int mover) noexcept nogil:
    """Move-ordering score for a card played to a trick (higher first)."""
    cdef int v = _order_value(card, st.trump)
    if st.misere:
        if mover == st.player:
            # Duck with the highest card that does not win; if forced to win, win high.
            if not wins:
                return 100 + v
            return v
        # Opponents: P winning -> stay under it, shedding high cards; else play low.
        if not wins:
            return 100 + v
        return 50 - v
    if side_winning:
        if not wins:
            return 100 - v
        return 50 - v
    if wins:
        return 100 - v
    return 50 - v


cdef int _solve_value(SolverState* st) noexcept nogil:
    """f for the position in st (bisection over null-window tests)."""
    cdef int lo = 0
    cdef int hi = st.tricks_left
    cdef int t
    while lo < hi:
        t = (lo + hi + 1) >> 1
        if _search(st, t):
            lo = t
        else:
            hi = t - 1
        if st.abort:
            return -1
    return lo


# ---------------------------------------------------------------- Python-facing surface

cdef class Solver:
    """Double-dummy solver for 3-5-8 positions (one player against the other two).

    The transposition table (``tt_mb`` megabytes) is kept between calls; results do not
    depend on its size.
    """
    cdef SolverState st
    cdef void* tt_raw
    cdef size_t tt_size
    cdef bint busy

    def __cinit__(self, int tt_mb=64):
        cdef size_t nbytes, nbuckets
        if tt_mb < 1:
            raise ValueError(f"tt_mb must be at least 1, not {tt_mb}")
        nbytes = <size_t>tt_mb << 20
        nbuckets = 1
        while nbuckets * 2 * BUCKET * sizeof(TTEntry) <= nbytes:
            nbuckets *= 2
        self.tt_size = nbuckets * BUCKET * sizeof(TTEntry)
        self.tt_raw = malloc(self.tt_size + 64)
        if self.tt_raw == NULL:
            raise MemoryError("cannot allocate the transposition table")
        self.st.tt = <TTEntry*>((<size_t>self.tt_raw + 63) & ~(<size_t>63))
        self.st.tt_mask = nbuckets - 1
        memset(self.st.tt, 0, self.tt_size)
        self.st.nodes = 0
        self.busy = False

    def __init__(self, int tt_mb=64):
        pass

    def __dealloc__(self):
        if self.tt_raw != NULL:
            free(self.tt_raw)
            self.tt_raw = NULL

    @property
    def nodes(self):
        """Nodes searched since construction or the last reset_stats()."""
        return self.st.nodes

    @property
    def tt_bytes(self):
        """Bytes allocated for the transposition table."""
        return self.tt_size

    def reset_stats(self):
        """Set the node counter to zero."""
        self.st.nodes = 0

    def clear(self):
        """Empty the transposition table."""
        self._enter()
        memset(self.st.tt, 0, self.tt_size)
        self.busy = False

    cdef int _enter(self) except -1:
        if self.busy:
            raise RuntimeError("this Solver is already solving (use one Solver per thread)")
        self.busy = True
        return 0

    cdef int _load(self, hands, int leader, trick, int contract, int void_rule) except -1:
        """Validate a position and copy it into the search state."""
        cdef uint64_t h[3]
        cdef uint64_t seen
        cdef int i, seat, n, k, card, mover
        _check_contract(contract)
        _check_void_rule(void_rule)
        if leader < 0 or leader > 2:
            raise ValueError(f"leader must be 0-2, not {leader}")
        if len(hands) != 3:
            raise ValueError("three hands are needed")
        for i in range(3):
            x = hands[i]
            if not isinstance(x, int):
                raise TypeError(f"hand {i} must be an int card set, not {type(x).__name__}")
            if x < 0 or x.bit_length() > 64:
                raise ValueError(f"hand {i} holds bits that are not card ids")
            h[i] = x
            if h[i] & ~DECK:
                raise ValueError(f"hand {i} holds bits that are not card ids")
        if (h[0] & h[1]) or (h[0] & h[2]) or (h[1] & h[2]):
            raise ValueError("a card is in two hands")
        k = len(trick)
        if k > 2:
            raise ValueError("the trick in progress holds at most two cards")
        mover = (leader + k) % 3
        n = popcount(h[mover])
        for i in range(3):
            seat = (leader + i) % 3
            if popcount(h[seat]) != (n - 1 if i < k else n):
                raise ValueError("hand sizes do not fit the trick in progress: seats that "
                                 "have played to it hold one card fewer than the others")
        if k and n == 0:
            raise ValueError("the seat to move has no cards")
        seen = h[0] | h[1] | h[2]
        for i in range(k):
            card = trick[i]
            _check_card(card)
            if (seen >> card) & 1:
                raise ValueError(f"trick card {card} is also in a hand or played twice")
            seat = (leader + i) % 3
            if not (legal_mask(h[seat] | ((<uint64_t>1) << card),
                               card_suit(trick[0]) if i else -1,
                               trump_of(contract), void_rule) >> card) & 1:
                raise ValueError(f"trick card {card} is not a legal play for seat {seat}")
            seen |= (<uint64_t>1) << card
            self.st.trick[i] = card
        for i in range(3):
            self.st.hands[i] = h[i]
        self.st.ntrick = k
        self.st.leader = leader
        self.st.tricks_left = n
        self.st.trump = trump_of(contract)
        self.st.contract = contract
        self.st.void_rule = void_rule
        self.st.misere = contract == NO_TRICKS
        self.st.abort = 0
        self.st.check_at = self.st.nodes + CHECK_INTERVAL
        return 0

    cdef void _set_player(self, int player) noexcept nogil:
        cdef int L
        self.st.player = player
        for L in range(3):
            # k0 spare: leader (2 bits) | player (2 bits) | contract (3 bits) | void (1 bit)
            self.st.meta0[L] = _spread_spare(<uint64_t>(L | (player << 2) | (self.st.contract << 4)
                                                        | (self.st.void_rule << 7)))
            self.st.meta1[L] = 0

    cdef int _raise_abort(self) except -1:
        self.busy = False
        if PyErr_Occurred() != NULL:
            return -1
        raise KeyboardInterrupt

    def value(self, hands, int leader, trick, int contract, int void_rule, int player):
        """The player's double-dummy value from this position on (trick in progress counts).

        Trump and no-trump: most tricks the player can guarantee against the other two.
        No-tricks: fewest tricks the player can guarantee not to exceed.
        """
        cdef int v
        if player < 0 or player > 2:
            raise ValueError(f"player must be 0-2, not {player}")
        self._enter()
        try:
            self._load(hands, leader, trick, contract, void_rule)
        except BaseException:
            self.busy = False
            raise
        self._set_player(player)
        with nogil:
            v = _solve_value(&self.st)
        if self.st.abort:
            self._raise_abort()
        self.busy = False
        return v

    def move_values(self, hands, int leader, trick, int contract, int void_rule):
        """(card id, mover's value after playing it) for every legal card, ascending card id."""
        cdef SolverState* st = &self.st
        cdef int nt, mover, L, card, w, i, nreps, saved_left, v, t0, t1
        cdef uint64_t inplay, legal, reps, hand, bit, legal_left
        cdef int repcards[16]
        cdef int repvals[16]
        self._enter()
        try:
            self._load(hands, leader, trick, contract, void_rule)
        except BaseException:
            self.busy = False
            raise
        nt = st.ntrick
        L = st.leader
        mover = (L + nt) % 3
        t0 = st.trick[0]
        t1 = st.trick[1]
        hand = st.hands[mover]
        if hand == 0:
            self.busy = False
            return []
        self._set_player(mover)
        inplay = st.hands[0] | st.hands[1] | st.hands[2]
        for i in range(nt):
            inplay |= (<uint64_t>1) << st.trick[i]
        legal = legal_mask(hand, card_suit(st.trick[0]) if nt else -1, st.trump, st.void_rule)
        reps = _run_tops(hand, DECK & ~inplay) & legal
        nreps = 0
        with nogil:
            while reps:
                card = lowest_card(reps)
                reps &= reps - 1
                bit = (<uint64_t>1) << card
                st.hands[mover] ^= bit
                st.trick[nt] = card
                if nt == 2:
                    w = (L + trick_winner_c(st.trick, 3, st.trump)) % 3
                    saved_left = st.tricks_left
                    st.leader = w
                    st.ntrick = 0
                    st.tricks_left = saved_left - 1
                    v = _solve_value(st)
                    if w == mover:
                        v += 1
                    st.tricks_left = saved_left
                    st.leader = L
                    st.ntrick = 2
                    st.trick[0] = t0
                    st.trick[1] = t1
                else:
                    st.ntrick = nt + 1
                    v = _solve_value(st)
                    st.ntrick = nt
                st.hands[mover] ^= bit
                repcards[nreps] = card
                repvals[nreps] = v
                nreps += 1
                if st.abort:
                    break
        if st.abort:
            self._raise_abort()
        self.busy = False
        out = []
        i = 0
        legal_left = legal
        while legal_left:
            card = lowest_card(legal_left)
            legal_left &= legal_left - 1
            while repcards[i] < card:
                i += 1
            out.append((card, repvals[i]))
        return out
